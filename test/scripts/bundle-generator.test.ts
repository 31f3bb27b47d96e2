/**
 * The built generator (scripts/bundle-generator.ts): the command's, the library's and the helper thread's
 * entries are bundles of the generator's own code, so a generation loads a handful of its modules instead of
 * the hundred-odd files tsc writes; the command keeps its hashbang and runs as an executable.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/generated-project.js';

const DIST = join(REPO_ROOT, 'dist', 'src');
const work = mkdtempSync(join(tmpdir(), 'otm-bundle-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

it('generates with a few of its own modules loaded, all of them bundles beside the entry', () => {
  const loaded = generatorModulesLoaded();
  expect(loaded).toContain('index.js');
  // tsc's output alone loads 108 for the same generation.
  expect(loaded.length).toBeLessThanOrEqual(8);
  expect(loaded.filter((file) => file.includes('/'))).toEqual([]);
}, 60_000);

it('starts the helper thread from a bundle too: the worker imports only chunks, packages and builtins', () => {
  const worker = readFileSync(join(DIST, 'helper-worker.js'), 'utf8');
  const specifiers = [...worker.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]!);
  expect(specifiers.length).toBeGreaterThan(0);
  expect(specifiers.filter((s) => s.startsWith('.') && !/^\.\/chunk-[\w-]+\.js$/.test(s))).toEqual([]);
});

it('runs as an executable, hashbang kept', () => {
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  expect(execFileSync(join(DIST, 'cli.js'), ['--version'], { encoding: 'utf8' }).trim()).toBe(version);
});

/** The generator's files under dist/src (relative paths) loaded on the main thread by one generation. */
function generatorModulesLoaded(): string[] {
  // A module loader hook (node:module `register`) that appends each URL it loads to a file.
  const log = join(work, 'loaded.txt');
  const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const spec = join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml');
  const script = `const { generate } = await import(${JSON.stringify(pathToFileURL(join(DIST, 'index.js')).href)}); await generate({ spec: ${JSON.stringify(spec)}, write: false });`;
  execFileSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(register)}`, '--input-type=module', '-e', script],
    { stdio: 'pipe' },
  );
  const prefix = pathToFileURL(DIST).href + '/';
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith(prefix))
    .map((url) => relative(DIST, fileURLToPath(url)).split('\\').join('/'));
}
