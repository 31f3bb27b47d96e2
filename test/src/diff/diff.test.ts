/** The tool-surface diff: input schema comparison (breaking or not), tool matching, and the printed report. */
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { compareInputs, flattenInput } from '../../../src/diff/schema.js';
import { diffSurface } from '../../../src/diff/surface.js';
import { formatRegeneration } from '../../../src/diff/format.js';
import { lockedTool } from '../../../src/emit/regeneration/lock.js';
import type { JsonSchema } from '../../../src/ir/types.js';

function compare(
  before: JsonSchema,
  after: JsonSchema,
  defsBefore: Record<string, JsonSchema> = {},
  defsAfter = defsBefore,
) {
  return compareInputs(flattenInput(before, defsBefore), flattenInput(after, defsAfter));
}

const obj = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});

describe('compareInputs', () => {
  it('flags new required arguments, removed ones and arguments that became required', () => {
    const r = compare(
      obj({ a: { type: 'string' }, b: { type: 'string' } }),
      obj({ b: { type: 'string' }, c: { type: 'string' } }, ['b', 'c']),
    );
    expect(r.breaking).toEqual(['removed argument "a"', 'argument "b" is now required', 'new required argument "c"']);
    expect(r.compatible).toEqual([]);
  });

  it('tells narrowed types from widened ones (integer is a number)', () => {
    expect(compare(obj({ n: { type: 'number' } }), obj({ n: { type: 'integer' } })).breaking).toEqual([
      'narrowed type of "n": number → integer',
    ]);
    expect(compare(obj({ n: { type: 'integer' } }), obj({ n: { type: 'number' } }))).toEqual({
      breaking: [],
      compatible: ['widened type of "n": integer → number'],
    });
    expect(compare(obj({ n: { type: ['string', 'null'] } }), obj({ n: { type: 'string' } })).breaking).toEqual([
      'narrowed type of "n": null|string → string',
    ]);
    expect(compare(obj({ n: {} }), obj({ n: { type: 'string' } })).breaking).toEqual([
      'narrowed type of "n": any → string',
    ]);
  });

  it('compares allowed values and bounds', () => {
    const r = compare(
      obj({ s: { type: 'string', enum: ['a', 'b'] }, t: { type: 'string' }, n: { type: 'integer', maximum: 10 } }),
      obj({
        s: { type: 'string', enum: ['a', 'c'] },
        t: { type: 'string', enum: ['x'] },
        n: { type: 'integer', maximum: 5, minimum: 1 },
      }),
    );
    expect(r.breaking).toEqual([
      '"s" no longer accepts "b"',
      '"t" is now limited to "x"',
      'narrowed "n": minimum none → 1, maximum 10 → 5',
    ]);
    expect(r.compatible).toEqual(['"s" also accepts "c"']);
  });

  it('follows $defs, reports a removed subtree once, and only counts fields required all the way down', () => {
    const before = obj({ body: { $ref: '#/$defs/Pet' } }, ['body']);
    const defsBefore = { Pet: obj({ name: { type: 'string' }, owner: obj({ id: { type: 'string' } }) }, ['name']) };
    const defsAfter = {
      Pet: obj(
        {
          name: { type: 'string' },
          extra: obj({ id: { type: 'string' } }, ['id']),
          meta: obj({ id: { type: 'string' } }, ['id']),
          tag: { type: 'string' },
        },
        ['name', 'meta'],
      ),
    };
    const r = compare(before, before, defsBefore, defsAfter);
    expect(r.breaking).toEqual(['removed argument "body.owner"', 'new required argument "body.meta"']);
    expect(r.compatible).toEqual(['added optional argument "body.extra"', 'added optional argument "body.tag"']);
  });

  it('terminates on recursive schemas', () => {
    const defs = { Node: obj({ value: { type: 'string' }, next: { $ref: '#/$defs/Node' } }) };
    const flat = flattenInput(obj({ root: { $ref: '#/$defs/Node' } }), defs);
    expect([...flat.keys()]).toEqual(['root', 'root.value', 'root.next']);
  });
});

function tool(name: string, method: string, path: string, inputSchema: JsonSchema, description = name): CatalogTool {
  return { name, description, inputSchema, defs: [], annotations: {}, request: { method, path, params: [] } };
}

function catalog(tools: CatalogTool[]): Catalog {
  return { defs: {}, tools } as unknown as Catalog;
}

function generation(tools: CatalogTool[], withCatalog = true) {
  const c = catalog(tools);
  return {
    lock: { tools: Object.fromEntries(tools.map((t) => [t.name, lockedTool(t, c)])) },
    ...(withCatalog ? { catalog: c } : {}),
  };
}

describe('diffSurface', () => {
  const a = tool('getA', 'GET', '/a', obj({ id: { type: 'string' } }, ['id']));
  const b = tool('listB', 'GET', '/b', obj({}));
  const c = tool('deleteC', 'DELETE', '/c/{id}', obj({ id: { type: 'string' } }, ['id']));

  it('finds added, removed, renamed and changed tools', () => {
    const after = [
      tool('fetchA', 'GET', '/a', obj({ id: { type: 'string' } }, ['id']), 'getA'),
      tool('listB', 'GET', '/b', obj({}), 'new words'),
      tool('newD', 'POST', '/d', obj({})),
    ];
    const diff = diffSurface(generation([a, b, c]), generation(after));
    expect(
      diff.changes.map((x) => [x.kind, x.previousName ?? '', x.name, x.summary ?? '', x.breaking.join('; ')]),
    ).toEqual([
      ['added', '', 'newD', '', ''],
      ['removed', '', 'deleteC', '', 'tool removed'],
      ['renamed', 'getA', 'fetchA', '', 'tool renamed'],
      ['changed', '', 'listB', 'description changed', ''],
    ]);
    expect(diff).toMatchObject({ added: 1, removed: 1, renamed: 1, changed: 1, breaking: 2 });
  });

  it('still lists changed inputs from the lock hashes alone when the old catalog is unreadable', () => {
    const diff = diffSurface(
      generation([a], false),
      generation([tool('getA', 'GET', '/a', obj({ id: { type: 'integer' } }, ['id']))]),
    );
    expect(diff.changes).toEqual([
      { kind: 'changed', name: 'getA', operation: 'GET /a', breaking: [], notes: [], summary: 'input changed' },
    ]);
  });

  it('prints the report', () => {
    const diff = diffSurface(
      generation([a, b]),
      generation([a, tool('listB', 'GET', '/b', obj({ q: { type: 'string' } }, ['q']))]),
    );
    const files = { added: [], updated: ['catalog.json', 'openapi-to-mcp.lock.json'], removed: [] };
    expect(formatRegeneration({ folder: 'generated', surface: diff, files, stale: true })).toEqual([
      'openapi-to-mcp: tool surface changed since the last generation: 0 added, 0 removed, 0 renamed, 1 changed (1 breaking)',
      '  ~ listB (GET /b) input changed',
      '      BREAKING: new required argument "q"',
      'openapi-to-mcp: files: 0 added, 2 updated (catalog.json, openapi-to-mcp.lock.json), 0 removed',
    ]);
    const none = diffSurface(generation([a]), generation([a]));
    expect(
      formatRegeneration({
        folder: 'generated',
        surface: none,
        files: { added: [], updated: [], removed: [] },
        stale: false,
      }),
    ).toEqual(['openapi-to-mcp: no changes']);
    expect(
      formatRegeneration({
        folder: 'generated',
        surface: none,
        files: { added: [], updated: ['README.md'], removed: [] },
        stale: true,
      }),
    ).toEqual([
      'openapi-to-mcp: tool surface unchanged since the last generation',
      'openapi-to-mcp: files: 0 added, 1 updated (README.md), 0 removed',
    ]);
  });
});
