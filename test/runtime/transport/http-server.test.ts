/**
 * The HTTP transport in-process: CORS off and on, the request log, 413, and graceful shutdown (driven by
 * calling `shutdown()`; the signal wiring is exercised end to end in test/e2e/faults.test.ts).
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/server';
import { readConfig, type RuntimeConfig } from '../../../templates/runtime/server/config.js';
import { createCors } from '../../../templates/runtime/transport/cors.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { startHttp, type HttpServerHandle } from '../../../templates/runtime/transport/http-server.js';

const PROTOCOL = '2026-07-28';

/** A one-tool server: `wait` answers after `ms` milliseconds (or when cancelled). */
function factory(): Server {
  const server = new Server({ name: 't', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'wait', description: 'waits', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const ms = Number((request.params.arguments ?? {})['ms'] ?? 0);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      ctx.mcpReq.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    return { content: [{ type: 'text' as const, text: `waited ${ms}` }] };
  });
  return server;
}

interface LogLine {
  level: string;
  msg: string;
  fields: Record<string, unknown>;
}

function memoryLogger(lines: LogLine[]): Logger {
  const at =
    (level: string) =>
    (msg: string, fields: Record<string, unknown> = {}) =>
      void lines.push({ level, msg, fields });
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

let handle: HttpServerHandle | undefined;
let lines: LogLine[] = [];

afterEach(async () => {
  await handle?.close();
  handle = undefined;
  lines = [];
});

async function start(env: Record<string, string> = {}): Promise<string> {
  const config: RuntimeConfig = readConfig({ PORT: '1', ...env });
  config.http.port = 0;
  handle = await startHttp(factory, config, memoryLogger(lines), { handleSignals: false });
  return `http://127.0.0.1:${handle.port}`;
}

function callBody(ms: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'wait',
      arguments: { ms },
      _meta: { 'io.modelcontextprotocol/protocolVersion': PROTOCOL, 'io.modelcontextprotocol/clientCapabilities': {} },
    },
  });
}

function callTool(base: string, ms: number, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': 'wait',
      ...headers,
    },
    body: callBody(ms),
  });
}

function preflight(
  base: string,
  origin: string,
  requestHeaders = 'content-type, mcp-protocol-version',
): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': requestHeaders },
  });
}

describe('CORS', () => {
  it('off by default: OPTIONS is the SDK 405 and a foreign Origin is refused', async () => {
    const base = await start();
    const options = await preflight(base, 'http://localhost:5173');
    expect(options.status).toBe(405);
    expect(options.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(base, 'https://app.example.com')).status).toBe(403);
    expect((await callTool(base, 0, { origin: 'https://app.example.com' })).status).toBe(403);
    const local = await callTool(base, 0, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(local.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight from a listed origin', async () => {
    const base = await start({ MCP_CORS_ORIGINS: 'https://app.example.com, other.example.org' });
    const res = await preflight(
      base,
      'https://app.example.com',
      'content-type, authorization, mcp-param-region, x-evil',
    );
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    const allowed = (res.headers.get('access-control-allow-headers') ?? '').split(', ');
    for (const name of [
      'content-type',
      'authorization',
      'mcp-protocol-version',
      'mcp-method',
      'mcp-name',
      'last-event-id',
      'mcp-param-region',
    ]) {
      expect(allowed).toContain(name);
    }
    expect(allowed).not.toContain('x-evil');
    expect(res.headers.get('access-control-expose-headers')).toBe('mcp-session-id, mcp-protocol-version');
    expect(res.headers.get('vary')).toContain('Origin');
    // A bare host name matches any scheme and port.
    expect((await preflight(base, 'http://other.example.org:8080')).status).toBe(204);
  });

  it('refuses a preflight and a call from an origin not listed', async () => {
    const base = await start({ MCP_CORS_ORIGINS: 'https://app.example.com' });
    const res = await preflight(base, 'https://evil.example');
    expect(res.status).toBe(403);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(base, 'http://app.example.com')).status).toBe(403); // scheme differs
    expect((await callTool(base, 0, { origin: 'https://evil.example' })).status).toBe(403);
  });

  it('decorates the actual call from a listed origin, which passes the Origin guard', async () => {
    const base = await start({ MCP_CORS_ORIGINS: 'https://app.example.com' });
    const res = await callTool(base, 0, { origin: 'https://app.example.com' });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(res.headers.get('access-control-expose-headers')).toBe('mcp-session-id, mcp-protocol-version');
    expect(await res.text()).toContain('waited 0');
  });

  it('`*` allows any origin with the literal wildcard', async () => {
    const base = await start({ MCP_CORS_ORIGINS: '*' });
    const res = await preflight(base, 'https://anywhere.example');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(
      (await callTool(base, 0, { origin: 'https://anywhere.example' })).headers.get('access-control-allow-origin'),
    ).toBe('*');
  });

  it('still checks the Host header on a preflight', async () => {
    const base = await start({ MCP_CORS_ORIGINS: '*' });
    const status = await rawStatus(
      base,
      'OPTIONS /mcp HTTP/1.1\r\nHost: evil.example\r\nOrigin: https://a.example\r\nAccess-Control-Request-Method: POST\r\nConnection: close\r\n\r\n',
    );
    expect(status).toBe(403);
  });

  it('createCors ignores unparseable entries and the null origin', () => {
    const cors = createCors(['not a url://x', 'https://ok.example'])!;
    expect(cors.allows('https://ok.example')).toBe(true);
    expect(cors.allows('null')).toBe(false);
    expect(cors.allows('garbage')).toBe(false);
    expect(createCors([])).toBeUndefined();
  });
});

describe('request log', () => {
  it('one line per request: method, path, status, ms, and nothing from headers, query or body', async () => {
    const base = await start();
    await callTool(base, 0, { authorization: 'Bearer s3cr3t-token' });
    await fetch(`${base}/health?token=s3cr3t-query`);
    await fetch(`${base}/nope`);
    const requests = lines.filter((line) => line.msg === 'http request');
    expect(requests.map((line) => [line.fields['method'], line.fields['path'], line.fields['status']])).toEqual([
      ['POST', '/mcp', 200],
      ['GET', '/health', 200],
      ['GET', '/nope', 404],
    ]);
    for (const line of requests) expect(typeof line.fields['ms']).toBe('number');
    const all = JSON.stringify(lines);
    expect(all).not.toContain('s3cr3t');
    expect(all).not.toContain('wait'); // the tool name and arguments are body content
  });

  it('a long path is cut without leaving part of a word at the edge (no piece of a token in it is logged)', async () => {
    const base = await start();
    const token = 'tok-Zq8LmW3xT7rYc2Vb';
    for (let at = 1; at < token.length; at++) {
      // The 200-character cut falls `at` characters into the token.
      await fetch(`${base}/${'a'.repeat(199 - at)}/${token}/rest`);
    }
    const paths = lines.filter((line) => line.msg === 'http request').map((line) => String(line.fields['path']));
    expect(paths).toHaveLength(token.length - 1);
    for (let i = 0; i + 4 <= token.length; i++)
      for (const path of paths) expect(path).not.toContain(token.slice(i, i + 4));
  });

  it('marks a request the client abandoned', async () => {
    const base = await start();
    const controller = new AbortController();
    const aborted = fetch(`${base}/mcp`, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        'mcp-protocol-version': PROTOCOL,
        'mcp-method': 'tools/call',
        'mcp-name': 'wait',
      },
      body: callBody(5_000),
    }).catch(() => undefined);
    await delay(200);
    controller.abort();
    await aborted;
    await waitFor(() => lines.some((line) => line.fields['aborted'] === true));
    expect(lines.find((line) => line.fields['aborted'] === true)?.fields).toMatchObject({
      method: 'POST',
      path: '/mcp',
    });
  });
});

describe('limits', () => {
  it('a body over 4 MiB is refused with 413', async () => {
    const base = await start();
    const status = await rawStatus(
      base,
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${5 * 1024 * 1024}\r\n\r\n{"jsonrpc":`,
    );
    expect(status).toBe(413);
  });
});

describe('graceful shutdown', () => {
  it('finishes the call in flight, refuses new work with 503 or a closed port, then closes', async () => {
    const base = await start();
    // Connected before the drain, so the server still reads a request from it afterwards.
    const early = await connect(base);
    const slow = callTool(base, 600);
    await delay(150);
    const started = Date.now();
    const shutdown = handle!.shutdown();

    const lateOnOpenConnection = await rawStatusOn(
      early,
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 2\r\n\r\n{}',
    );
    expect(lateOnOpenConnection).toBe(503);
    await expect(fetch(`${base}/health`)).rejects.toMatchObject({ cause: { code: 'ECONNREFUSED' } });

    const res = await slow;
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('waited 600');
    expect(await shutdown).toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
    handle = undefined;
  });

  it('gives up waiting after MCP_SHUTDOWN_TIMEOUT_MS', async () => {
    const base = await start({ MCP_SHUTDOWN_TIMEOUT_MS: '200' });
    const slow = callTool(base, 10_000).then(
      (res) => res.status,
      () => 'failed',
    );
    await delay(100);
    const started = Date.now();
    expect(await handle!.shutdown()).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_500);
    await slow; // torn down one way or another, never left hanging
    expect(lines.some((line) => line.msg.startsWith('shutdown timeout'))).toBe(true);
    handle = undefined;
  });
});

// ---------------------------------------------------------------------------------------------------

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(condition: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await delay(20);
  }
}

function connect(base: string): Promise<net.Socket> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Writes a raw request and returns the status code of the first response line (0 if none came). */
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
