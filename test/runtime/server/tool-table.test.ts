import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { parseCatalog } from '../../../templates/runtime/server/tool-table.js';
import { catalogFileText } from '../../../src/emit/catalog.js';
import { dataJson } from '../../../src/emit/data-json.js';

function tool(name: string, extra: Partial<CatalogTool> = {}): CatalogTool {
  return {
    name,
    description: `Does ${name} — with "quotes" and ünïcödé`,
    inputSchema: { type: 'object', properties: {} },
    defs: [],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    request: { method: 'GET', path: `/${name}`, params: [] },
    ...extra,
  } as CatalogTool;
}

function catalogWith(tools: CatalogTool[]): Catalog {
  return {
    format: 1,
    toolMode: 'all',
    core: [],
    server: { name: 's', version: '1.0.0', title: 'S (MCP)', instructions: 'Use it.' },
    baseUrl: 'https://api.example.com',
    defs: { Pet: { type: 'object', description: 'A pet\nwith a newline' } },
    tools,
    securitySchemes: [],
  };
}

describe('parseCatalog', () => {
  const catalog = catalogWith([tool('listPets'), tool('get"Pet"'), tool('deletePet')]);
  const written = catalogFileText(catalog);

  it('starts from the name list the generator writes: the header at once, each tool when first needed', () => {
    expect(written).toContain('"toolNames":["listPets","get\\"Pet\\"","deletePet"]');
    const { header, tools } = parseCatalog(Buffer.from(written));
    const { tools: expectedTools, toolNames: _names, ...expectedHeader } = JSON.parse(written) as Catalog;
    expect(header).toEqual(expectedHeader);
    expect(tools.length).toBe(3);
    expect(tools.names()).toEqual(['listPets', 'get"Pet"', 'deletePet']);
    expect(tools.indexOf('get"Pet"')).toBe(1);
    expect(tools.indexOf('nope')).toBe(-1);
    expect(tools.at(2)).toEqual(expectedTools[2]);
    expect([0, 1].map((i) => tools.at(i))).toEqual(expectedTools.slice(0, 2));
    expect(tools.at(2)).toBe(tools.at(2)); // parsed once
  });

  it('reads lines with UTF-8 characters (the generator writes ASCII; an edit may not)', () => {
    const edited = written.replace('"description":"Does listPets', '"description":"Lïsts pets ✓');
    const { header, tools } = parseCatalog(Buffer.from(edited, 'utf8'));
    expect(tools.at(0).description).toBe('Lïsts pets ✓ — with "quotes" and ünïcödé');
    expect(tools.at(1)).toEqual(catalog.tools[1]);
    expect(header.defs['Pet']).toEqual(catalog.defs['Pet']);
  });

  it('refuses any other layout of the same JSON, saying to regenerate', () => {
    const withoutNames = dataJson(catalog as unknown as Record<string, unknown>, ['defs', 'tools']);
    for (const [other, why] of [
      [JSON.stringify(catalog, null, 2), 'no line starting with "tools":['],
      [JSON.stringify(catalog), 'no line starting with'],
      [dataJson(catalog as unknown as Record<string, unknown>, ['defs']), 'the tools are not one per line'],
      [withoutNames, 'no "toolNames" list'],
      [written.replace('"format":1', '"format":1,,'), 'its header is not JSON'],
    ] as const) {
      expect(() => parseCatalog(Buffer.from(other))).toThrow(
        new RegExp(`^catalog.json is not as the generator writes it \\(${escape(why)}.*\\): regenerate the server$`),
      );
    }
  });

  it('says so when the name list and the tool lines disagree (a catalog edited by hand)', () => {
    const renamed = parseCatalog(Buffer.from(written.replace('{"name":"deletePet"', '{"name":"removePet"')));
    expect(() => renamed.tools.at(2)).toThrow(
      'catalog.json lists tool 3 as "deletePet" but its line is "removePet": regenerate the server',
    );
    const short = parseCatalog(
      Buffer.from(written.replace('"toolNames":["listPets",', '"toolNames":["listPets","extra",')),
    );
    expect(() => short.tools.at(3)).toThrow('catalog.json names more tools than it has lines for');
  });

  it('reads a catalog without tools', () => {
    const { header, tools } = parseCatalog(Buffer.from(catalogFileText(catalogWith([]))));
    expect(tools.length).toBe(0);
    expect(header.defs['Pet']).toBeDefined();
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
