import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../templates/runtime/catalog.js';
import { parseCatalog } from '../../templates/runtime/tool-table.js';
import { catalogFileText } from '../../src/emit/catalog.js';
import { dataJson } from '../../src/emit/data-json.js';

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
  const text = dataJson(catalog as unknown as Record<string, unknown>, ['defs', 'tools']);

  it('reads the generator layout: the header at once, the tools by name and index, equal to a full parse', () => {
    const { header, tools } = parseCatalog(Buffer.from(text));
    const { tools: expectedTools, ...expectedHeader } = JSON.parse(text) as Catalog;
    expect(header).toEqual(expectedHeader);
    expect(tools.length).toBe(3);
    expect(tools.names()).toEqual(['listPets', 'get"Pet"', 'deletePet']);
    expect(tools.indexOf('get"Pet"')).toBe(1);
    expect(tools.indexOf('nope')).toBe(-1);
    expect([0, 1, 2].map((i) => tools.at(i))).toEqual(expectedTools);
    expect(tools.at(2)).toBe(tools.at(2)); // parsed once
  });

  it('reads any other layout of the same JSON with one full parse', () => {
    for (const other of [JSON.stringify(catalog, null, 2), JSON.stringify(catalog)]) {
      const { header, tools } = parseCatalog(Buffer.from(other));
      expect(header.server.name).toBe('s');
      expect(tools.names()).toEqual(['listPets', 'get"Pet"', 'deletePet']);
      expect(tools.at(1)).toEqual(catalog.tools[1]);
    }
  });

  it('reads lines edited by hand with UTF-8 characters, and names with escapes', () => {
    const edited = text.replace('"name":"listPets"', '"name":"lïstPets"').replace('"Pet"', '"Pét ✓"');
    const { header, tools } = parseCatalog(Buffer.from(edited, 'utf8'));
    expect(tools.names()).toEqual(['lïstPets', 'get"Pet"', 'deletePet']);
    expect(tools.at(0).name).toBe('lïstPets');
    expect(tools.at(1)).toEqual(catalog.tools[1]);
    expect(header).toEqual((({ tools: _, ...rest }) => rest)(JSON.parse(edited) as Catalog));
  });

  it('starts from the name list the generator writes, reading no tool line before it is needed', () => {
    const written = catalogFileText(catalog);
    expect(written).toContain('"toolNames":["listPets","get\\"Pet\\"","deletePet"]');
    const { header, tools } = parseCatalog(Buffer.from(written));
    const { tools: expectedTools, toolNames: _names, ...expectedHeader } = JSON.parse(written) as Catalog;
    expect(header).toEqual(expectedHeader);
    expect(tools.names()).toEqual(['listPets', 'get"Pet"', 'deletePet']);
    expect(tools.indexOf('deletePet')).toBe(2);
    expect(tools.at(2)).toEqual(expectedTools[2]);
    expect([0, 1].map((i) => tools.at(i))).toEqual(expectedTools.slice(0, 2));
  });

  it('says so when the name list and the tool lines disagree (a catalog edited by hand)', () => {
    const renamed = parseCatalog(
      Buffer.from(catalogFileText(catalog).replace('{"name":"deletePet"', '{"name":"removePet"')),
    );
    expect(() => renamed.tools.at(2)).toThrow(
      'catalog.json lists tool 3 as "deletePet" but its line is "removePet": regenerate the server',
    );
    const short = parseCatalog(
      Buffer.from(catalogFileText(catalog).replace('"toolNames":["listPets",', '"toolNames":["listPets","extra",')),
    );
    expect(() => short.tools.at(3)).toThrow('catalog.json names more tools than it has lines for');
  });

  it('reads a catalog without tools', () => {
    const { header, tools } = parseCatalog(
      Buffer.from(dataJson(catalogWith([]) as unknown as Record<string, unknown>, ['defs', 'tools'])),
    );
    expect(tools.length).toBe(0);
    expect(header.defs['Pet']).toBeDefined();
  });
});
