import { describe, expect, it } from 'vitest';
import type { Catalog, CatalogTool } from '../../../../templates/runtime/contract/catalog.js';
import {
  ALL_MODE_MAX_LIST_BYTES,
  ALL_MODE_MAX_TOOLS,
  chooseToolMode,
  ModeAllListing,
} from '../../../../src/emit/search/tool-modes.js';
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
  it('is all while the mode-all tools/list fits the budget, hybrid past it', () => {
    expect(chooseToolMode(undefined, false, listedOf(100, 1000)).mode).toBe('all');
    const big = chooseToolMode(undefined, false, listedOf(100, Math.ceil(ALL_MODE_MAX_LIST_BYTES / 100)));
    expect(big.mode).toBe('hybrid');
    expect(big.reason).toMatch(/over the 400 kB budget/);
  });

  it('is hybrid past the 128-tool cap of VS Code and OpenAI, however small the tools', () => {
    expect(chooseToolMode(undefined, false, listedOf(ALL_MODE_MAX_TOOLS, 10)).mode).toBe('all');
    const many = chooseToolMode(undefined, false, listedOf(ALL_MODE_MAX_TOOLS + 1, 10));
    expect(many.mode).toBe('hybrid');
    expect(many.reason).toMatch(/129 tools.*over the 128-tool cap/);
  });

  it('is hybrid when a core is named, and --tool-mode always wins', () => {
    expect(chooseToolMode(undefined, true, listedOf(3, 10)).mode).toBe('hybrid');
    expect(chooseToolMode('all', false, listedOf(100, 10_000))).toEqual({
      mode: 'all',
      reason: 'chosen with --tool-mode',
    });
    expect(chooseToolMode('dynamic', true, listedOf(3, 10)).mode).toBe('dynamic');
  });

  it('reaches the generation summary and the catalog', async () => {
    const result = await generate({ spec: `${REPO_ROOT}/fixtures/specs/petstore.yaml`, write: false, validate: false });
    expect(result.summary.toolMode.mode).toBe('all');
    expect(result.summary.toolMode.reason).toMatch(/fits 128 tools and 400 kB/);
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
