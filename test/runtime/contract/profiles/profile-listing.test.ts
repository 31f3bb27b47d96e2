/** Tools as one profile lists them (profile-listing.ts): output schemas where the host uses them, compact schemas in hybrid. */
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../../templates/runtime/contract/catalog.js';
import type { ListedTool } from '../../../../templates/runtime/contract/listing.js';
import { lowerTool, profileTools } from '../../../../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES } from '../../../../templates/runtime/contract/profiles/profiles.js';

const tool: ListedTool = {
  name: 'repos_get',
  description: 'Get a repository.',
  inputSchema: { type: 'object', properties: { owner: { type: 'string' } }, required: ['owner'] },
  outputSchema: { type: 'object', properties: { id: { type: ['integer', 'null'] } } },
  annotations: { readOnlyHint: true },
};

describe('output schemas in a profile listing', () => {
  it('are left out for hosts whose model API has no place for them (Anthropic, OpenAI)', () => {
    for (const name of ['claude', 'openai', 'openai-strict'] as const)
      expect(lowerTool(tool, PROFILES[name]).tool.outputSchema, name).toBeUndefined();
  });

  it('are listed as they are to the other profiles', () => {
    for (const name of ['full', 'cursor', 'gemini', 'vscode', 'portable'] as const)
      expect(lowerTool(tool, PROFILES[name]).tool.outputSchema, name).toEqual(tool.outputSchema);
  });
});

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
