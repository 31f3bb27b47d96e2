/**
 * The generated project as its owner publishes it, starting from generated-examples/petstore (a copy):
 * `npm install` (which builds it), its own `npm test` (vitest against the mock built from the spec's
 * examples), then `npm pack`, `npm install <tarball>` into an empty folder, and the server started through
 * the installed bin with the SDK v2 stdio client, which lists its tools.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/generated-project.js';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { modernClient } from '../../helpers/mcp-clients.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const NPM_FLAGS = ['--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
const root = mkdtempSync(join(tmpdir(), 'otm-publish-'));
const project = join(root, 'petstore-mcp');
const example = join(REPO_ROOT, 'generated-examples', 'petstore');

function run(args: string[], cwd: string): string {
  return execFileSync(npm, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, npm_config_update_notifier: 'false' },
  });
}

beforeAll(() => {
  cpSync(example, project, {
    recursive: true,
    filter: (src) => !/[\\/](node_modules|dist)([\\/]|$)/.test(src.slice(example.length)),
  });
  run(['install', ...NPM_FLAGS], project);
}, 300_000);

afterAll(() => rmSync(root, { recursive: true, force: true }));

it('passes its own npm test', () => {
  let output: string;
  try {
    output = execFileSync(npm, ['test'], {
      cwd: project,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CI: '1', NO_COLOR: '1' },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(`npm test failed:\n${e.stdout ?? ''}\n${e.stderr ?? ''}`, { cause: error });
  }
  // One test lists the tools; one calls each read-only tool that has sample arguments.
  const { calls } = JSON.parse(readFileSync(join(project, 'test', 'tool-calls.json'), 'utf8')) as {
    calls: Array<{ args: unknown }>;
  };
  const callable = calls.filter((call) => call.args !== null).length;
  expect(callable).toBeGreaterThan(5);
  expect(output).toMatch(new RegExp(`Tests\\s+${1 + callable} passed`));
  expect(output).not.toMatch(/failed/);
}, 180_000);

it('packs, installs from the tarball into an empty folder, and starts through its bin', async () => {
  const packed = JSON.parse(run(['pack', '--json', '--pack-destination', root], project)) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const files = packed[0]!.files.map((f) => f.path).sort();
  expect(files).toContain('dist/index.js');
  expect(files).toEqual(expect.arrayContaining(['catalog.json', 'search-index.json']));
  expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/environment.md', 'docs/publish.md']));
  expect(files.some((f) => f.startsWith('src/') || f.startsWith('test/'))).toBe(false);

  const consumer = join(root, 'consumer');
  mkdirSync(consumer);
  run(['install', join(root, packed[0]!.filename), ...NPM_FLAGS], consumer);
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as {
    name: string;
    bin: Record<string, string>;
  };
  const bin = join(consumer, 'node_modules', '.bin', Object.keys(pkg.bin)[0]!);
  expect(existsSync(bin)).toBe(true);

  // The bin itself (its shebang, its symlink into the package), as `npx` would run it.
  const client = modernClient();
  await client.connect(
    new StdioClientTransport({
      command: bin,
      args: [],
      env: { PATH: process.env['PATH'] ?? '', API_BASE_URL: 'http://127.0.0.1:9' },
      stderr: 'pipe',
    }),
  );
  try {
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(19);
    expect(tools.map((t) => t.name)).toContain('getPetById');
  } finally {
    await client.close();
  }
}, 300_000);
