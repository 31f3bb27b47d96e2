/**
 * A generated project carries only what its mode uses: code mode's runtime folder, its dependencies (QuickJS,
 * its WebAssembly build, sucrase), its sandbox thread's bundle entry and its entries' hand-over of code mode
 * only in a project generated with `--tool-mode code`. That the project without them builds is run by the e2e
 * tests (test/e2e/tool-modes.test.ts builds one in mode dynamic, test/e2e/deploy/install.test.ts installs one).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import type { ToolMode } from '../../../templates/runtime/contract/catalog.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const PETSTORE = join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml');
const CODE_MODE_DEPENDENCIES = ['@jitl/quickjs-wasmfile-release-sync', 'quickjs-emscripten-core', 'sucrase'];

async function project(toolMode?: ToolMode): Promise<Map<string, string>> {
  const options = toolMode ? { toolMode } : {};
  const result = await generate({ spec: PETSTORE, out: '/nonexistent/pet', validate: false, write: false, ...options });
  return new Map(result.files.map((f) => [f.path, f.contents]));
}

const dependencies = (files: Map<string, string>) =>
  Object.keys((JSON.parse(files.get('package.json')!) as { dependencies: Record<string, string> }).dependencies);
const IMPORTS_CODE_MODE = /(from |import\()'[^']*code-mode\//;
const codeModeFiles = (files: Map<string, string>) =>
  [...files.keys()].filter((path) => path.startsWith('src/runtime/code-mode/'));

let byMode: Record<'default' | ToolMode, Map<string, string>>;

beforeAll(async () => {
  const [all, dynamic, hybrid, code, defaultMode] = await Promise.all([
    project('all'),
    project('dynamic'),
    project('hybrid'),
    project('code'),
    project(),
  ]);
  byMode = { default: defaultMode, all, dynamic, hybrid, code };
}, 60_000);

describe('a project generated for a mode other than code', () => {
  it.each(['default', 'all', 'dynamic', 'hybrid'] as const)('in mode %s carries none of code mode', (mode) => {
    const files = byMode[mode];
    expect(codeModeFiles(files)).toEqual([]);
    expect(dependencies(files)).not.toEqual(expect.arrayContaining([expect.stringMatching(/quickjs|sucrase/)]));
    expect(files.get('rolldown.config.mjs')).not.toContain('sandbox-worker');
    expect(files.get('src/worker-data.js')).not.toContain('.wasm');
    expect(files.get('src/worker-data.js')).not.toContain('quickjs');
    // Nothing left that would reach for the folder: the project's tsc would fail on it.
    for (const [path, text] of files) if (path.endsWith('.ts')) expect(text, path).not.toMatch(IMPORTS_CODE_MODE);
  });

  it('keeps what other modes can switch to at run time: the search index and its dependencies', () => {
    const files = byMode.default;
    expect(files.has('search-index.json')).toBe(true);
    expect(dependencies(files)).toEqual(expect.arrayContaining(['minisearch', 'wink-porter2-stemmer']));
    expect([...files.keys()]).toEqual(expect.arrayContaining(['src/runtime/search/search.ts']));
  });
});

describe('a project generated in code mode', () => {
  it('carries code mode whole: its folder, its dependencies, its sandbox entry and its hand-over', () => {
    const files = byMode.code;
    const runtimeFolder = readdirSync(join(REPO_ROOT, 'templates', 'runtime', 'code-mode'));
    expect(codeModeFiles(files)).toEqual(runtimeFolder.sort().map((f) => `src/runtime/code-mode/${f}`));
    expect(dependencies(files)).toEqual(expect.arrayContaining(CODE_MODE_DEPENDENCIES));
    expect(files.get('rolldown.config.mjs')).toContain("'sandbox-worker': 'src/runtime/code-mode/sandbox-worker.ts'");
    expect(files.get('src/server.ts')).toContain('codeMode: codeModeSupport()');
    expect(files.get('src/web-server.ts')).toContain('codeMode: codeModeSupport()');
  });
});
