/**
 * Fault injection end to end: a generated server (fixtures/specs/features/requests.yaml) over stdio with
 * the SDK v2 client, against a scripted upstream on 127.0.0.1 that times out, resets, rate-limits,
 * fails, redirects, compresses and floods; then over HTTP: CORS, 413, the request log and a graceful
 * SIGTERM. Afterwards the same stdio server must still list tools and answer a normal call.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { connectModernStdio } from '../helpers/mcp-clients.js';
import { freePort, startHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/requests.yaml`;
/** The stdio server's whole-call budget: short, so the timeout case is quick, long enough for retries. */
const TIMEOUT_MS = 2_000;
const HUGE_BYTES = 5 * 1024 * 1024;
const PET = { id: 7, name: 'Rex' };
const PET_JSON = JSON.stringify(PET);
/** An error page far longer than the 2,000-character excerpt. */
const BOOM_BODY = `stack trace:\n${'  at frame\n'.repeat(600)}`;

// ---------------------------------------------------------------------------------------------------
// The scripted upstream: GET/DELETE /v1/items/<scenario>, POST /v1/items
// ---------------------------------------------------------------------------------------------------

interface Seen {
  method: string;
  url: string;
  /** When the request's socket closed (undefined while open). */
  socketClosedAt?: number;
}

const seen: Seen[] = [];
/** Timers of answers the test may abandon; cleared at the end so nothing outlives the suite. */
const pendingTimers = new Set<NodeJS.Timeout>();

function later(ms: number, action: () => void): void {
  const timer = setTimeout(() => {
    pendingTimers.delete(timer);
    action();
  }, ms);
  pendingTimers.add(timer);
}

function json(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
}

function countOf(url: string): number {
  return seen.filter((request) => request.url === url).length;
}

function answer(req: http.IncomingMessage, res: http.ServerResponse, upstreamBase: string): void {
  const url = req.url ?? '/';
  if (req.method === 'POST' && url === '/v1/items') return json(res, 503, '{"error":"busy"}', { 'retry-after': '0' });
  const scenario = decodeURIComponent(url.replace(/^\/v1\/items\//, '').split('?')[0] ?? '');
  switch (scenario) {
    case 'ok':
    case 'target':
      return json(res, 200, PET_JSON);
    case 'slow': // answers long after the stdio server's timeout
      return later(10_000, () => void (res.destroyed || json(res, 200, PET_JSON)));
    case 'slow-ok': // answers within the HTTP server's default timeout
      return later(1_500, () => void (res.destroyed || json(res, 200, PET_JSON)));
    case 'hang': // never answers: only a cancel ends it
      return;
    case 'reset':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"partial":');
      return later(30, () => res.socket?.destroy());
    case 'rate-limited':
      return countOf(url) === 1
        ? json(res, 429, '{"error":"slow down"}', { 'retry-after': '0' })
        : json(res, 200, PET_JSON);
    case 'unavailable':
      return void res.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded, try later');
    case 'boom':
      return void res
        .writeHead(500, { 'content-type': 'text/plain', 'content-length': String(BOOM_BODY.length) })
        .end(BOOM_BODY);
    case 'invalid-json':
      return json(res, 200, '{"id": 7, "name": ');
    case 'wrong-type':
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>Maintenance</p>');
    case 'empty':
      return void res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end();
    case 'gone':
      return void res.writeHead(204).end();
    case 'redirect-same':
      return void res.writeHead(302, { location: '/v1/items/target' }).end();
    case 'redirect-cross':
      return void res.writeHead(302, { location: 'http://evil.example/steal' }).end();
    case 'redirect-other-port':
      return void res.writeHead(307, { location: `${upstreamBase.replace(/:\d+$/, ':1')}/v1/items/target` }).end();
    case 'gzip':
    case 'br': {
      const body = scenario === 'gzip' ? gzipSync(PET_JSON) : brotliCompressSync(PET_JSON);
      res.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': scenario,
        'content-length': String(body.byteLength),
      });
      return void res.end(body);
    }
    case 'huge': {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(HUGE_BYTES) });
      return void res.end(Buffer.alloc(HUGE_BYTES, 0x61));
    }
    default:
      return json(res, 404, '{"error":"no such scenario"}');
  }
}

/** The requests each keep-alive socket carried; one close listener per socket, not per request. */
const requestsBySocket = new WeakMap<net.Socket, Seen[]>();

function watchSocket(socket: net.Socket, record: Seen): void {
  const carried = requestsBySocket.get(socket);
  if (carried) return void carried.push(record);
  requestsBySocket.set(socket, [record]);
  socket.once('close', () => {
    for (const request of requestsBySocket.get(socket) ?? []) request.socketClosedAt = Date.now();
  });
}

let upstream: http.Server;
let upstreamBase: string;
let project: BuiltProject;

beforeAll(async () => {
  upstream = http.createServer((req, res) => {
    const record: Seen = { method: req.method ?? '', url: req.url ?? '' };
    seen.push(record);
    watchSocket(req.socket, record);
    req.resume();
    answer(req, res, upstreamBase);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamBase = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  project = await generateAndBuild(SPEC);
});

afterAll(async () => {
  for (const timer of pendingTimers) clearTimeout(timer);
  upstream?.closeAllConnections();
  await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
  project?.cleanup();
});

beforeEach(() => {
  seen.length = 0;
});

// ---------------------------------------------------------------------------------------------------

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

function textOf(result: CallResult): string {
  return result.content.map((c) => c.text ?? '').join('');
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

const getItem = (client: Client, itemId: string) => call(client, 'getItem', { itemId });

describe('over stdio, 2026-07-28 client', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectModernStdio(project.entry, {
      API_BASE_URL: `${upstreamBase}/v1`,
      API_TIMEOUT_MS: String(TIMEOUT_MS),
    });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('timeout: an isError naming the limit, on time', async () => {
    const started = Date.now();
    const result = await getItem(client, 'slow');
    expect(result).toMatchObject({ isError: true });
    expect(textOf(result)).toBe(`Request to GET /items/{itemId} timed out after ${TIMEOUT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 1_500);
  });

  it('connection reset mid-response', async () => {
    const result = await getItem(client, 'reset');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Connection to http:\/\/127\.0\.0\.1:\d+ failed while reading the response to GET \/items\/\{itemId\}: /,
    );
  });

  it('429 with Retry-After: 0, then 200: retried and successful', async () => {
    const result = await getItem(client, 'rate-limited');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(PET);
    expect(seen.map((r) => r.url)).toEqual(['/v1/items/rate-limited', '/v1/items/rate-limited']);
  });

  it('503 every time: bounded retries, then isError with status and retries', async () => {
    const result = await getItem(client, 'unavailable');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'HTTP 503 Service Unavailable from GET /items/{itemId} (gave up after 2 retries)\n\noverloaded, try later',
    );
    expect(seen).toHaveLength(3);
  });

  it('POST 503 is not retried', async () => {
    const result = await call(client, 'createItem', { body: { name: 'n' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      'HTTP 503 Service Unavailable from POST /items (not retried: POST is not idempotent)',
    );
    expect(seen.map((r) => r.method)).toEqual(['POST']);
  });

  it('5xx: status plus an excerpt of the body, with a note of what was cut', async () => {
    const result = await getItem(client, 'boom');
    expect(result.isError).toBe(true);
    const text = textOf(result);
    const heading = 'HTTP 500 Internal Server Error from GET /items/{itemId}\n\n';
    // The first 2,000 characters, back to the end of the last whole word (cut.ts).
    const excerpt = BOOM_BODY.slice(0, 2_000).replace(/\S+$/, '');
    expect(text).toBe(`${heading}${excerpt}\n…[truncated: ${BOOM_BODY.length - excerpt.length} more bytes not shown]`);
  });

  it('invalid JSON with a JSON content type: the text as received, not an error', async () => {
    const result = await getItem(client, 'invalid-json');
    expect(result.content).toEqual([{ type: 'text', text: '{"id": 7, "name": ' }]);
    expect(result.isError).toBeFalsy();
  });

  it('a content type other than the one documented: the body as text', async () => {
    const result = await getItem(client, 'wrong-type');
    expect(result.content).toEqual([{ type: 'text', text: '<p>Maintenance</p>' }]);
    expect(result.isError).toBeFalsy();
  });

  it('an empty 200 body and a 204', async () => {
    expect((await getItem(client, 'empty')).content).toEqual([{ type: 'text', text: 'HTTP 200 OK (empty body)' }]);
    expect((await call(client, 'deleteItem', { itemId: 'gone', confirm: true })).content).toEqual([
      { type: 'text', text: 'HTTP 204 No Content (empty body)' },
    ]);
  });

  it('a same-origin redirect is followed', async () => {
    const result = await getItem(client, 'redirect-same');
    expect(result.structuredContent).toEqual(PET);
    expect(seen.map((r) => r.url)).toEqual(['/v1/items/redirect-same', '/v1/items/target']);
  });

  it('a cross-origin redirect is refused, naming the other origin', async () => {
    const result = await getItem(client, 'redirect-cross');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Refused to follow a redirect from ${upstreamBase} to a different origin: http://evil.example`,
    );
    const otherPort = await getItem(client, 'redirect-other-port');
    expect(textOf(otherPort)).toBe(
      `Refused to follow a redirect from ${upstreamBase} to a different origin: http://127.0.0.1:1`,
    );
  });

  it.each(['gzip', 'br'])('a %s-encoded JSON body is decoded', async (encoding) => {
    const result = await getItem(client, encoding);
    expect(result.content).toEqual([{ type: 'text', text: PET_JSON }]);
    expect(result.structuredContent).toEqual(PET);
  });

  it('a 5 MB body is truncated at API_MAX_RESPONSE_BYTES with a note of what is left', async () => {
    const result = await getItem(client, 'huge');
    const text = textOf(result);
    // One word of 5 MB: the cut drops the most it drops of a word it splits, 512 characters (cut.ts).
    const shown = 100_000 - 512;
    expect(text).toBe(`${'a'.repeat(shown)}\n…[truncated: ${HUGE_BYTES - shown} more bytes not shown]`);
    expect(result.isError).toBeFalsy();
  });

  it('a client cancel aborts the upstream request: its socket closes', async () => {
    const controller = new AbortController();
    const pending = client.callTool({ name: 'getItem', arguments: { itemId: 'hang' } }, { signal: controller.signal });
    await waitFor(() => seen.some((r) => r.url === '/v1/items/hang'));
    const cancelledAt = Date.now();
    controller.abort(new Error('user pressed stop'));
    await expect(pending).rejects.toThrow();
    await waitFor(() => seen[0]?.socketClosedAt !== undefined);
    expect(seen[0]!.socketClosedAt! - cancelledAt).toBeLessThan(1_000);
  });

  it('after all of that, the same server still lists tools and answers a normal call', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('getItem');
    const result = await getItem(client, 'ok');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual(PET);
  });
});

describe('over stdio, unreachable upstreams', () => {
  it('connection refused', async () => {
    const closedPort = await freePort();
    const client = await connectModernStdio(project.entry, { API_BASE_URL: `http://127.0.0.1:${closedPort}/v1` });
    try {
      const result = await getItem(client, 'ok');
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(`Could not reach http://127.0.0.1:${closedPort}: ECONNREFUSED`);
    } finally {
      await client.close();
    }
  });

  it('DNS failure', async () => {
    const client = await connectModernStdio(project.entry, {
      API_BASE_URL: 'http://nonexistent.invalid/v1',
      API_TIMEOUT_MS: '5000',
    });
    try {
      const result = await getItem(client, 'ok');
      expect(result.isError).toBe(true);
      // ENOTFOUND with a resolver; EAI_AGAIN when the sandbox has none to ask.
      expect(textOf(result)).toMatch(/^Could not reach http:\/\/nonexistent\.invalid: (ENOTFOUND|EAI_AGAIN)$/);
    } finally {
      await client.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// Over HTTP
// ---------------------------------------------------------------------------------------------------

const APP_ORIGIN = 'https://app.example.com';
const PROTOCOL = '2026-07-28';

function toolsCall(base: string, itemId: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': 'getItem',
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'getItem',
        arguments: { itemId },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': PROTOCOL,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

describe('over HTTP', () => {
  let server: HttpServerProcess;
  let stderr = '';
  let base: string;
  beforeAll(async () => {
    server = await startHttpServer(project.entry, { API_BASE_URL: `${upstreamBase}/v1`, MCP_CORS_ORIGINS: APP_ORIGIN });
    server.child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    base = server.url.replace(/\/mcp$/, '');
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a CORS preflight from the configured origin, and decorates the call', async () => {
    const preflight = await fetch(`${base}/mcp`, {
      method: 'OPTIONS',
      headers: {
        origin: APP_ORIGIN,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, authorization, mcp-protocol-version, mcp-method, mcp-name',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-protocol-version');
    const res = await toolsCall(base, 'ok', { origin: APP_ORIGIN });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe(APP_ORIGIN);
    expect(res.headers.get('access-control-expose-headers')).toContain('mcp-protocol-version');
    expect(await res.text()).toContain('Rex');
  });

  it('refuses a body over the size limit with 413', async () => {
    const status = await rawStatus(
      base,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n{"jsonrpc":"2.0",`,
    );
    expect(status).toBe(413);
  });

  it('logs one line per request on stderr, without headers or credentials', async () => {
    await toolsCall(base, 'ok', { authorization: 'Bearer very-secret-token' });
    await waitFor(() => /"msg":"http request","method":"POST","path":"\/mcp","status":200,"ms":[\d.]+/.test(stderr));
    expect(stderr).not.toContain('very-secret-token');
    expect(stderr).not.toContain('"itemId"');
  });

  it('SIGTERM: the call in flight completes, new requests are refused, the process exits 0', async () => {
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (code) => resolve(code)));
    const early = await connect(base); // opened before the drain: the server still reads from it
    const slow = toolsCall(base, 'slow-ok');
    await waitFor(() => seen.some((r) => r.url === '/v1/items/slow-ok'));
    server.child.kill('SIGTERM');
    await waitFor(() => stderr.includes('draining'));

    expect(await rawStatusOn(early, 'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}')).toBe(503);
    await expect(toolsCall(base, 'ok')).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });

    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Rex');
    expect(await exited).toBe(0);
  });
});

// ---------------------------------------------------------------------------------------------------

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(20);
  }
}

function connect(base: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes a raw request and returns the status code of the response line (0 if none came). */
function rawStatusOn(socket: net.Socket, request: string): Promise<number> {
  return new Promise((resolve) => {
    let received = '';
    const finish = () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0));
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      if (received.includes('\r\n')) {
        socket.destroy();
        finish();
      }
    });
    socket.once('close', finish);
    socket.once('error', finish);
    socket.write(request);
  });
}

async function rawStatus(base: string, request: string): Promise<number> {
  return rawStatusOn(await connect(base), request);
}
