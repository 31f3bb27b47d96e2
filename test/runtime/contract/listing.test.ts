/**
 * What tools/list shows per mode (listing.ts): code mode's two tools, whose size does not depend on the API
 * (under 1,500 o200k tokens); the compact input schemas only where describe_operation is listed too.
 */
import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { listedInputSchema, modeListing } from '../../../templates/runtime/contract/listing.js';
import { countListTokens } from '../../../src/report/tokens.js';

describe('code mode listing', () => {
  it('lists search and execute only, in at most 1,500 tokens whatever the title and the operation count', async () => {
    for (const title of ['Petstore', 'A title that goes on and on '.repeat(400)]) {
      const names = Array.from({ length: 20_000 }, (_, i) => `op${i}`);
      const { direct, meta } = modeListing(
        { core: [], server: { name: 'x', version: '1', title, instructions: '' } },
        names,
        'code',
      );
      expect(direct).toEqual([]);
      expect(meta.map((t) => t.name)).toEqual(['search', 'execute']);
      expect(await countListTokens(JSON.stringify({ tools: meta }))).toBeLessThanOrEqual(1_500);
    }
  });
});

describe('the API as the meta-tools name it', () => {
  it('is the name api-name.ts makes of the title, in the dynamic and code listings', () => {
    const server = { name: 'x', version: '1', title: 'Gmail API (MCP)', instructions: '' };
    for (const mode of ['dynamic', 'code'] as const) {
      const text = JSON.stringify(modeListing({ core: [], server }, ['a'], mode).meta);
      expect(text).toContain('the Gmail API');
      expect(text).not.toMatch(/API API|MCP/);
    }
  });
});

describe('compact input schemas in a listing', () => {
  const server = { name: 'x', version: '1', title: 'X (MCP)', instructions: '' };
  const compact = { type: 'object', properties: { body: { type: 'object', description: '(object {a})' } } };
  const tool = {
    name: 'op',
    inputSchema: { type: 'object', properties: { body: { $ref: '#/$defs/A' } } },
    defs: ['A'],
    compactInputSchema: compact,
  } as unknown as CatalogTool;
  const defs = { A: { type: 'object', properties: { a: { type: 'string' } } } };

  it('are shown where the listing offers describe_operation: hybrid (and dynamic), not all or code', () => {
    const compactIn = (mode: 'all' | 'hybrid' | 'dynamic' | 'code') =>
      modeListing({ core: ['op'], server }, ['op'], mode).compact;
    expect([compactIn('all'), compactIn('hybrid'), compactIn('dynamic'), compactIn('code')]).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("are the tool's compact schema when it has one, else its whole schema with the $defs it uses", () => {
    expect(listedInputSchema(tool, defs, true)).toBe(compact);
    expect(listedInputSchema(tool, defs, false)).toEqual({ ...tool.inputSchema, $defs: defs });
    const { compactInputSchema: _c, ...plain } = tool;
    expect(listedInputSchema(plain, defs, true)).toEqual({ ...tool.inputSchema, $defs: defs });
  });
});
