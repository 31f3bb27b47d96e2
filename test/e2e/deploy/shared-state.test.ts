/**
 * Three replicas (Node, --http) behind nginx sharing their state in Redis (MCP_STATE_URL;
 * templates/runtime/state/state-store.ts): a confirmation is taken once whichever replica gets it; a regeneration
 * seen by one replica reaches the listen stream a 2026-07-28 client holds on another; the replicas make one
 * token request between them; two AWS Lambda environments (the project's dist/lambda.js behind a function-URL
 * stand-in), and a Deno and a Bun server, share the same one-time rule. Then Redis is stopped: confirmations are refused with a clear error (nothing
 * is sent, no replay goes through), the replicas keep serving, and they recover when Redis is back.
 *
 * Each replica runs from its own copy of the project, as each container has its own: only the first copy
 * is regenerated, so the others hear of it through Redis alone.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNginx, type LoadBalancer } from '../../../bench/nginx.mjs';
import { rawToolCall, type RawAnswer } from '../../helpers/elicitation.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernHttp } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';
import { startHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';
import { startTarget } from '../../helpers/targets.js';

const SPECS = join(REPO_ROOT, 'fixtures', 'specs', 'shared-state');
const V1 = join(SPECS, 'v1.yaml');
/** v1 and getExtra. */
const V2 = join(SPECS, 'v2.yaml');
const CLI = join(REPO_ROOT, 'dist', 'src', 'cli.js');
/** A bound on waiting for an event that comes in milliseconds, on a busy machine; never an assertion on time. */
const EVENT_TIMEOUT_MS = 20_000;
const YES = { confirm: { action: 'accept', content: { confirm: true } } };

let redis: RedisServer;
let upstream: MockUpstream;
let tokenServer: OAuthServer;
let project: BuiltProject;
let replicas: HttpServerProcess[];
let balancer: LoadBalancer;
let logs: string[];
let dirs: string[];
let env: Record<string, string>;

beforeAll(async () => {
  [redis, upstream, tokenServer] = await Promise.all([startRedis(), startMockUpstream(), startOAuthServer()]);
  upstream.respond(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }));
  // Slow enough that replicas asking at the same moment overlap: without the lock each would fetch its own.
  tokenServer.onToken((_req, n) => ({
    body: { access_token: `at-${n}`, token_type: 'Bearer', expires_in: 3600 },
    delayMs: 300,
  }));
  project = await generateAndBuild(V1);
  dirs = [project.dir, `${project.dir}-2`, `${project.dir}-3`];
  for (const dir of dirs.slice(1)) cpSync(project.dir, dir, { recursive: true, verbatimSymlinks: true });
  env = {
    API_BASE_URL: `${upstream.url}/v1`,
    MCP_STATE_URL: redis.url,
    MCP_SIGNING_KEY: 'a signing key of 32 bytes or more, the same on every replica',
    MCP_WATCH_CATALOG: 'on',
    MACHINE_AUTH_CLIENT_ID: 'machine-client',
    MACHINE_AUTH_CLIENT_SECRET: 'machine-secret',
    MACHINE_AUTH_TOKEN_URL: `${tokenServer.url}/token`,
  };
  replicas = await Promise.all(dirs.map((dir) => startHttpServer(join(dir, 'dist', 'index.js'), env)));
  logs = replicas.map(() => '');
  replicas.forEach((r, i) => r.child.stderr!.on('data', (chunk: Buffer) => (logs[i] += chunk.toString())));
  balancer = await startNginx(replicas.map((r) => r.port));
}, 180_000);

afterAll(async () => {
  await balancer?.stop();
  await Promise.all((replicas ?? []).map((r) => r.stop()));
  await Promise.all([redis?.stop(), upstream?.close(), tokenServer?.close()]);
  project?.cleanup();
});

const deletes = () => upstream.requests.filter((r) => r.method === 'DELETE').map((r) => r.url);
const text = (answer: RawAnswer) =>
  ((answer.result?.['content'] ?? []) as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
const endpoints = () => [...replicas.map((r) => r.url), `${balancer.url}/mcp`];

/** The first round of a confirmation: the question, and the signed state to answer it with. */
async function askToDelete(url: string, itemId: string): Promise<string> {
  const first = await rawToolCall(url, 'deleteItem', { itemId });
  expect(first.result).toMatchObject({ resultType: 'input_required' });
  return first.result.requestState as string;
}

const answerYes = (url: string, itemId: string, state: string) =>
  rawToolCall(url, 'deleteItem', { itemId }, { inputResponses: YES, requestState: state });

async function until<T>(attempt: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves on the client's next tools/list_changed. */
function listChangedWatcher() {
  let count = 0;
  return {
    arrived: () => {
      count++;
    },
    get count() {
      return count;
    },
    next: (seen: number) =>
      until(async () => (count > seen ? true : undefined), 'tools/list_changed on the listen stream'),
  };
}

let acceptedState: string;

/**
 * A stand-in for a Lambda function URL: one execution environment (this process) invoking the project's
 * dist/lambda.js handler with each request as a payload-format-2.0 event; it says its URL as the Node server does.
 */
const FUNCTION_URL = `
import { createServer } from 'node:http';
const { handler } = await import(new URL('./dist/lambda.js', import.meta.url).href);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks);
    const result = await handler({
      version: '2.0',
      rawPath: req.url,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
      requestContext: { domainName: '127.0.0.1', http: { method: req.method } },
      body: body.toString('base64'),
      isBase64Encoded: true,
    });
    res.writeHead(result.statusCode, result.headers);
    res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
  });
});
server.listen(0, '127.0.0.1', () =>
  process.stderr.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port + '/mcp' }) + '\\n'),
);
`;

describe('three replicas sharing Redis', () => {
  it('takes a confirmation once: replayed through nginx and to every replica, it is refused; one DELETE', async () => {
    acceptedState = await askToDelete(`${balancer.url}/mcp`, '7');
    const done = await answerYes(replicas[1]!.url, '7', acceptedState);
    expect(done.result.isError).toBeUndefined();
    for (const url of endpoints()) {
      const replay = await answerYes(url, '7', acceptedState);
      expect(replay.result.isError).toBe(true);
      expect(text(replay)).toContain('was already used');
      expect(text(replay)).toContain('Nothing was sent to the API');
    }
    expect(deletes()).toEqual(['/v1/items/7']);

    // The same state sent to the three replicas at the same moment: exactly one sends.
    const state = await askToDelete(replicas[0]!.url, '8');
    const answers = await Promise.all(replicas.map((r) => answerYes(r.url, '8', state)));
    expect(answers.filter((a) => a.result.isError === undefined)).toHaveLength(1);
    expect(deletes()).toEqual(['/v1/items/7', '/v1/items/8']);
  }, 60_000);

  it('makes one token request for all replicas, however many ask at once', async () => {
    const calls = [...replicas, ...replicas].map((r) => rawToolCall(r.url, 'getMachine', {}));
    for (const answer of await Promise.all(calls)) expect(answer.result.isError).toBeUndefined();
    expect(tokenServer.requests).toHaveLength(1);
    const machine = upstream.requests.filter((r) => r.url === '/v1/machine');
    expect(machine).toHaveLength(6);
    for (const request of machine) expect(request.headers['authorization']).toBe('Bearer at-1');
  }, 60_000);

  it("tells a client listening on one replica of another replica's regeneration", async () => {
    const notifications = listChangedWatcher();
    const client: Client = await connectModernHttp(replicas[1]!.url, undefined, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: notifications.arrived } },
    });
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      // The listen stream is open once the client's first request is answered on it; give it a round trip.
      await client.listTools();
      execFileSync(process.execPath, [CLI, V2, '-o', project.dir], { stdio: 'pipe' });
      await notifications.next(0);
      const regenerated = await connectModernHttp(replicas[0]!.url);
      expect((await regenerated.listTools()).tools.map((t) => t.name)).toContain('getExtra');
      await regenerated.close();
    } finally {
      await client.close();
    }
  }, 60_000);

  it('AWS Lambda environments sharing the Redis take a confirmation once too', async () => {
    const functions = await Promise.all(
      dirs.slice(1).map((dir) => {
        writeFileSync(join(dir, 'function-url.mjs'), FUNCTION_URL);
        return startHttpServer(join(dir, 'function-url.mjs'), { ...env, MCP_ALLOWED_HOSTS: '127.0.0.1' });
      }),
    );
    try {
      const state = await askToDelete(functions[0]!.url, '11');
      const accepted = await answerYes(functions[1]!.url, '11', state);
      expect(accepted.result.isError, text(accepted)).toBeUndefined();
      for (const url of [...functions.map((f) => f.url), replicas[0]!.url]) {
        expect(text(await answerYes(url, '11', state))).toContain('was already used');
      }
      expect(deletes().filter((url) => url === '/v1/items/11')).toHaveLength(1);
    } finally {
      await Promise.all(functions.map((f) => f.stop()));
    }
  }, 60_000);

  it('Deno and Bun replicas share it too: a confirmation asked on one is taken once', async () => {
    const [deno, bun] = await Promise.all([startTarget('deno', dirs[1]!, env), startTarget('bun', dirs[2]!, env)]);
    try {
      const urls = [`${deno.url}/mcp`, `${bun.url}/mcp`];
      const state = await askToDelete(urls[0]!, '12');
      const accepted = await answerYes(urls[1]!, '12', state);
      expect(accepted.result.isError, text(accepted)).toBeUndefined();
      for (const url of [...urls, replicas[0]!.url]) {
        expect(text(await answerYes(url, '12', state))).toContain('was already used');
      }
      expect(deletes().filter((url) => url === '/v1/items/12')).toHaveLength(1);
    } finally {
      await Promise.all([deno.stop(), bun.stop()]);
    }
  }, 90_000);

  it('fails closed while Redis is down: clear refusals, nothing sent, no crash; recovers when it returns', async () => {
    const before = deletes().length;
    const pending = await askToDelete(replicas[0]!.url, '9');
    await redis.stop();

    for (const url of endpoints()) {
      for (const [state, itemId] of [
        [pending, '9'],
        [acceptedState, '7'],
      ] as const) {
        const refused = await answerYes(url, itemId, state);
        expect(refused.result.isError).toBe(true);
        expect(text(refused)).toMatch(/cannot be reached|was already used/);
        expect(text(refused)).toContain('Nothing was sent to the API');
      }
    }
    expect(text(await answerYes(replicas[2]!.url, '9', pending))).toContain(
      'shared state store (MCP_STATE_URL) cannot be reached',
    );
    // The rest keeps working: the token cached by each replica, reads, the health check.
    for (const r of replicas) {
      expect((await rawToolCall(r.url, 'getMachine', {})).result.isError).toBeUndefined();
      expect((await fetch(r.url.replace('/mcp', '/health'))).status).toBe(200);
      expect(r.child.exitCode).toBeNull();
    }
    expect(deletes()).toHaveLength(before);
    for (const log of logs) expect(log).toContain('shared state store (MCP_STATE_URL) unreachable');

    await redis.start();
    // Back, but empty (no persistence): states minted before it lost its records are refused, not replayed.
    const recovered = await until(async () => {
      const state = await askToDelete(replicas[2]!.url, '10');
      const answer = await answerYes(replicas[2]!.url, '10', state);
      return answer.result.isError === undefined ? answer : undefined;
    }, 'a confirmation to go through once Redis is back');
    expect(recovered.result.isError).toBeUndefined();
    for (const [state, itemId] of [
      [pending, '9'],
      [acceptedState, '7'],
    ] as const) {
      for (const url of endpoints()) {
        const refused = await answerYes(url, itemId, state);
        expect(refused.result.isError).toBe(true);
        expect(text(refused)).toMatch(/lost its records|was already used/);
      }
    }
    expect(deletes().slice(before)).toEqual(['/v1/items/10']);
    for (const log of logs) expect(log).toContain('shared state store (MCP_STATE_URL) reachable again');

    // The bus is back too: another regeneration reaches a client listening on another replica.
    const notifications = listChangedWatcher();
    const client: Client = await connectModernHttp(replicas[2]!.url, undefined, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: notifications.arrived } },
    });
    try {
      await client.listTools();
      execFileSync(process.execPath, [CLI, V1, '-o', project.dir], { stdio: 'pipe' });
      await notifications.next(0);
    } finally {
      await client.close();
    }
  }, 120_000);
});
