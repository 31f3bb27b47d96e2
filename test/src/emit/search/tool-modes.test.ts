import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../../templates/runtime/contract/catalog.js';
import {
  ALL_MODE_MAX_TOOLS,
  chooseToolMode,
  LISTING_TOKEN_BUDGET,
  ModeAllListing,
} from '../../../../src/emit/search/tool-modes.js';
import { modelToolText, profileToolText } from '../../../../src/report/model-listing.js';
import { PROFILES } from '../../../../templates/runtime/contract/profiles/profiles.js';
import { tokenCounter } from '../../../../src/report/tokens.js';
import { generate } from '../../../../src/pipeline.js';
import { REPO_ROOT } from '../../../helpers/generated-project.js';

function listedOf(toolCount: number, descriptionChars: number): ModeAllListing {
  return new ModeAllListing(catalogOf(toolCount, descriptionChars));
}

function catalogOf(toolCount: number, descriptionChars: number): Catalog {
  const tools = Array.from({ length: toolCount }, (_, i) => ({
    name: `op${i}`,
    description: 'x'.repeat(descriptionChars),
    inputSchema: { type: 'object', properties: {} },
    defs: [],
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    request: { method: 'GET', path: `/op${i}`, params: [] },
  })) as unknown as CatalogTool[];
  return {
    format: 1,
    toolMode: 'all',
    core: [],
    server: { name: 'n', version: '1', title: 'T', instructions: '' },
    defs: {},
    tools,
    securitySchemes: [],
  };
}

describe('the default tool mode follows the size of the full tool list', () => {
  const fits = () => LISTING_TOKEN_BUDGET;
  it('is all while what the model reads of the mode-all list fits the token budget, hybrid past it', () => {
    expect(chooseToolMode(undefined, false, listedOf(100, 10), fits).mode).toBe('all');
    const big = chooseToolMode(undefined, false, listedOf(100, 10), () => undefined);
    expect(big.mode).toBe('hybrid');
    expect(big.reason).toBe(
      'default: the full tool list (100 tools) is over the 8,000-token listing budget as a model reads it, each tool as its costliest client lists it; --tool-mode all lists every operation',
    );
  });

  it('counts the tokens only when the tool count leaves the choice open', () => {
    let counted = 0;
    const count = () => ++counted;
    chooseToolMode(undefined, false, listedOf(ALL_MODE_MAX_TOOLS + 1, 10), count);
    chooseToolMode('all', false, listedOf(3, 10), count);
    expect(counted).toBe(0);
  });

  it('is hybrid past the 128-tool cap of VS Code and OpenAI, however small the tools', () => {
    expect(chooseToolMode(undefined, false, listedOf(ALL_MODE_MAX_TOOLS, 10), () => 0).mode).toBe('all');
    const many = chooseToolMode(undefined, false, listedOf(ALL_MODE_MAX_TOOLS + 1, 10), () => 0);
    expect(many.mode).toBe('hybrid');
    expect(many.reason).toMatch(/129 tools.*over the 128-tool cap/);
  });

  it('is hybrid when a core is named, and --tool-mode always wins', () => {
    expect(chooseToolMode(undefined, true, listedOf(3, 10), fits).mode).toBe('hybrid');
    expect(chooseToolMode('all', false, listedOf(100, 10_000), () => 1e9)).toEqual({
      mode: 'all',
      reason: 'chosen with --tool-mode',
    });
    expect(chooseToolMode('dynamic', true, listedOf(3, 10), fits).mode).toBe('dynamic');
  });

  it('weighs each tool as its costliest profile lists it: name, description and input schema', async () => {
    const count = await tokenCounter();
    const listed = listedOf(3, 40);
    const each = Object.values(PROFILES).map((p) => count(profileToolText(listed.tool(0), p)));
    expect(listed.modelTokensWithin(Infinity, count)).toBe(3 * Math.max(...each));
    // openai-strict closes the object (`required`, `additionalProperties: false`): more than Claude Code reads.
    expect(listed.modelTokensWithin(Infinity, count)).toBeGreaterThan(3 * count(modelToolText(listed.tool(0))));
    expect(JSON.parse(modelToolText(listed.tool(0)))).toEqual({
      name: 'op0',
      description: 'x'.repeat(40),
      input_schema: { type: 'object', properties: {} },
    });
  });

  it('stops counting past the budget: the sum is exact within it, undefined past it', async () => {
    const count = await tokenCounter();
    const each = new ModeAllListing(catalogOf(1, 400)).modelTokensWithin(Infinity, count)!;
    const counted: string[] = [];
    const spy = (text: string) => (counted.push(text), count(text));
    const listed = listedOf(100, 400);
    expect(listed.modelTokensWithin(10 * each, spy)).toBeUndefined();
    expect(new Set(counted.map((t) => (JSON.parse(t) as { name: string }).name)).size).toBe(11);
    expect(listedOf(10, 400).modelTokensWithin(10 * each, count)).toBe(10 * each);
    expect(
      chooseToolMode(undefined, false, listedOf(10, 400), (b) => listedOf(10, 400).modelTokensWithin(b, count)),
    ).toMatchObject({
      mode: 'all',
      reason: expect.stringContaining(`10 tools, ${(10 * each).toLocaleString('en-US')} tokens`),
    });
  });

  it('reaches the generation summary and the catalog', async () => {
    const result = await generate({ spec: `${REPO_ROOT}/fixtures/specs/petstore.yaml`, write: false, validate: false });
    expect(result.summary.toolMode.mode).toBe('all');
    expect(result.summary.toolMode.reason).toMatch(/fits 128 tools and the 8,000-token listing budget/);
    const hybrid = await generate({
      spec: `${REPO_ROOT}/fixtures/specs/petstore.yaml`,
      write: false,
      validate: false,
      core: ['getPetById'],
    });
    expect(hybrid.summary.toolMode.mode).toBe('hybrid');
    expect(JSON.parse(hybrid.files.find((f) => f.path === 'catalog.json')!.contents)).toMatchObject({
      toolMode: 'hybrid',
      core: ['getPetById'],
    });
  });
});
