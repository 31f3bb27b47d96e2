/** The listing budget at generation (src/emit/search/listing-budget.ts): compact schemas and the core's room. */
import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../../templates/runtime/contract/catalog.js';
import { modeListing } from '../../../../templates/runtime/contract/listing.js';
import { CompactSchemas, coreBudget } from '../../../../src/emit/search/listing-budget.js';
import { LISTING_TOKEN_BUDGET, ModeAllListing } from '../../../../src/emit/search/tool-modes.js';
import { budgetTokens, costliestToolTokens } from '../../../../src/report/model-listing.js';
import { tokenCounter } from '../../../../src/report/tokens.js';

const annotations = { readOnlyHint: true };
const wide = Object.fromEntries(
  Array.from({ length: 60 }, (_, i) => [`p${i}`, { type: 'object', properties: { q: { type: 'string' } } }]),
);

function catalogOf(tools: CatalogTool[]): Catalog {
  return {
    format: 1,
    toolMode: 'hybrid',
    core: [],
    server: { name: 'x', version: '1', title: 'X (MCP)', instructions: '' },
    defs: { Big: { type: 'object', properties: { deep: { type: 'object', properties: wide } } } },
    tools,
    securitySchemes: [],
  };
}

const small = {
  name: 'small',
  description: 'Small.',
  inputSchema: { type: 'object', properties: { id: { type: 'string' } } },
  defs: [],
  annotations,
  request: { method: 'GET', path: '/small', params: [] },
} as CatalogTool;
const big = {
  ...small,
  name: 'big',
  description: 'Big.',
  inputSchema: { type: 'object', properties: { body: { $ref: '#/$defs/Big' } } },
  defs: ['Big'],
} as CatalogTool;

describe('CompactSchemas', () => {
  it('makes a compact schema only for a tool over the budget, and gives it only to core tools', () => {
    const catalog = catalogOf([small, big]);
    const compact = new CompactSchemas(catalog);
    expect(compact.of(0)).toBeUndefined();
    expect(compact.of(1)).toBeDefined();
    expect(JSON.stringify(compact.listedSchema(1))).toContain('describe_operation');
    const [s, b] = compact.withCompactSchemas(catalog.tools, ['small', 'big']);
    expect(s).toBe(small);
    expect(Object.keys(b!)).toEqual([
      'name',
      'description',
      'inputSchema',
      'defs',
      'compactInputSchema',
      'annotations',
      'request',
    ]);
    expect(compact.withCompactSchemas(catalog.tools, ['small'])[1]).toBe(big);
  });
});

describe('coreBudget', () => {
  it("is the listing budget less the meta-tools', each tool costing its hybrid listing as the costliest profile lowers it", async () => {
    const count = await tokenCounter();
    const catalog = catalogOf([small, big]);
    const compact = new CompactSchemas(catalog);
    const budget = coreBudget(catalog, compact, count);
    const { meta } = modeListing(catalog, ['small', 'big'], 'hybrid');
    expect(budget.tokens).toBe(LISTING_TOKEN_BUDGET - budgetTokens(meta, count));
    expect(budget.cost(0)).toBe(
      costliestToolTokens(
        { name: 'small', description: 'Small.', inputSchema: small.inputSchema as never, annotations },
        count,
      ),
    );
    // The big tool costs its compact schema, far less than its whole one.
    expect(budget.cost(1)).toBeLessThan(count(JSON.stringify(catalog.defs['Big'])) / 2);
  });

  it("takes a whole-schema tool's cost already counted for mode all, the same figure it would count", async () => {
    const count = await tokenCounter();
    const catalog = catalogOf([small, big]);
    const listed = new ModeAllListing(catalog);
    const shared = coreBudget(catalog, new CompactSchemas(catalog), count, (i) => listed.costliestTokens(i, count));
    const own = coreBudget(catalog, new CompactSchemas(catalog), count);
    expect([shared.cost(0), shared.cost(1)]).toEqual([own.cost(0), own.cost(1)]);
    expect(listed.costliestTokens(0, count)).toBe(own.cost(0));
  });
});
