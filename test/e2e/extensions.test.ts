/**
 * The owner's extension points, through the generated docs/extend.md's own examples: its `ts file=…` code blocks are
 * written into a generated petstore project and compiled with it (a block that stops compiling fails here),
 * then run: src/extensions.ts (a tool, a resource, a prompt) behind the bin over stdio, src/custom-main.ts
 * (own fetch, logger and hooks), src/express-app.ts and src/hono-app.ts (the endpoint mounted in an app)
 * over HTTP with the SDK's v2 and v1 clients. Last, a regeneration keeps every one of those files.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../src/pipeline.js';
import { buildProject, generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { connectLegacyHttp, connectModernHttp, connectModernStdio, modernClient } from '../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startAppServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml');

/** The page's code blocks that name a file: ```ts file=src/x.ts */
function docExamples(page: string): Map<string, string> {
  return new Map([...page.matchAll(/^```ts file=(\S+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, m[2]!]));
}

let upstream: MockUpstream;
let project: BuiltProject;
let examples: Map<string, string>;

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(SPEC, {}, (dir) => {
    examples = docExamples(readFileSync(join(dir, 'docs', 'extend.md'), 'utf8'));
    for (const [file, code] of examples) writeFileSync(join(dir, file), code);
  });
});

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond(() => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: '{"id":7,"name":"Rex","photoUrls":[]}',
  }));
});

const env = () => ({ API_BASE_URL: upstream.url, API_KEY: 'owner-key-1234' });

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const text = (result: unknown) => (result as CallResult).content.map((c) => c.text ?? '').join('\n');

it('docs/extend.md has a compiled example of each extension point', () => {
  expect([...examples.keys()]).toEqual([
    'src/extensions.ts',
    'src/custom-main.ts',
    'src/express-app.ts',
    'src/hono-app.ts',
  ]);
  for (const file of examples.keys())
    expect(readFileSync(join(project.dir, file.replace(/^src/, 'dist').replace(/\.ts$/, '.js')), 'utf8')).not.toBe('');
});

/** What every mounting of docs/extend.md's src/extensions.ts must serve. */
async function expectOwnerExtensions(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'getPetById']));
  expect(tools.find((t) => t.name === 'echo')).toMatchObject({
    annotations: { readOnlyHint: true },
    inputSchema: { required: ['text'] },
  });
  expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hello' } }))).toBe('echo: hello');
  const invalid = (await client.callTool({ name: 'echo', arguments: {} })) as CallResult;
  expect(invalid.isError).toBe(true);
  expect(text(invalid)).toMatch(/^Invalid arguments for tool echo: .*text/);

  // After the generated ones (the API description and the operations guide).
  expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
    'openapi://server/openapi.json',
    'openapi://server/operations.md',
    'notes://usage',
  ]);
  expect((await client.listResources()).resources[2]).toEqual({
    uri: 'notes://usage',
    name: 'usage',
    description: 'How our team uses this API.',
    mimeType: 'text/markdown',
  });
  expect((await client.readResource({ uri: 'notes://usage' })).contents).toEqual([
    { uri: 'notes://usage', mimeType: 'text/markdown', text: '# Usage\n\nAsk before deleting anything.' },
  ]);
  await expect(client.readResource({ uri: 'notes://nothing' })).rejects.toThrow(/not found/);

  expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['operations_guide', 'explain']);
  expect((await client.listPrompts()).prompts.slice(1)).toEqual([
    {
      name: 'explain',
      description: 'Asks for an explanation of one part of the API.',
      arguments: [{ name: 'topic', description: 'What to explain', required: true }],
    },
  ]);
  const prompt = await client.getPrompt({ name: 'explain', arguments: { topic: 'pets' } });
  expect(prompt.messages).toEqual([
    { role: 'user', content: { type: 'text', text: 'Explain pets in this API, using its tools.' } },
  ]);
  await expect(client.getPrompt({ name: 'explain', arguments: {} })).rejects.toThrow(/topic/);

  // The generated tools are still there, calling the API.
  expect(text(await client.callTool({ name: 'getPetById', arguments: { petId: 7 } }))).toContain('"Rex"');
  expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /pet/7']);
}

describe('src/extensions.ts behind the bin (stdio)', () => {
  it('serves the owner tool, resource and prompt beside the generated tools', async () => {
    const client = await connectModernStdio(project.entry, env());
    try {
      await expectOwnerExtensions(client);
    } finally {
      await client.close();
    }
  });
});

describe('src/custom-main.ts: own fetch, logger and hooks', () => {
  it('sends upstream requests through the fetch, logs through the logger and runs the hooks', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [join(project.dir, 'dist', 'custom-main.js')],
      env: { PATH: process.env['PATH'] ?? '', ...env(), LOG_LEVEL: 'debug' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = modernClient();
    await client.connect(transport);
    try {
      const result = await client.callTool({ name: 'getPetById', arguments: { petId: 7 } });
      expect(text(result)).toContain('"Rex"');
      expect(text(result)).toMatch(/\(through my app\)$/);
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]!.headers['x-request-source']).toBe('my-app');
      expect(upstream.requests[0]!.headers['api_key']).toBe('owner-key-1234');
      expect(stderr).toContain('[my-app] info serving MCP on stdio');
      // The owner's logger drops debug lines; the default one would have written JSON lines.
      expect(stderr).not.toContain('"level"');
    } finally {
      await client.close();
    }
  });
});

describe.each(['express', 'hono'])('src/%s-app.ts: the endpoint mounted in an app', (framework) => {
  let app: HttpServerProcess;
  beforeAll(async () => {
    app = await startAppServer(join(project.dir, 'dist', `${framework}-app.js`), env(), '/hello');
  });
  afterAll(async () => {
    await app?.stop();
  });

  it('serves the app’s own route and MCP to a 2026-07-28 client', async () => {
    expect(await (await fetch(`${app.url}/hello`)).text()).toBe('my own route');
    const client = await connectModernHttp(`${app.url}/mcp`);
    try {
      await expectOwnerExtensions(client);
    } finally {
      await client.close();
    }
  });

  it('serves a 2025-11-25 client', async () => {
    const client = await connectLegacyHttp(`${app.url}/mcp`);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('echo');
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'old' } }))).toBe('echo: old');
    } finally {
      await client.close();
    }
  });

  it('refuses a foreign Host (the SDK app factory’s DNS-rebinding guard)', async () => {
    expect(await postStatus(app.port, { host: 'evil.example' })).toBe(403);
    expect(await postStatus(app.port, { host: `127.0.0.1:${app.port}`, origin: 'http://evil.example' })).toBe(403);
  });
});

/** The status of a POST to /mcp with these headers (node:http: fetch does not let a caller set Host). */
function postStatus(port: number, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/mcp',
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.once('error', reject);
    req.end('{}');
  });
}

describe('regeneration', () => {
  it('keeps the owner files and the docs/extend.md examples written into the project, and still serves them', async () => {
    const owned = [...examples.keys(), 'src/hooks.ts'];
    const before = new Map(owned.map((file) => [file, readFileSync(join(project.dir, file), 'utf8')]));
    // A different tool mode rewrites the generated files (catalog, README, src/server.ts stays).
    await generate({ spec: SPEC, out: project.dir, validate: false, toolMode: 'dynamic' });
    for (const [file, contents] of before) expect(readFileSync(join(project.dir, file), 'utf8')).toBe(contents);
    const lock = JSON.parse(readFileSync(join(project.dir, 'openapi-to-mcp.lock.json'), 'utf8')) as { files: string[] };
    expect(lock.files).toContain('src/server.ts');
    for (const file of owned) expect(lock.files).not.toContain(file);

    buildProject(project.dir);
    const client = await connectModernStdio(project.entry, env());
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search_operations', 'describe_operation', 'call_operation', 'echo']);
    } finally {
      await client.close();
    }
  });

  it('keeps them with --force into a folder whose lock is gone', async () => {
    const owned = [...examples.keys(), 'src/hooks.ts'];
    const before = new Map(owned.map((file) => [file, readFileSync(join(project.dir, file), 'utf8')]));
    rmSync(join(project.dir, 'openapi-to-mcp.lock.json'));
    await expect(generate({ spec: SPEC, out: project.dir, validate: false })).rejects.toThrow(/not empty/);
    await generate({ spec: SPEC, out: project.dir, validate: false, force: true });
    for (const [file, contents] of before) expect(readFileSync(join(project.dir, file), 'utf8')).toBe(contents);
  });

  it('writes src/extensions.ts again when the owner deleted it', async () => {
    rmSync(join(project.dir, 'src', 'extensions.ts'));
    await generate({ spec: SPEC, out: project.dir, validate: false });
    expect(readFileSync(join(project.dir, 'src', 'extensions.ts'), 'utf8')).toContain('This file is yours');
    buildProject(project.dir);
  });
});
