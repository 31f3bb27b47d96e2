/**
 * Code mode end to end: a generated petstore server over stdio, driven by the SDK's v2 client, against a
 * local upstream that records every request (and echoes the API key it was sent, as a careless API might).
 * `search` answers with TypeScript declarations; `execute` runs programs whose `api.*` calls make exactly
 * the requests the direct tools make; attacks on the sandbox fail cleanly and the server goes on serving.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { countListTokens } from '../../../src/report/tokens.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernStdio } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/petstore.yaml`;
const API_KEY = 'pk-live-4f9a2c1e8b7d';
type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond((req) => {
    const json = (status: number, body: unknown) => ({
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (req.url.startsWith('/v3/pet/findByStatus'))
      return json(200, [
        { id: 1, name: 'Rex', status: 'available', tags: [{ name: 'dog' }] },
        { id: 2, name: 'Tom', status: 'available', tags: [{ name: 'cat' }] },
        { id: 3, name: 'Fido', status: 'available', tags: [{ name: 'dog' }] },
      ]);
    const pet = /^\/v3\/pet\/(\d+)$/.exec(req.url);
    if (pet && pet[1] === '404') return json(404, { code: 404, message: 'Pet not found' });
    if (pet && req.method === 'GET')
      return json(200, { id: Number(pet[1]), name: `pet ${pet[1]}`, seenKey: req.headers['api_key'] });
    if (req.url === '/v3/pet' && req.method === 'POST')
      return json(200, { ...JSON.parse(req.body.toString()), id: 99 });
    return json(200, { ok: true });
  });
  project = await generateAndBuild(SPEC, { toolMode: 'code' });
});
afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

async function connect(extra: Record<string, string> = {}): Promise<Client> {
  return connectModernStdio(project.entry, {
    API_BASE_URL: `${upstream.url}/v3`,
    API_KEY,
    PETSTORE_AUTH_TOKEN: 'oauth-token-7d1e',
    ...extra,
  });
}

async function execute(client: Client, code: string): Promise<CallResult> {
  return (await client.callTool({ name: 'execute', arguments: { code } })) as CallResult;
}

const textOf = (result: CallResult) => result.content.map((c) => c.text ?? '').join('');

describe('code mode', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect({ MCP_CODE_MEMORY_MB: '8' });
  });
  afterAll(async () => {
    await client?.close();
  });

  /** The server still answers a search and a program that calls the API. */
  async function expectStillServing(): Promise<void> {
    const result = await execute(client, 'return (await api.getPetById({ petId: 5 })).name;');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('"pet 5"');
  }

  it('lists search and execute in well under 1,500 tokens, and says how to use them', async () => {
    const listed = await client.listTools();
    expect(listed.tools.map((t) => t.name)).toEqual(['search', 'execute']);
    expect(await countListTokens(JSON.stringify({ tools: listed.tools }))).toBeLessThanOrEqual(1_500);
    expect(client.getInstructions()).toContain('api.<name>(args)');
  });

  it('search answers with TypeScript declarations: arguments, descriptions, result shape', async () => {
    const result = (await client.callTool({
      name: 'search',
      arguments: { query: 'find a pet by its id', limit: 3 },
    })) as CallResult;
    const text = textOf(result);
    expect(text).toContain('interface Api {');
    expect(text).toMatch(
      /getPetById\(args: \{\n\s+\/\*\* ID of pet to return \*\/\n\s+petId: number;\n\s+\}\): Promise<\{/,
    );
    expect(text).toContain('GET /pet/{petId} (read-only)');
    const browse = (await client.callTool({ name: 'search', arguments: {} })) as CallResult;
    expect(textOf(browse)).toContain('groups of operations');
  });

  it('runs list → filter → get and returns what the program returns, with the same requests as the tools', async () => {
    const result = await execute(
      client,
      [
        "const pets = await api.findPetsByStatus({ status: 'available' });",
        "const dogs = pets.filter((p) => p.tags.some((t) => t.name === 'dog'));",
        'const details = await Promise.all(dogs.map((d) => api.getPetById({ petId: d.id })));',
        'return details.map((d) => d.name);',
      ].join('\n'),
    );
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('["pet 1","pet 3"]');
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`).sort()).toEqual([
      'GET /v3/pet/1',
      'GET /v3/pet/3',
      'GET /v3/pet/findByStatus?status=available',
    ]);
  });

  it('takes TypeScript, and points a runtime error at the line', async () => {
    const typed = await execute(
      client,
      'interface Pet { id: number }\nconst p: Pet = await api.getPetById({ petId: 7 });\nreturn p.id as number;',
    );
    expect(textOf(typed)).toBe('7');
    const broken = await execute(client, 'const p = await api.getPetById({ petId: 7 });\n\nreturn p.owner.name;');
    expect(broken.isError).toBe(true);
    expect(textOf(broken)).toMatch(/^TypeError at line 3: /);
  });

  it('a failed call throws an ApiError with the status and body excerpt', async () => {
    const caught = await execute(
      client,
      'try { await api.getPetById({ petId: 404 }); } catch (e) { return { status: e.status, body: JSON.parse(e.body) }; }',
    );
    expect(JSON.parse(textOf(caught))).toEqual({ status: 404, body: { code: 404, message: 'Pet not found' } });
    const uncaught = await execute(client, 'const id = 404;\nreturn await api.getPetById({ petId: id });');
    expect(uncaught.isError).toBe(true);
    expect(textOf(uncaught)).toContain('ApiError at line 2: HTTP 404 Not Found from GET /pet/{petId}\nstatus: 404');
  });

  it('arguments are validated like a tool call, before any request', async () => {
    const result = await execute(client, "return await api.getPetById({ petId: 'seven' });");
    expect(textOf(result)).toContain('Invalid arguments for tool getPetById');
    expect(upstream.requests).toHaveLength(0);
  });

  it('credentials never enter the sandbox, and an API that echoes one is redacted', async () => {
    const probe = await execute(
      client,
      "return [typeof process, JSON.stringify(Object.getOwnPropertyNames(globalThis)).includes('API_KEY'), (await api.getPetById({ petId: 8 })).seenKey];",
    );
    expect(textOf(probe)).toBe('["undefined",false,"[redacted]"]');
    expect(upstream.requests[0]!.headers['api_key']).toBe(API_KEY);
    const env = await execute(client, 'return process.env.API_KEY;');
    expect(env.isError).toBe(true);
    expect(textOf(env)).not.toContain(API_KEY);
  });

  it('by default refuses writes and destructive operations without sending anything', async () => {
    for (const code of [
      'await api.deletePet({ petId: 1 });',
      "await api.addPet({ body: { name: 'x', photoUrls: [] } });",
    ]) {
      const result = await execute(client, code);
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('MCP_CODE_ALLOW=');
    }
    expect(upstream.requests).toHaveLength(0);
  });

  it('network, file system, modules and host globals are out of reach; the server keeps serving', async () => {
    const attempts = [
      "return await fetch('http://127.0.0.1:1/');",
      "return require('fs').readFileSync('/etc/passwd', 'utf8');",
      "return await import('node:child_process');",
      "return (function () {}).constructor('return process')().env;",
    ];
    for (const code of attempts) {
      const result = await execute(client, code);
      expect(result.isError, code).toBe(true);
      await expectStillServing();
    }
  });

  it('an endless loop, unbounded allocation and deep recursion each fail cleanly; the server keeps serving', async () => {
    const loop = await execute(client, 'while (true) {}');
    expect(textOf(loop)).toContain('without waiting on an API call');
    await expectStillServing();
    const memory = await execute(client, 'const a = [];\nfor (let n = 1; ; n *= 2) a.push(new Array(n).fill(n));');
    expect(textOf(memory)).toContain('ran out of memory');
    await expectStillServing();
    const stack = await execute(client, 'const f = (n) => f(n + 1) + 1;\nreturn f(0);');
    expect(textOf(stack)).toContain('stack overflow');
    await expectStillServing();
  });
});

describe('code mode settings', () => {
  it('MCP_CODE_ALLOW=write runs writes, not destructive ones; create then read back', async () => {
    const client = await connect({ MCP_CODE_ALLOW: 'write' });
    try {
      const created = await execute(
        client,
        "const pet = await api.addPet({ body: { name: 'Nemo', photoUrls: [] } });\nconst back = await api.getPetById({ petId: pet.id });\nreturn [pet.name, back.id];",
      );
      expect(textOf(created)).toBe('["Nemo",99]');
      const deleted = await execute(client, 'await api.deletePet({ petId: 1 });');
      expect(textOf(deleted)).toContain('MCP_CODE_ALLOW=destructive');
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v3/pet', 'GET /v3/pet/99']);
    } finally {
      await client.close();
    }
  });

  it('MCP_CODE_MAX_CALLS and MCP_CODE_MAX_RESULT_BYTES bound a program', async () => {
    const client = await connect({ MCP_CODE_MAX_CALLS: '2', MCP_CODE_MAX_RESULT_BYTES: '200' });
    try {
      const calls = await execute(client, 'for (let i = 1; i <= 5; i++) await api.getPetById({ petId: i });');
      expect(textOf(calls)).toContain('more than 2 API calls');
      expect(upstream.requests).toHaveLength(2);
      const big = await execute(client, "return 'x '.repeat(2500);");
      expect(big.isError).toBeFalsy();
      // Cut at 200 bytes, and back to the end of the last whole word (cut.ts).
      expect(textOf(big)).toMatch(/^"(x ){99}…\[truncated: 4803 more bytes not shown/);
    } finally {
      await client.close();
    }
  });

  it('MCP_TOOL_MODE overrides code mode like any other (all lists every operation)', async () => {
    const client = await connectModernStdio(project.entry, {
      API_BASE_URL: `${upstream.url}/v3`,
      MCP_TOOL_MODE: 'all',
    });
    try {
      expect((await client.listTools()).tools).toHaveLength(19);
    } finally {
      await client.close();
    }
  });
});
