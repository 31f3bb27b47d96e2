/** The tool registry (tool-registry.ts): what it lists of a tool, compact or whole, and what it validates against. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { registryOf } from '../../helpers/registry.js';

const annotations = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

function tool(name: string, extra: Partial<CatalogTool> = {}): CatalogTool {
  return {
    name,
    description: `Does ${name}.`,
    inputSchema: {
      type: 'object',
      properties: { body: { $ref: '#/$defs/Thing' } },
      required: ['body'],
    },
    defs: ['Thing'],
    annotations,
    request: {
      method: 'POST',
      path: `/${name}`,
      params: [],
      body: { arg: 'body', mediaType: 'application/json', kind: 'json', required: true },
    },
    ...extra,
  };
}

const COMPACT = {
  type: 'object',
  properties: { body: { type: 'object', description: '(object {deep}; full schema: describe_operation)' } },
  required: ['body'],
};

const catalog: Catalog = {
  format: 1,
  toolMode: 'hybrid',
  core: ['compacted'],
  server: { name: 'x', version: '1', title: 'X (MCP)', instructions: '' },
  defs: {
    Thing: {
      type: 'object',
      properties: { deep: { type: 'object', properties: { n: { type: 'integer' } } } },
    },
  },
  tools: [tool('compacted', { compactInputSchema: COMPACT }), tool('whole')],
  securitySchemes: [],
};

describe('ToolRegistry', () => {
  it('lists the whole schema, or the compact one where a listing offers describe_operation', () => {
    const registry = registryOf(catalog);
    expect(registry.listedAt(0).inputSchema['$defs']).toEqual({ Thing: catalog.defs['Thing'] });
    expect(registry.listedAt(0, true).inputSchema).toEqual(COMPACT);
    expect(registry.listedAt(0, true)).toBe(registry.listedAt(0, true));
    // A tool without a compact schema is listed whole either way (the same entry).
    expect(registry.listedAt(1, true)).toBe(registry.listedAt(1));
  });

  it('validates against the whole schema, whichever was listed', async () => {
    const registry = registryOf(catalog);
    await registry.loadValidator();
    registry.listedAt(0, true);
    const compacted = registry.get('compacted')!;
    expect(registry.validate(compacted, { body: { deep: { n: 1 } } })).toBeUndefined();
    expect(registry.validate(compacted, { body: { deep: { n: 'one' } } })).toMatch(/body\.deep\.n/);
  });

  it('refuses to validate before its validator is loaded, rather than start without one', () => {
    const registry = registryOf(catalog);
    expect(() => registry.validate(registry.get('whole')!, {})).toThrow(/loadValidator/);
  });
});

/**
 * A spec's pattern that backtracks exponentially in JavaScript's engine: 27 characters took 5.6 s and 35 take
 * minutes, during which the server answers nobody. With the SDK's default validator this test never finishes.
 */
describe('ToolRegistry: a caller cannot freeze the server through a pattern', () => {
  const names = tool('names', {
    inputSchema: {
      type: 'object',
      properties: {
        q: { type: 'string', pattern: '^(\\w+\\s?)*$' },
        tags: { type: 'object', patternProperties: { '^(a|aa)+$': { type: 'integer' } } },
      },
      required: ['q'],
    },
    defs: [],
  });
  const registry = registryOf({ ...catalog, core: [], tools: [names] });
  const tool_ = () => registry.get('names')!;
  beforeAll(() => registry.loadValidator());

  it('refuses a long argument that fails the pattern, at once', () => {
    expect(registry.validate(tool_(), { q: `${'a'.repeat(5_000)}!` })).toMatch(/q.*pattern/);
  });

  it('accepts what the pattern accepts', () => {
    expect(registry.validate(tool_(), { q: 'ann bob carol' })).toBeUndefined();
  });

  it('matches patternProperties in linear time too', () => {
    const key = `${'a'.repeat(5_000)}b`;
    expect(registry.validate(tool_(), { q: 'x', tags: { [key]: 'one' } })).toBeUndefined();
    expect(registry.validate(tool_(), { q: 'x', tags: { aaaa: 'one' } })).toMatch(/tags/);
  });
});

/**
 * Arguments that fail everywhere: 800,000 invalid items (a 3.2 MB message) made Ajv list 800,000 problems,
 * 1.7 s and 429 MB for one call, and a 24 MB message back.
 */
describe('ToolRegistry: a caller cannot make validation cost the server memory', () => {
  const ids = tool('ids', {
    inputSchema: {
      type: 'object',
      properties: { ids: { type: 'array', items: { type: 'integer' } }, limit: { type: 'integer' } },
    },
    defs: [],
  });
  const registry = registryOf({ ...catalog, core: [], tools: [ids] });
  beforeAll(() => registry.loadValidator());

  it('names only the first problem of large arguments', () => {
    const message = registry.validate(registry.get('ids')!, { ids: Array<string>(800_000).fill('a') });
    expect(message).toBe('"ids.0" must be integer');
  });

  it('names every problem of small ones, twenty at most', () => {
    const few = registry.validate(registry.get('ids')!, { ids: ['a', 2, 'c'], limit: 'ten' });
    expect(few).toBe('"ids.0" must be integer; "ids.2" must be integer; "limit" must be integer');
    const many = registry.validate(registry.get('ids')!, { ids: Array<string>(500).fill('a') });
    expect(many?.split('; ')).toHaveLength(21);
    expect(many).toMatch(/; and 480 more problems$/);
  });
});
