/**
 * The MCP Bundle as a desktop host installs it: `npm run bundle` in a generated petstore (a real production
 * install from the npm registry into a staging folder, then the official packer), the archive unpacked into an
 * empty folder, and the server started from its manifest the way Claude Desktop starts one (@anthropic-ai/mcpb's
 * getMcpConfigForManifest, with the user's answers to user_config); its tools listed and one called against a
 * mock upstream on 127.0.0.1.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getMcpConfigForManifest, unpackExtension, type McpbManifestAny } from '@anthropic-ai/mcpb';
import type { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { modernClient } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const KEY = 'k-bundle-7f3a9c';

let project: BuiltProject;
let upstream: MockUpstream;
let installed: string;
let manifest: McpbManifestAny;

beforeAll(async () => {
  project = await generateAndBuild(join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'));
  upstream = await startMockUpstream();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['run', 'bundle', '--silent'], { cwd: project.dir, stdio: 'pipe' });
  const name = (JSON.parse(readFileSync(join(project.dir, 'package.json'), 'utf8')) as { name: string }).name;
  installed = join(project.dir, '..', 'installed');
  mkdirSync(installed);
  expect(
    await unpackExtension({ mcpbPath: join(project.dir, `${name}.mcpb`), outputDir: installed, silent: true }),
  ).toBe(true);
  manifest = JSON.parse(readFileSync(join(installed, 'manifest.json'), 'utf8')) as McpbManifestAny;
}, 300_000);

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

async function startFromManifest(userConfig: Record<string, string>): Promise<Client> {
  const config = await getMcpConfigForManifest({
    manifest,
    extensionPath: installed,
    systemDirs: {},
    userConfig,
    pathSeparator: '/',
  });
  if (!config) throw new Error('the host would not start the server: required configuration missing');
  const client = modernClient();
  await client.connect(
    new StdioClientTransport({
      command: config.command,
      args: config.args ?? [],
      env: { PATH: process.env['PATH'] ?? '', ...config.env },
      cwd: installed,
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('an MCP bundle of the petstore', () => {
  it('holds the built server and its production dependencies only', () => {
    expect(existsSync(join(installed, 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(installed, 'catalog.json'))).toBe(true);
    expect(existsSync(join(installed, 'node_modules', '@modelcontextprotocol', 'server', 'package.json'))).toBe(true);
    for (const tool of ['typescript', 'vitest', 'rolldown', '@anthropic-ai/mcpb'])
      expect(existsSync(join(installed, 'node_modules', tool)), tool).toBe(false);
    expect(existsSync(join(installed, 'src'))).toBe(false);
  });

  it('asks for the base URL and credentials, secrets marked sensitive', () => {
    const asked = manifest.user_config ?? {};
    expect(Object.keys(asked).sort()).toEqual(['api_base_url', 'api_key', 'petstore_auth_token']);
    expect(asked['api_key']).toMatchObject({ sensitive: true, required: false });
    expect(asked['petstore_auth_token']).toMatchObject({ sensitive: true });
    expect(asked['api_base_url']).not.toHaveProperty('sensitive');
  });

  it('starts from its manifest, lists its tools and calls the API with the user-given credential', async () => {
    const client = await startFromManifest({ api_base_url: upstream.url, api_key: KEY });
    try {
      expect((await client.listTools()).tools).toHaveLength(19);
      const result = (await client.callTool({ name: 'getInventory', arguments: {} })) as { isError?: boolean };
      expect(result.isError).toBeFalsy();
      const sent = upstream.requests.at(-1)!;
      expect(sent.url).toBe('/store/inventory');
      expect(sent.headers['api_key']).toBe(KEY);
      // The OAuth token left empty reaches the server as an empty variable, read as unset: nothing is sent for it.
      expect(sent.headers['authorization']).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('without the credential, the call says which setting is missing', async () => {
    const client = await startFromManifest({ api_base_url: upstream.url });
    try {
      const result = (await client.callTool({ name: 'getInventory', arguments: {} })) as {
        isError?: boolean;
        content: Array<{ text?: string }>;
      };
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toContain('API_KEY');
    } finally {
      await client.close();
    }
  });
});
