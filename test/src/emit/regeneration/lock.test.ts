import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../../templates/runtime/contract/catalog.js';
import { catalogToolJson } from '../../../../src/emit/catalog.js';
import { lockFile, lockedTool, type Lock } from '../../../../src/emit/regeneration/lock.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 16);

function tool(name: string, description: string, defs: string[]): CatalogTool {
  return {
    name,
    description,
    inputSchema: { type: 'object', properties: { id: { $ref: '#/$defs/Id' } } },
    defs,
    annotations: {},
    request: { method: 'GET', path: `/${name}`, params: [] },
  } as unknown as CatalogTool;
}

describe('lockFile', () => {
  const tools = [tool('getThing', 'Gets a thing — naïve ✓', ['Id']), tool('listThings', 'Lists things.', [])];
  const catalog = { defs: { Id: { type: 'string', description: 'Identifiant unique' } }, tools } as unknown as Catalog;

  it('hashes each tool as JSON.stringify([tool, its defs]) and its input as JSON.stringify([inputSchema, defs])', () => {
    const lock = JSON.parse(lockFile(['b.ts', 'a.ts'], catalog, catalogToolJson(catalog), '1.2.3').contents) as Lock;
    const defs = (t: CatalogTool) => t.defs.map((d) => (catalog.defs as Record<string, unknown>)[d]);
    for (const t of tools)
      expect(lock.tools[t.name]).toEqual({
        operation: `GET /${t.name}`,
        inputHash: sha(JSON.stringify([t.inputSchema, defs(t)])),
        hash: sha(JSON.stringify([t, defs(t)])),
      });
    expect(lock.files).toEqual(['a.ts', 'b.ts', 'openapi-to-mcp.lock.json']);
  });

  it('hashes the JSON text it is given for a tool: the one catalog.json was written from', () => {
    const [first] = tools;
    expect(lockedTool(first!, catalog, undefined, JSON.stringify({ other: true })).hash).not.toBe(
      lockedTool(first!, catalog).hash,
    );
  });
});
