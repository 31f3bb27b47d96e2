import { getEventListeners } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRequest, type BuiltRequest } from '../../../templates/runtime/upstream/request.js';
import { callUpstream } from '../../../templates/runtime/upstream/upstream.js';

const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const PET_JSON = '{"id":7,"name":"Rex","tags":["good","boy"]}';
/** Compressible and larger than the caps used below, so truncation applies to the decoded bytes. */
const BIG_JSON = JSON.stringify({ items: Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: `pet-${i}` })) });
const ENCODERS: Record<string, (input: string) => Buffer> = {
  gzip: (input) => gzipSync(input),
  br: (input) => brotliCompressSync(input),
  deflate: (input) => deflateSync(input),
};

let server: http.Server;
let base: string;
let closedPortBase: string;

/** Routes of the fake upstream API. */
function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://localhost');
  switch (url.pathname) {
    case '/json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id":7,"name":"Rex"}');
      return;
    case '/array':
      res.writeHead(200, { 'content-type': 'application/json' }).end('[1,2,3]');
      return;
    case '/text':
      res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end('hello');
      return;
    case '/image':
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG_BYTES);
      return;
    case '/empty':
      res.writeHead(204).end();
      return;
    case '/missing':
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such pet"}');
      return;
    case '/boom':
      res.writeHead(500, { 'content-type': 'text/plain' }).end('database exploded');
      return;
    case '/big':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100000' }).end('x '.repeat(50_000));
      return;
    case '/slow':
      setTimeout(() => {
        if (!res.destroyed) res.writeHead(200, { 'content-type': 'text/plain' }).end('finally');
      }, 2_000).unref();
      return;
    case '/reset':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('partial');
      setTimeout(() => res.destroy(), 20).unref();
      return;
    case '/redirect':
      res.writeHead(302, { location: '/json' }).end();
      return;
    case '/redirect-chain':
      res.writeHead(307, { location: `${base}/redirect` }).end();
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop' }).end();
      return;
    case '/cross':
      res.writeHead(302, { location: 'http://evil.example:8080/steal' }).end();
      return;
    case '/see-other':
      req.resume();
      res.writeHead(303, { location: '/echo' }).end();
      return;
    case '/temporary':
      req.resume();
      res.writeHead(307, { location: '/echo' }).end();
      return;
    case '/echo': {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const echo = {
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(echo));
      });
      return;
    }
    case '/one-per-connection': {
      // Answers the first request on a connection and drops the connection at the second, as a server does
      // when it closes an idle keep-alive connection just as the client reuses it.
      const socket = req.socket as typeof req.socket & { served?: number };
      socket.served = (socket.served ?? 0) + 1;
      if (socket.served > 1) {
        socket.destroy();
        return;
      }
      res
        .writeHead(200, { 'content-type': 'application/json', connection: 'keep-alive' })
        .end(`{"method":"${req.method}"}`);
      return;
    }
    case '/needs-fresh-token':
      // Refuses every bearer token but the fresh one.
      if (req.headers.authorization === 'Bearer fresh')
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      else
        res
          .writeHead(401, { 'content-type': 'application/json', 'www-authenticate': 'Bearer error="invalid_token"' })
          .end('{"message":"Bad credentials"}');
      return;
    case '/encoded': {
      // ?encoding=gzip|br|deflate&body=pet|big: the body compressed, with the compressed Content-Length.
      const encoding = url.searchParams.get('encoding') ?? 'gzip';
      const compressed = ENCODERS[encoding]!(url.searchParams.get('body') === 'big' ? BIG_JSON : PET_JSON);
      res
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': encoding,
          'content-length': String(compressed.byteLength),
        })
        .end(compressed);
      return;
    }
    case '/mislabelled-gzip':
      // Says gzip, sends plain JSON (a misconfigured proxy).
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(PET_JSON);
      return;
    case '/invalid-json':
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"id": 7, "name": ');
      return;
    case '/html-labelled-json':
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('{"id":7}');
      return;
    case '/json-labelled-html':
      res.writeHead(200, { 'content-type': 'application/json' }).end('<html><body>Maintenance</body></html>');
      return;
    case '/empty-json':
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '0' }).end();
      return;
    case '/empty-chunked':
      res.writeHead(200, { 'content-type': 'application/json' }).end();
      return;
    default:
      res.writeHead(404).end();
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A port that was just free and is now closed: connecting to it is refused.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPortBase = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function get(path: string, headers: Record<string, string> = {}): BuiltRequest {
  return { method: 'GET', url: `${base}${path}`, headers: { accept: 'application/json, */*', ...headers } };
}

const OPTS = { timeoutMs: 2_000, maxBytes: 10_000, label: 'GET /thing' };

describe('callUpstream against a local server', () => {
  it('200 JSON object → text + structuredContent', async () => {
    expect(await callUpstream(get('/json'), OPTS)).toEqual({
      content: [{ type: 'text', text: '{"id":7,"name":"Rex"}' }],
      structuredContent: { id: 7, name: 'Rex' },
    });
  });

  it('200 JSON array → text only', async () => {
    expect(await callUpstream(get('/array'), OPTS)).toEqual({ content: [{ type: 'text', text: '[1,2,3]' }] });
  });

  it('200 text', async () => {
    expect(await callUpstream(get('/text'), OPTS)).toEqual({ content: [{ type: 'text', text: 'hello' }] });
  });

  it('200 image', async () => {
    expect(await callUpstream(get('/image'), OPTS)).toEqual({
      content: [{ type: 'image', data: PNG_BYTES.toString('base64'), mimeType: 'image/png' }],
    });
  });

  it('204', async () => {
    expect(await callUpstream(get('/empty'), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 204 No Content (empty body)' }],
    });
  });

  it('404 → isError with status and body', async () => {
    expect(await callUpstream(get('/missing'), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 404 Not Found from GET /thing\n\n{"error":"no such pet"}' }],
      isError: true,
    });
  });

  it('500 → isError with status and body', async () => {
    expect(await callUpstream(get('/boom'), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 500 Internal Server Error from GET /thing\n\ndatabase exploded' }],
      isError: true,
    });
  });

  it('truncates past maxBytes', async () => {
    const result = await callUpstream(get('/big'), { ...OPTS, maxBytes: 100 });
    expect(result).toEqual({
      content: [{ type: 'text', text: `${'x '.repeat(50)}\n…[truncated: 99900 more bytes not shown]` }],
      cut: { mimeType: 'text/plain', binary: false, totalBytes: 100_000 },
    });
  });

  it('times out with a clear message', async () => {
    const started = Date.now();
    const result = await callUpstream(get('/slow'), { ...OPTS, timeoutMs: 100 });
    expect(result).toEqual({
      content: [{ type: 'text', text: 'Request to GET /thing timed out after 100 ms' }],
      isError: true,
    });
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('calls after a timed-out or cancelled one still get a live signal', async () => {
    for (let i = 0; i < 3; i++) expect((await callUpstream(get('/json'), OPTS)).isError).toBeUndefined();
    expect((await callUpstream(get('/slow'), { ...OPTS, timeoutMs: 50 })).isError).toBe(true);
    const cancelled = new AbortController();
    const pending = callUpstream(get('/slow'), { ...OPTS, signal: cancelled.signal });
    cancelled.abort(new Error('client went away'));
    await expect(pending).rejects.toThrow();
    const results = await Promise.all(Array.from({ length: 5 }, () => callUpstream(get('/json'), OPTS)));
    expect(results.map((r) => r.structuredContent)).toEqual(Array.from({ length: 5 }, () => ({ id: 7, name: 'Rex' })));
  });

  it("a call's signal carries a bounded number of listeners (no MaxListenersExceededWarning on a busy server)", async () => {
    // fetch leaves an abort listener on its signal per request until that request is collected.
    const signals = new Set<AbortSignal>();
    const spy: typeof fetch = (input, init) => {
      if (init?.signal) signals.add(init.signal);
      return fetch(input, init);
    };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      for (let i = 0; i < 100; i++)
        expect((await callUpstream(get('/json'), { ...OPTS, fetch: spy })).isError).toBeUndefined();
    } finally {
      process.off('warning', onWarning);
    }
    expect(Math.max(...[...signals].map((signal) => getEventListeners(signal, 'abort').length))).toBeLessThanOrEqual(
      10,
    );
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('connection refused', async () => {
    const result = await callUpstream({ method: 'GET', url: `${closedPortBase}/x`, headers: {} }, OPTS);
    expect(result).toEqual({
      content: [{ type: 'text', text: `Could not reach ${closedPortBase}: ECONNREFUSED` }],
      isError: true,
    });
  });

  it('a connection dropped mid-body', async () => {
    const result = await callUpstream(get('/reset'), OPTS);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe(
      `Connection to ${base} failed while reading the response to GET /thing: ECONNRESET`,
    );
  });

  it('follows a same-origin redirect', async () => {
    expect(await callUpstream(get('/redirect'), OPTS)).toEqual({
      content: [{ type: 'text', text: '{"id":7,"name":"Rex"}' }],
      structuredContent: { id: 7, name: 'Rex' },
    });
    expect((await callUpstream(get('/redirect-chain'), OPTS)).structuredContent).toEqual({ id: 7, name: 'Rex' });
  });

  it('refuses a cross-origin redirect, naming the target origin', async () => {
    expect(await callUpstream(get('/cross', { authorization: 'Bearer secret' }), OPTS)).toEqual({
      content: [
        {
          type: 'text',
          text: `Refused to follow a redirect from ${base} to a different origin: http://evil.example:8080`,
        },
      ],
      isError: true,
    });
  });

  it('stops after 5 redirects', async () => {
    expect(await callUpstream(get('/loop'), OPTS)).toEqual({
      content: [{ type: 'text', text: `Too many redirects (more than 5) for ${base}/loop` }],
      isError: true,
    });
  });

  it('303 after POST repeats as GET without body; 307 keeps method, body and headers', async () => {
    const post = (path: string): BuiltRequest => ({
      method: 'POST',
      url: `${base}${path}`,
      headers: { 'content-type': 'application/json', 'x-key': 'k' },
      body: '{"a":1}',
    });
    const seeOther = (await callUpstream(post('/see-other'), OPTS)).structuredContent as {
      method: string;
      body: string;
      headers: Record<string, string>;
    };
    expect(seeOther.method).toBe('GET');
    expect(seeOther.body).toBe('');
    expect(seeOther.headers['content-type']).toBeUndefined();
    expect(seeOther.headers['x-key']).toBe('k');

    const temporary = (await callUpstream(post('/temporary'), OPTS)).structuredContent as {
      method: string;
      body: string;
      headers: Record<string, string>;
    };
    expect(temporary).toMatchObject({ method: 'POST', body: '{"a":1}' });
    expect(temporary.headers['content-type']).toBe('application/json');
  });

  it('rethrows when the client aborts, so the MCP SDK sees the cancellation', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const call = callUpstream(get('/slow'), { ...OPTS, signal: controller.signal });
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rethrows an abort that happened before the call', async () => {
    const reason = new Error('cancelled by client');
    await expect(callUpstream(get('/json'), { ...OPTS, signal: AbortSignal.abort(reason) })).rejects.toBe(reason);
  });

  it('works end to end with buildRequest: query, headers, cookie and a JSON body', async () => {
    const request = buildRequest(
      {
        method: 'post',
        path: '/echo',
        params: [
          { arg: 'q', name: 'q', in: 'query', style: 'form', explode: true },
          { arg: 'trace', name: 'X-Trace', in: 'header', style: 'simple', explode: false },
          { arg: 'sid', name: 'sid', in: 'cookie', style: 'form', explode: true },
        ],
        body: { arg: 'body', mediaType: 'application/json', kind: 'json', required: true },
      },
      { q: ['a b', 'c'], trace: 'line1\r\nX-Injected: yes', sid: 's;1', body: { name: 'Rex' } },
      base,
    );
    const echo = (await callUpstream(request, OPTS)).structuredContent as {
      method: string;
      url: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(echo.method).toBe('POST');
    expect(echo.url).toBe('/echo?q=a%20b&q=c');
    expect(echo.headers['x-trace']).toBe('line1%0D%0AX-Injected: yes');
    expect(echo.headers['x-injected']).toBeUndefined();
    expect(echo.headers.cookie).toBe('sid=s%3B1');
    expect(echo.headers['content-type']).toBe('application/json');
    expect(JSON.parse(echo.body)).toEqual({ name: 'Rex' });
  });

  it('sends multipart bodies with the boundary fetch chose', async () => {
    const request = buildRequest(
      {
        method: 'post',
        path: '/echo',
        params: [],
        body: {
          arg: 'body',
          mediaType: 'multipart/form-data',
          kind: 'multipart',
          required: true,
          fileFields: ['file'],
        },
      },
      {
        body: {
          file: { base64: PNG_BYTES.toString('base64'), filename: 'p.png', contentType: 'image/png' },
          note: 'hi',
        },
      },
      base,
    );
    const echo = (await callUpstream(request, OPTS)).structuredContent as {
      headers: Record<string, string>;
      body: string;
    };
    expect(echo.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(echo.body).toContain('filename="p.png"');
    expect(echo.body).toContain('name="note"');
  });
});

describe('callUpstream over node:http', () => {
  const echo = async (request: BuiltRequest) =>
    (await callUpstream(request, { ...OPTS, userAgent: 'petstore-mcp/1.0.0 openapi-to-mcp' })).structuredContent as {
      method: string;
      headers: Record<string, string>;
      body: string;
    };

  it('names itself, asks for compression it can decode, and states body lengths', async () => {
    const got = await echo(get('/echo'));
    expect(got.headers['user-agent']).toBe('petstore-mcp/1.0.0 openapi-to-mcp');
    expect(got.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(got.headers['content-length']).toBeUndefined();
    const body = 'héllo';
    const posted = await echo({ method: 'POST', url: `${base}/echo`, headers: { 'content-type': 'text/plain' }, body });
    expect(posted.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(posted.body).toBe(body);
    const empty = await echo({ method: 'POST', url: `${base}/echo`, headers: {} });
    expect(empty.headers['content-length']).toBe('0');
  });

  it("keeps the request's own User-Agent and Accept-Encoding", async () => {
    const got = await echo(get('/echo', { 'user-agent': 'mine/2', 'accept-encoding': 'identity' }));
    expect(got.headers['user-agent']).toBe('mine/2');
    expect(got.headers['accept-encoding']).toBe('identity');
  });

  it('leaves no listener on the call signal once a call is over', async () => {
    const controller = new AbortController();
    for (let i = 0; i < 20; i++)
      expect((await callUpstream(get('/json'), { ...OPTS, signal: controller.signal })).isError).toBeUndefined();
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('sends an idempotent request again when a kept-alive connection was closed under it', async () => {
    // Sequential calls reuse the connection, which the server drops at the second request.
    for (let i = 0; i < 3; i++)
      expect((await callUpstream(get('/one-per-connection'), OPTS)).structuredContent).toEqual({ method: 'GET' });
  });

  it('does not send a POST twice', async () => {
    // The GET leaves a kept-alive connection behind that has served one request; the POST goes out on it.
    expect((await callUpstream(get('/one-per-connection'), OPTS)).structuredContent).toEqual({ method: 'GET' });
    const post: BuiltRequest = { method: 'POST', url: `${base}/one-per-connection`, headers: {}, body: '{}' };
    const second = await callUpstream(post, OPTS);
    expect(second.isError).toBe(true);
    expect((second.content[0] as { text: string }).text).toBe(`Could not reach ${base}: ECONNRESET`);
  });

  it('a header value node:http refuses is an error result naming the request', async () => {
    const result = await callUpstream({ method: 'GET', url: `${base}/json`, headers: { 'x-bad': 'a\r\nb' } }, OPTS);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^Could not send the request to GET \/thing: Invalid character in header content/,
    );
  });
});

describe('callUpstream after a 401', () => {
  const stale = () => get('/needs-fresh-token', { authorization: 'Bearer revoked', 'x-other': 'kept' });

  it('sends the request once more with the fresh credentials onUnauthorized gives', async () => {
    let asked = 0;
    const onUnauthorized = async () => {
      asked++;
      return { authorization: 'Bearer fresh' };
    };
    expect(await callUpstream(stale(), { ...OPTS, onUnauthorized })).toEqual({
      content: [{ type: 'text', text: '{"ok":true}' }],
      structuredContent: { ok: true },
    });
    expect(asked).toBe(1);
  });

  it('asks once: a 401 to the fresh credentials stands, and says they were tried', async () => {
    let asked = 0;
    const onUnauthorized = async () => {
      asked++;
      return { authorization: 'Bearer also-refused' };
    };
    expect(await callUpstream(stale(), { ...OPTS, onUnauthorized })).toEqual({
      content: [
        {
          type: 'text',
          text: 'HTTP 401 Unauthorized from GET /thing (sent again with a fresh access token after HTTP 401)\n\n{"message":"Bad credentials"}',
        },
      ],
      isError: true,
    });
    expect(asked).toBe(1);
  });

  it("waits for new credentials within the call's time budget only", async () => {
    let settle: (headers: Record<string, string>) => void = () => undefined;
    const slowTokenEndpoint = () => new Promise<Record<string, string>>((resolve) => (settle = resolve));
    const started = performance.now();
    const result = await callUpstream(stale(), { ...OPTS, timeoutMs: 300, onUnauthorized: slowTokenEndpoint });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Request to GET /thing timed out after 300 ms while getting a fresh access token after HTTP 401',
        },
      ],
      isError: true,
    });
    settle({ authorization: 'Bearer fresh' }); // arriving late changes nothing
  });

  it('without new credentials (or without the hook), the 401 is the result', async () => {
    const expected = {
      content: [{ type: 'text', text: 'HTTP 401 Unauthorized from GET /thing\n\n{"message":"Bad credentials"}' }],
      isError: true,
    };
    expect(await callUpstream(stale(), { ...OPTS, onUnauthorized: async () => undefined })).toEqual(expected);
    expect(await callUpstream(stale(), OPTS)).toEqual(expected);
  });
});

describe('callUpstream with an injected fetch', () => {
  const request: BuiltRequest = { method: 'GET', url: 'https://api.example.com/x', headers: {} };

  it('DNS failure', async () => {
    const failing: typeof fetch = () =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }),
        }),
      );
    expect(await callUpstream(request, { ...OPTS, fetch: failing })).toEqual({
      content: [{ type: 'text', text: 'Could not reach https://api.example.com: ENOTFOUND' }],
      isError: true,
    });
  });

  it('a code inside an AggregateError (several addresses tried)', async () => {
    const refused = Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' });
    const failing: typeof fetch = () =>
      Promise.reject(new TypeError('fetch failed', { cause: new AggregateError([refused], 'all failed') }));
    expect((await callUpstream(request, { ...OPTS, fetch: failing })).content).toEqual([
      { type: 'text', text: 'Could not reach https://api.example.com: ECONNRESET' },
    ]);
  });

  it('a request fetch refuses to send is an error result, not an exception', async () => {
    const failing: typeof fetch = () => Promise.reject(new TypeError('Request with GET/HEAD method cannot have body.'));
    expect(await callUpstream(request, { ...OPTS, fetch: failing })).toEqual({
      content: [
        {
          type: 'text',
          text: 'Could not send the request to GET /thing: Request with GET/HEAD method cannot have body.',
        },
      ],
      isError: true,
    });
  });

  it('passes redirect: manual and a signal', async () => {
    let seen: RequestInit | undefined;
    const spy: typeof fetch = (_input, init) => {
      seen = init;
      return Promise.resolve(new Response('ok', { headers: { 'content-type': 'text/plain' } }));
    };
    await callUpstream(request, { ...OPTS, fetch: spy });
    expect(seen?.redirect).toBe('manual');
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });
});

describe('callUpstream: encodings and odd bodies', () => {
  it.each(['gzip', 'br', 'deflate'])('decodes a %s-encoded JSON body', async (encoding) => {
    const result = await callUpstream(get(`/encoded?encoding=${encoding}`), OPTS);
    expect(result).toEqual({
      content: [{ type: 'text', text: PET_JSON }],
      structuredContent: JSON.parse(PET_JSON) as Record<string, unknown>,
    });
  });

  it('caps the decoded bytes of a compressed body, not the compressed ones', async () => {
    for (const encoding of ['gzip', 'br']) {
      const result = await callUpstream(get(`/encoded?encoding=${encoding}&body=big`), { ...OPTS, maxBytes: 1_000 });
      const text = (result.content[0] as { text: string }).text;
      // Cut at the cap, then back to the end of the last whole word (cut.ts).
      const shown = text.slice(0, text.indexOf('\n…'));
      expect(BIG_JSON.startsWith(shown)).toBe(true);
      expect(shown.length).toBeGreaterThan(980);
      // Content-Length counts compressed bytes, so the note cannot say how much is left.
      expect(text.endsWith('\n…[truncated: more bytes not shown]')).toBe(true);
      expect(result.structuredContent).toBeUndefined();
    }
  });

  it('says a body labelled compressed that does not decompress is that, not a failed connection', async () => {
    const result = await callUpstream(get('/mislabelled-gzip'), OPTS);
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(
      /^The response to GET \/thing from http:\/\/127\.0\.0\.1:\d+ could not be read: the body is labelled Content-Encoding: gzip but does not decode as such \(incorrect header check\)/,
    );
  });

  it('invalid JSON with a JSON content type: the text, no structuredContent, not an error', async () => {
    expect(await callUpstream(get('/invalid-json'), OPTS)).toEqual({
      content: [{ type: 'text', text: '{"id": 7, "name": ' }],
    });
  });

  it('wrong content types: the body as text, parsed only when labelled JSON', async () => {
    expect(await callUpstream(get('/html-labelled-json'), OPTS)).toEqual({
      content: [{ type: 'text', text: '{"id":7}' }],
    });
    expect(await callUpstream(get('/json-labelled-html'), OPTS)).toEqual({
      content: [{ type: 'text', text: '<html><body>Maintenance</body></html>' }],
    });
  });

  it('an empty 200 body, with or without Content-Length', async () => {
    const empty = { content: [{ type: 'text', text: 'HTTP 200 OK (empty body)' }] };
    expect(await callUpstream(get('/empty-json'), OPTS)).toEqual(empty);
    expect(await callUpstream(get('/empty-chunked'), OPTS)).toEqual(empty);
  });
});
