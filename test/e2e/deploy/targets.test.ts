/**
 * Every deployment target serves the same server: the generated petstore and GitHub (1,223 operations,
 * default hybrid mode) are started on Node (the bin), Deno, Bun and workerd (`wrangler dev` on the generated
 * wrangler.toml, credentials as secret bindings), and each is driven by the SDK's v2 client (2026-07-28:
 * server/discover, tools/list, calls) and the v1 client (2025-11-25), with the exact upstream requests
 * asserted at a mock on 127.0.0.1. Node, Deno and Bun also drain on SIGTERM: the call in flight finishes.
 * The petstore generated in code mode runs a multi-step program through `execute` on each target (QuickJS
 * loaded from its package, or on workerd imported as a compiled module), and a program that reaches for the
 * host (fetch, process, the global object's prototype chain) fails inside the sandbox, and a program's
 * DELETE is confirmed through the input_required round trip and sent once. Each target contains a memory bomb
 * in the program's own capped memory and stops a busy loop at the compute limit; where programs run in a
 * worker thread (all but workerd, which has none), tools/list is answered promptly all the while.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { elicitingModernClient, user } from '../../helpers/elicitation.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectLegacyHttp, connectModernHttp } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../../helpers/mock-upstream.js';
import { startTarget, TARGETS, type RunningTarget, type Target } from '../../helpers/targets.js';

const PETSTORE = `${REPO_ROOT}/fixtures/specs/petstore.yaml`;
const GITHUB = `${REPO_ROOT}/../shared/specs/github/api.github.com.json`;
const API_KEY = 'pet-secret-4242';

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

let upstream: MockUpstream;
let petstore: BuiltProject;
let github: BuiltProject;
let petstoreCode: BuiltProject;

beforeAll(async () => {
  if (!existsSync(GITHUB)) throw new Error(`${GITHUB} is missing: the targets test needs ../shared/specs`);
  upstream = await startMockUpstream();
  [petstore, github, petstoreCode] = await Promise.all([
    generateAndBuild(PETSTORE),
    generateAndBuild(GITHUB),
    generateAndBuild(PETSTORE, { toolMode: 'code' }),
  ]);
}, 180_000);

afterAll(async () => {
  await upstream?.close();
  petstore?.cleanup();
  github?.cleanup();
  petstoreCode?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond((req) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    // The pet's name is the API key: the result must show it redacted on every target.
    body: req.url.startsWith('/v3/pet/')
      ? JSON.stringify({ id: Number(req.url.split('/').pop()), name: API_KEY, photoUrls: [], status: 'available' })
      : JSON.stringify({ id: 1, full_name: 'octo/hello' }),
  }));
});

function onlyRequest(): RecordedRequest {
  expect(upstream.requests).toHaveLength(1);
  return upstream.requests[0]!;
}

function text(result: CallResult): string {
  return result.content.map((c) => c.text ?? '').join('');
}

/** The longest tools/list round trip (past the client's cache), one after another until `work` settles. */
async function longestListing(client: Client, work: Promise<unknown>): Promise<number> {
  let settled = false;
  void work.finally(() => (settled = true)).catch(() => undefined);
  let longest = 0;
  while (!settled) {
    const started = performance.now();
    await client.listTools(undefined, { cacheMode: 'bypass' });
    longest = Math.max(longest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return longest;
}

describe.each(TARGETS)('%s', (target: Target) => {
  describe('petstore', () => {
    let server: RunningTarget;
    beforeAll(async () => {
      server = await startTarget(target, petstore.dir, { API_BASE_URL: `${upstream.url}/v3` }, { API_KEY });
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('serves /health and refuses a foreign Origin (DNS-rebinding protection)', async () => {
      expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok' });
      const foreign = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
        body: '{}',
      });
      expect(foreign.status).toBe(403);
      expect(await foreign.text()).toContain('Invalid Origin');
    });

    it('2026-07-28: discovers, lists and calls, sending the exact upstream request', async () => {
      const client: Client = await connectModernHttp(`${server.url}/mcp`);
      try {
        expect(client.getProtocolEra()).toBe('modern');
        expect(client.getServerVersion()?.name).toBe('server');
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(19);
        expect(tools.map((t) => t.name)).toContain('getPetById');
        const result = (await client.callTool({ name: 'getPetById', arguments: { petId: 7 } })) as CallResult;
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toEqual({ id: 7, name: '[redacted]', photoUrls: [], status: 'available' });
        expect(text(result)).not.toContain(API_KEY);
        const req = onlyRequest();
        expect([req.method, req.url, req.headers['api_key']]).toEqual(['GET', '/v3/pet/7', API_KEY]);
        expect(req.headers['user-agent']).toBe('server/1.0.27-SNAPSHOT openapi-to-mcp');
        const invalid = (await client.callTool({ name: 'getPetById', arguments: { petId: 'seven' } })) as CallResult;
        expect(invalid.isError).toBe(true);
        expect(text(invalid)).toContain('petId');
        expect(upstream.requests).toHaveLength(1);
      } finally {
        await client.close();
      }
    });

    it('2025-11-25: lists and calls', async () => {
      const client = await connectLegacyHttp(`${server.url}/mcp`);
      try {
        const { tools } = await client.listTools();
        expect(tools).toHaveLength(19);
        const result = (await client.callTool({ name: 'getPetById', arguments: { petId: 8 } })) as CallResult;
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toMatchObject({ id: 8, name: '[redacted]' });
        const req = onlyRequest();
        expect([req.method, req.url, req.headers['api_key']]).toEqual(['GET', '/v3/pet/8', API_KEY]);
      } finally {
        await client.close();
      }
    });
  });

  describe('github (hybrid mode, 1,223 operations)', () => {
    let server: RunningTarget;
    beforeAll(async () => {
      server = await startTarget(target, github.dir, { API_BASE_URL: upstream.url });
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
    });

    it('2026-07-28: lists the core and meta-tools, searches, and calls a core tool and an operation by name', async () => {
      const client: Client = await connectModernHttp(`${server.url}/mcp`);
      try {
        const { tools } = await client.listTools();
        const names = tools.map((t) => t.name);
        expect(names).toEqual(expect.arrayContaining(['repos_get', 'search_operations', 'call_operation']));
        const search = (await client.callTool({
          name: 'search_operations',
          arguments: { query: 'star a repository' },
        })) as CallResult;
        expect(search.isError).toBeFalsy();
        expect(text(search)).toContain('activity_star-repo-for-authenticated-user');
        const result = (await client.callTool({
          name: 'repos_get',
          arguments: { owner: 'octo', repo: 'hello' },
        })) as CallResult;
        expect(result.isError).toBeFalsy();
        expect(result.structuredContent).toEqual({ id: 1, full_name: 'octo/hello' });
        const byName = (await client.callTool({
          name: 'call_operation',
          arguments: { name: 'activity_star-repo-for-authenticated-user', arguments: { owner: 'octo', repo: 'hello' } },
        })) as CallResult;
        expect(byName.isError).toBeFalsy();
        expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
          'GET /repos/octo/hello',
          'PUT /user/starred/octo/hello',
        ]);
      } finally {
        await client.close();
      }
    });

    it('2025-11-25: lists and calls', async () => {
      const client = await connectLegacyHttp(`${server.url}/mcp`);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain('repos_get');
        const result = (await client.callTool({
          name: 'repos_get',
          arguments: { owner: 'o2', repo: 'r2' },
        })) as CallResult;
        expect(result.isError).toBeFalsy();
        expect(`${onlyRequest().method} ${onlyRequest().url}`).toBe('GET /repos/o2/r2');
      } finally {
        await client.close();
      }
    });
  });

  describe('petstore in code mode', () => {
    let server: RunningTarget;
    beforeAll(async () => {
      // Destructive calls allowed, so that a program's DELETE is asked about (code-confirm.ts).
      server = await startTarget(
        target,
        petstoreCode.dir,
        { API_BASE_URL: `${upstream.url}/v3`, MCP_CODE_ALLOW: 'destructive' },
        { API_KEY, PETSTORE_AUTH_TOKEN: 'oauth-token' },
      );
    }, 90_000);
    afterAll(async () => {
      await server?.stop();
    });

    // Typed (sucrase strips the types on every target), two dependent calls, and shaping in the sandbox.
    const PROGRAM = [
      'interface Pet { id: number; name: string }',
      'const first: Pet = await api.getPetById({ petId: 3 });',
      'const second: Pet = await api.getPetById({ petId: first.id + 1 });',
      'return { ids: [first.id, second.id], names: [first.name, second.name] };',
    ].join('\n');

    const ESCAPES = [
      "return typeof fetch + ',' + typeof globalThis.process + ',' + typeof require + ',' + typeof setTimeout;",
      "return await import('node:fs').then(() => 'imported', (e) => 'refused: ' + e.message);",
      "return Object.getPrototypeOf(api.getPetById).constructor('return typeof process')();",
    ];

    async function runsProgramAndStaysInside(client: {
      callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
    }): Promise<void> {
      const result = (await client.callTool({ name: 'execute', arguments: { code: PROGRAM } })) as CallResult;
      expect(result.isError).toBeFalsy();
      // The API key the mock returns as the pet's name comes back redacted, as from a direct tool call.
      expect(JSON.parse(text(result))).toEqual({ ids: [3, 4], names: ['[redacted]', '[redacted]'] });
      expect(upstream.requests.map((r) => [r.method, r.url, r.headers['api_key']])).toEqual([
        ['GET', '/v3/pet/3', API_KEY],
        ['GET', '/v3/pet/4', API_KEY],
      ]);
      const escapes = [];
      for (const code of ESCAPES)
        escapes.push(text((await client.callTool({ name: 'execute', arguments: { code } })) as CallResult));
      expect(escapes[0]).toBe('"undefined,undefined,undefined,undefined"');
      expect(escapes[1]).toMatch(/^"refused: /);
      expect(escapes[2]).toBe('"undefined"');
      expect(upstream.requests).toHaveLength(2);
    }

    it('2026-07-28: lists search and execute, finds a declaration, runs a program', async () => {
      const client: Client = await connectModernHttp(`${server.url}/mcp`);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['search', 'execute']);
        const search = (await client.callTool({
          name: 'search',
          arguments: { query: 'find pet by id' },
        })) as CallResult;
        expect(text(search)).toContain('getPetById(args: {');
        await runsProgramAndStaysInside(client);
      } finally {
        await client.close();
      }
    });

    it('2025-11-25: runs a program', async () => {
      const client = await connectLegacyHttp(`${server.url}/mcp`);
      try {
        await runsProgramAndStaysInside(client);
      } finally {
        await client.close();
      }
    });

    it('contains a memory bomb and stops a busy loop; with threads, tools/list is answered within 100 ms meanwhile', async () => {
      const client: Client = await connectModernHttp(`${server.url}/mcp`);
      const run = (code: string) =>
        client.callTool({ name: 'execute', arguments: { code } }, { timeout: 30_000 }) as Promise<CallResult>;
      try {
        expect(text(await run('return 1;'))).toBe('1');
        const bomb = await run(
          'const a = [];\nfor (let i = 0; i < 1900; i++) a.push(new Uint8Array(1 << 20));\nreturn a.length;',
        );
        expect(text(bomb)).toContain('ran out of memory');
        await client.listTools(undefined, { cacheMode: 'bypass' });
        const started = performance.now();
        const loop = run('while (true) {}');
        // On workerd the program runs on the request's thread: only the stop is checked there.
        const longest = target === 'workerd' ? 0 : await longestListing(client, loop);
        expect(text(await loop)).toContain('computed for more than 2000 ms');
        expect(performance.now() - started).toBeLessThan(3_000);
        // Deno creates a worker on the calling thread (about 50–80 ms for an empty one, measured with both its
        // Worker and node:worker_threads): the replacement of the terminated worker holds requests that long.
        expect(longest).toBeLessThan(target === 'deno' ? 300 : 100);
        expect(text(await run('return 2;'))).toBe('2');
      } finally {
        await client.close();
      }
    }, 60_000);

    it("2026-07-28: asks before a program's DELETE (input_required, signed state) and sends it once", async () => {
      const accepting = user({ action: 'accept', content: { confirm: true } });
      const client = elicitingModernClient(accepting.answer);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
      try {
        const code =
          'const pet = await api.getPetById({ petId: 6 });\nawait api.deletePet({ petId: pet.id });\nreturn 1;';
        const result = (await client.callTool({ name: 'execute', arguments: { code } })) as CallResult;
        expect(text(result)).toBe('1');
        expect(accepting.asked.map((q) => q.message)).toEqual([expect.stringContaining('with {"petId":6}?')]);
        // The read before the question is made again by the re-run; the DELETE once.
        expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
          'GET /v3/pet/6',
          'GET /v3/pet/6',
          'DELETE /v3/pet/6',
        ]);
      } finally {
        await client.close();
      }
    });
  });

  // Workers has no signals: the platform lets requests in flight finish when it retires an isolate.
  describe.skipIf(target === 'workerd')('graceful drain', () => {
    it('on SIGTERM the call in flight finishes, then the process exits 0', async () => {
      const server = await startTarget(target, petstore.dir, { API_BASE_URL: `${upstream.url}/v3` }, { API_KEY });
      const client: Client = await connectModernHttp(`${server.url}/mcp`);
      upstream.respond(() => ({
        status: 200,
        delayMs: 800,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ id: 9, name: 'slow', photoUrls: [], status: 'available' }),
      }));
      const call = client.callTool({ name: 'getPetById', arguments: { petId: 9 } }) as Promise<CallResult>;
      while (upstream.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      const exit = server.stop(10_000);
      const result = await call;
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ id: 9, name: 'slow' });
      expect(await exit).toBe(0);
      await client.close();
    }, 60_000);
  });
});
