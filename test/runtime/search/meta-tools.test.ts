/** The generated search index over real APIs: every operation is found by its own summary, and reached by browsing in two calls. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { OperationSearch, type SearchIndexFile } from '../../../templates/runtime/search/search.js';
import { handleMetaTool, searchOperations } from '../../../templates/runtime/search/meta-tools.js';
import type { Catalog, CatalogHeader, CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { DESCRIBE_TOOL } from '../../../templates/runtime/contract/meta-definitions.js';
import { buildSearchIndex } from '../../../templates/runtime/contract/search/search-index.js';
import { ToolRegistry } from '../../../templates/runtime/server/tool-registry.js';
import type { ToolResult } from '../../../templates/runtime/upstream/response.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const SPECS = join(REPO_ROOT, '..', 'shared', 'specs');

async function generated(file: string): Promise<{ catalog: Catalog; search: OperationSearch }> {
  const result = await generate({ spec: join(SPECS, file), validate: false, write: false, toolMode: 'dynamic' });
  const text = (path: string) => result.files.find((f) => f.path === path)!.contents;
  return {
    catalog: JSON.parse(text('catalog.json')) as Catalog,
    search: OperationSearch.load(JSON.parse(text('search-index.json')) as SearchIndexFile),
  };
}

describe.skipIf(!existsSync(SPECS)).each([
  ['spotify', 'spotify/fixed-spotify-open-api.yml'],
  ['gitea', 'gitea/gitea.io.json'],
])('search recall: %s', (_name, file) => {
  it('finds every operation among the first five results when searching for its summary', async () => {
    const { catalog, search } = await generated(file);
    const summaryOf = (i: number) => search.operation(i).summary;
    const missed = catalog.tools.filter((_tool, i) => {
      // Operations that share the exact same summary cannot be told apart by it; any of them is a hit.
      const twins = catalog.tools.map((_, j) => (summaryOf(j) === summaryOf(i) ? j : -1)).filter((j) => j >= 0);
      return !search.search(summaryOf(i), 5).some((h) => twins.includes(h.doc));
    });
    expect(missed.map((t) => t.name)).toEqual([]);
  });
});

describe.skipIf(!existsSync(SPECS)).each([
  ['github', 'github/api.github.com.json'],
  ['kubernetes', 'kubernetes/swagger.json'],
])('browsing: %s', (_name, file) => {
  it('reaches every operation in two calls: the groups, then one group', async () => {
    const { catalog, search } = await generated(file);
    const first = searchOperations(search, { query: '', group: undefined, limit: 10 });
    const groups = (first.structuredContent as { groups: Array<{ name: string; operations: number }> }).groups;
    const reached = new Set<string>();
    for (const group of groups) {
      const second = searchOperations(search, { query: '', group: group.name, limit: 10 });
      const results = (second.structuredContent as { results: Array<{ name: string }> }).results;
      expect(results.length).toBe(group.operations);
      expect(results.length).toBeLessThanOrEqual(40);
      for (const r of results) reached.add(r.name);
    }
    expect(catalog.tools.filter((t) => !reached.has(t.name)).map((t) => t.name)).toEqual([]);
    // The first answer stays readable: one line per group.
    expect((first.content[0] as { text: string }).text.split('\n').length).toBe(groups.length + 1);
  });
});

describe('describe_operation', () => {
  const tool: CatalogTool = {
    name: 'getPet',
    title: 'Get a pet',
    description: 'Get a pet.\n\nReturns one pet.',
    fullDescription: 'Returns one pet. **More** of what the spec says, [linked](https://example.com).',
    inputSchema: { type: 'object', properties: {}, additionalProperties: false },
    defs: [],
    annotations: { readOnlyHint: true },
    request: { method: 'GET', path: '/pets/{id}', params: [] },
  };
  const table = {
    length: 1,
    names: () => [tool.name],
    indexOf: (n: string) => (n === tool.name ? 0 : -1),
    at: () => tool,
  };
  const registry = new ToolRegistry({ header: { defs: {} } as unknown as CatalogHeader, tools: table });
  const context = {
    registry,
    search: () => Promise.reject(new Error('unused')),
    callOperation: () => Promise.reject(new Error('unused')),
  };

  async function described(ctx: typeof context): Promise<{ description: string }> {
    const result = (await handleMetaTool(DESCRIBE_TOOL, { name: 'getPet' }, ctx)) as ToolResult;
    return result.structuredContent as { description: string };
  }

  it('gives the whole description the listing condensed', async () => {
    const result = await described(context);
    expect(result.description).toBe(tool.fullDescription);
  });

  it('gives the listing description when there is nothing longer', async () => {
    const { fullDescription: _, ...short } = tool;
    const one = { ...table, at: () => short };
    const ctx = {
      ...context,
      registry: new ToolRegistry({ header: { defs: {} } as unknown as CatalogHeader, tools: one }),
    };
    const result = await described(ctx);
    expect(result.description).toBe(short.description);
  });
});

describe('where required arguments come from', () => {
  const queue = {
    name: 'add-to-queue',
    method: 'POST',
    path: '/me/player/queue',
    summary: 'Add an item to the queue',
    required: ['uri', 'device'],
    group: 'player',
    sources: { uri: [1, 2], 'body.ids': [3] },
  };
  const { sources: _, ...plain } = queue;
  const named = (name: string) => ({ ...plain, name, required: [] });
  const others = ['search', 'get-an-albums-tracks', 'list-things'].map((name) => ({
    fields: { name },
    operation: named(name),
  }));
  const search = OperationSearch.load(
    buildSearchIndex([{ fields: { name: 'add-to-queue', summary: queue.summary }, operation: queue }, ...others], []),
  );
  const shownSources = { uri: ['search', 'get-an-albums-tracks'], 'body.ids': ['list-things'] };

  it('shows each required argument with the operations that supply it, in the text and the structured result', () => {
    const result = searchOperations(search, { query: 'add to queue', group: undefined, limit: 5 });
    expect((result.content[0] as { text: string }).text.split('\n')[0]).toBe(
      'add-to-queue: POST /me/player/queue - Add an item to the queue (required: uri ← search, get-an-albums-tracks; device; body.ids ← list-things)',
    );
    const [first] = (result.structuredContent as { results: Array<{ sources?: unknown }> }).results;
    expect(first!.sources).toEqual(shownSources);
  });

  it('shows them when describing the operation', async () => {
    const tool: CatalogTool = {
      name: 'add-to-queue',
      description: 'Add an item to the queue.',
      inputSchema: { type: 'object', properties: {}, additionalProperties: false },
      defs: [],
      annotations: {},
      request: { method: 'POST', path: '/me/player/queue', params: [] },
    };
    const table = { length: 1, names: () => [tool.name], indexOf: () => 0, at: () => tool };
    const registry = new ToolRegistry({ header: { defs: {} } as unknown as CatalogHeader, tools: table });
    const ctx = {
      registry,
      search: () => Promise.resolve(search),
      callOperation: () => Promise.reject(new Error('unused')),
    };
    const result = (await handleMetaTool(DESCRIBE_TOOL, { name: 'add-to-queue' }, ctx)) as ToolResult;
    expect((result.structuredContent as { sources?: unknown }).sources).toEqual(shownSources);
  });
});
