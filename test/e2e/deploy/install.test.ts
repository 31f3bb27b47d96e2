/**
 * The path a user takes on a fresh machine: generate the bundled petstore example, `npm install` it (which
 * builds it), start it with `npm start` over stdio, and list its tools with the SDK v2 client. Then what that
 * build made of the entry: a bundle, which loads a handful of the project's modules before its first answer.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const root = mkdtempSync(join(tmpdir(), 'otm-install-'));
const dir = join(root, 'petstore-mcp');
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('installs, builds and starts with npm start', async () => {
  await generate({ spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'), out: dir, validate: false });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, stdio: 'pipe' });
  const client = new Client(
    { name: 'install-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StdioClientTransport({
      command: npm,
      args: ['start', '--silent'],
      cwd: dir,
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

it('runs a bundle of its own code: a few project modules load before the first tools/list, none of dist/runtime', async () => {
  const loaded = await projectModulesLoadedByFirstList(join(dir, 'dist', 'index.js'));
  expect(loaded).toContain('dist/index.js');
  expect(loaded.filter((file) => file.startsWith('dist/runtime/'))).toEqual([]);
  // tsc's output alone loads about forty (every runtime module the listing needs). The bundle's third entry, code
  // mode's worker thread, shares a few small modules with the server (the cut, the message limits), which rolldown
  // splits into chunks of their own.
  expect(loaded.length).toBeLessThanOrEqual(12);
}, 60_000);

/** The project's files (relative paths) Node loads from spawn to the first tools/list answer over stdio. */
function projectModulesLoadedByFirstList(entry: string): Promise<string[]> {
  // A module loader hook (node:module `register`) that appends each URL it loads to a file.
  const log = join(root, 'loaded.txt');
  const hook = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) { appendFileSync(${JSON.stringify(log)}, url + '\\n'); return next(url, context); }`;
  const register = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
  const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(register)}`, entry], {
    env: { PATH: process.env['PATH'] ?? '', API_BASE_URL: 'http://127.0.0.1:9' },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const listRequest = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  };
  child.stdin.write(`${JSON.stringify(listRequest)}\n`);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout.setEncoding('utf8').once('data', (answer: string) => {
      child.kill();
      if (!answer.includes('"tools"')) return reject(new Error(`no tools/list answer: ${answer}`));
      const prefix = `${pathToFileURL(dir).href}/`;
      resolve(
        readFileSync(log, 'utf8')
          .split('\n')
          .filter((url) => url.startsWith(prefix) && !url.includes('/node_modules/'))
          .map((url) => url.slice(prefix.length)),
      );
    });
  });
}
