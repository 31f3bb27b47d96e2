/** Tools as one profile lists them (profile-listing.ts): compact schemas in hybrid. */
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../../templates/runtime/contract/catalog.js';
import { profileTools } from '../../../../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES } from '../../../../templates/runtime/contract/profiles/profiles.js';

describe('profileTools', () => {
  const compact = { type: 'object', properties: { body: { type: 'object', description: '(object {a})' } } };
  const big = {
    name: 'big',
    description: 'Big.',
    inputSchema: { type: 'object', properties: { body: { $ref: '#/$defs/A' } } },
    defs: ['A'],
    compactInputSchema: compact,
    annotations: {},
    request: { method: 'POST', path: '/big', params: [] },
  } as unknown as CatalogTool;
  const catalog: Catalog = {
    format: 1,
    toolMode: 'hybrid',
    core: ['big'],
    server: { name: 'x', version: '1', title: 'X (MCP)', instructions: '' },
    defs: { A: { type: 'object', properties: { a: { type: 'string' } } } },
    tools: [big],
    securitySchemes: [],
  };

  it('lists a core tool with its compact schema in hybrid, whole in mode all', () => {
    const inHybrid = profileTools(catalog, 'hybrid', PROFILES.claude).tools.map((t) => t.tool);
    expect(inHybrid.map((t) => t.name)).toEqual(['big', 'search_operations', 'describe_operation', 'call_operation']);
    expect(inHybrid[0]!.inputSchema).toEqual(compact);
    const inAll = profileTools(catalog, 'all', PROFILES.claude).tools.map((t) => t.tool);
    expect(inAll[0]!.inputSchema['$defs']).toEqual(catalog.defs);
  });
});
