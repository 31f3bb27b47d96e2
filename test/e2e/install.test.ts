/**
 * The path a user takes on a fresh machine: generate the bundled petstore example, `npm install` it (which
 * builds it), start it with `npm start` over stdio, and list its tools with the SDK v2 client.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, expect, it } from 'vitest';
import { generate } from '../../src/pipeline.js';
import { REPO_ROOT } from '../helpers/generated-project.js';

const root = mkdtempSync(join(tmpdir(), 'otm-install-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('installs, builds and starts with npm start', async () => {
  const dir = join(root, 'petstore-mcp');
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
