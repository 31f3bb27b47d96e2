/** The config stage: include/exclude selectors, x-mcp, per-operation overrides, errors, and finding the file. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyConfig, glob } from '../../../src/config/apply.js';
import { loadProjectConfig } from '../../../src/config/load.js';
import type { ProjectConfig } from '../../../src/config/types.js';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { loadSpec } from '../../../src/load/load-spec.js';
import { normalizeSpec } from '../../../src/normalize/index.js';
import { mapTools } from '../../../src/tools/index.js';

const work = mkdtempSync(join(tmpdir(), 'otm-config-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ok = { '200': { description: 'ok' } };
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Config', version: '1' },
  paths: {
    '/pets': {
      get: { operationId: 'listPets', tags: ['pets'], responses: ok },
      post: { operationId: 'createPet', tags: ['pets', 'write'], responses: ok },
    },
    '/pets/{id}': {
      get: {
        operationId: 'getPet',
        tags: ['pets'],
        summary: 'Get a pet',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
      delete: {
        operationId: 'deletePet',
        tags: ['pets', 'write'],
        'x-mcp': { name: 'remove_pet', annotations: { openWorldHint: false } },
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/pets/{id}/photos': {
      get: {
        operationId: 'listPhotos',
        tags: ['photos'],
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: ok,
      },
    },
    '/internal': {
      'x-mcp': false,
      get: { operationId: 'internal', responses: ok },
      post: { operationId: 'internalWrite', 'x-mcp': true, responses: ok },
    },
  },
};

async function run(config: ProjectConfig | undefined, spec: Record<string, unknown> = SPEC) {
  const file = join(work, `spec-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(spec));
  const diags = new Diagnostics();
  const api = normalizeSpec(await loadSpec(file, diags, { validate: false }), diags);
  const tools = mapTools(api, diags);
  const result = applyConfig(api, tools, config ? { path: '/x/c.json', label: 'c.json', config } : undefined, diags);
  return { ...result, names: result.tools.map((t) => t.name), diags: diags.all };
}

describe('applyConfig', () => {
  it('applies x-mcp: false on a path, true on an operation overriding it, and x-mcp overrides', async () => {
    const r = await run(undefined);
    expect(r.names).toEqual(['listPets', 'createPet', 'getPet', 'remove_pet', 'listPhotos', 'internalWrite']);
    expect(r.skipped).toEqual([{ operation: 'internal (GET /internal)', reason: 'x-mcp: false on its path' }]);
    expect(r.tools[3]!.annotations).toMatchObject({ openWorldHint: false, destructiveHint: true });
  });

  it('x-mcp: false at the root leaves out everything not opted back in', async () => {
    const r = await run(undefined, { ...SPEC, 'x-mcp': false });
    expect(r.names).toEqual(['remove_pet', 'internalWrite']);
    expect(r.skipped[0]).toEqual({ operation: 'listPets (GET /pets)', reason: 'x-mcp: false at the spec root' });
  });

  it('ANDs the fields of a selector, ORs the selectors, then excludes', async () => {
    const r = await run({
      include: [{ tags: ['pets'], methods: ['GET'] }, { operationIds: ['create*'] }],
      exclude: { paths: ['/pets/*'] },
    });
    expect(r.names).toEqual(['listPets', 'createPet']);
    expect(r.skipped.map((s) => s.reason)).toEqual([
      'excluded by exclude in c.json',
      'not selected by include in c.json',
      'not selected by include in c.json',
      'x-mcp: false on its path',
      'not selected by include in c.json',
    ]);
    expect(r.diags.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('globs: * stays in one segment, ** crosses them', () => {
    expect(glob('/pets/*').test('/pets/{id}')).toBe(true);
    expect(glob('/pets/*').test('/pets/{id}/photos')).toBe(false);
    expect(glob('/pets/**').test('/pets/{id}/photos')).toBe(true);
    expect(glob('get.pet').test('getXpet')).toBe(false);
  });

  it('overrides by operationId, then by METHOD /path', async () => {
    const r = await run({
      tools: {
        getPet: { name: 'get_pet', title: 'One pet', description: 'from id' },
        'get /pets/{id}': { description: 'from route', annotations: { readOnlyHint: false } },
      },
    });
    const tool = r.tools.find((t) => t.source.path === '/pets/{id}' && t.source.method === 'get')!;
    expect(tool).toMatchObject({ name: 'get_pet', title: 'One pet', description: 'from route' });
    expect(tool.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: true });
    expect(tool.annotations).not.toHaveProperty('title'); // the title is the tool's own, not repeated in annotations
  });

  it("gives an owner's description verbatim, describe_operation included: the spec's whole text goes", async () => {
    const long = `Returns the pet. ${'It has more to say about it. '.repeat(40)}`;
    const spec = structuredClone(SPEC) as typeof SPEC;
    (spec.paths['/pets/{id}'].get as Record<string, unknown>)['description'] = long;
    const plain = (await run(undefined, spec)).tools.find((t) => t.name === 'getPet')!;
    expect(plain.description.startsWith('Get a pet.\n\nReturns the pet.')).toBe(true);
    expect(plain.fullDescription).toBe(long.trim());
    const owned = (await run({ tools: { getPet: { description: '**Mine**, [as written](http://x).' } } }, spec)).tools;
    const tool = owned.find((t) => t.name === 'getPet')!;
    expect(tool.description).toBe('**Mine**, [as written](http://x).');
    expect(tool).not.toHaveProperty('fullDescription');
  });

  it('reports values and keys that match nothing, invalid names and collisions as errors', async () => {
    const r = await run({
      include: [{ tags: ['pets', 'nope'] }, { tags: ['photos'], methods: ['post'] }],
      tools: {
        missing: { title: 'x' },
        'GET /nowhere': { title: 'y' },
        listPets: { name: 'bad name' },
        createPet: { name: 'GETPET' },
      },
    });
    const errors = r.diags.filter((d) => d.severity === 'error').map((d) => `${d.code} ${d.pointer}`);
    expect(errors).toEqual([
      'OTM_CONFIG_NO_MATCH c.json#/include/0/tags/1',
      'OTM_CONFIG_NO_MATCH c.json#/include/1',
      'OTM_CONFIG_NO_MATCH c.json#/tools/missing',
      'OTM_CONFIG_NO_MATCH c.json#/tools/GET ~1nowhere',
      'OTM_CONFIG_INVALID c.json#/tools/listPets/name',
      'OTM_CONFIG_INVALID c.json#/tools/createPet/name',
    ]);
  });

  it('warns about x-mcp values it does not understand', async () => {
    const spec = {
      ...SPEC,
      paths: {
        '/a': { get: { operationId: 'a', 'x-mcp': { nickname: 'x', annotations: { fast: true } }, responses: ok } },
      },
    };
    const r = await run(undefined, spec);
    expect(r.diags.filter((d) => d.code === 'OTM_X_MCP_INVALID').map((d) => d.pointer)).toEqual([
      '#/paths/~1a/get/x-mcp/nickname',
      '#/paths/~1a/get/x-mcp/annotations/fast',
    ]);
    expect(r.names).toEqual(['a']);
  });
});

describe('loadProjectConfig', () => {
  it('prefers the output folder, then the current directory; reads .mjs default exports', async () => {
    const cwd = join(work, 'cwd');
    const outDir = join(work, 'out');
    mkdirSync(cwd, { recursive: true });
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(cwd, 'openapi-to-mcp.config.json'), '{"exclude":{"tags":["a"]}}');
    const diags = new Diagnostics();
    expect((await loadProjectConfig({ outDir, cwd }, diags))?.config).toEqual({ exclude: { tags: ['a'] } });
    writeFileSync(join(outDir, 'openapi-to-mcp.config.mjs'), 'export default () => ({ exclude: { tags: ["b"] } });\n');
    const loaded = await loadProjectConfig({ outDir, cwd }, diags);
    expect(loaded?.label).toBe('openapi-to-mcp.config.mjs');
    expect(loaded?.config).toEqual({ exclude: { tags: ['b'] } });
    expect(diags.all).toEqual([]);
  });

  it('rejects unknown keys and bad values, and a --config file that does not exist', async () => {
    const dir = join(work, 'bad');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'c.json'),
      JSON.stringify({
        exlude: {},
        include: { methods: ['fetch'] },
        tools: { a: { name: 1 } },
        publish: { mcpName: 'nope' },
        codeMode: { allow: 'everything', timeoutMs: 0, memory: 8 },
      }),
    );
    const diags = new Diagnostics();
    expect(await loadProjectConfig({ explicit: 'c.json', outDir: dir, cwd: dir }, diags)).toBeUndefined();
    expect(diags.all.map((d) => d.pointer)).toEqual([
      'c.json#/exlude',
      'c.json#/include/methods/0',
      'c.json#/tools/a/name',
      'c.json#/publish/mcpName',
      'c.json#/codeMode/allow',
      'c.json#/codeMode/timeoutMs',
      'c.json#/codeMode/memory',
    ]);
    const missing = new Diagnostics();
    expect(await loadProjectConfig({ explicit: 'nope.json', outDir: dir, cwd: dir }, missing)).toBeUndefined();
    expect(missing.all[0]).toMatchObject({ code: 'OTM_CONFIG_INVALID', severity: 'error' });
  });
});
