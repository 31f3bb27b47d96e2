/**
 * The retry policy (pure functions) and callUpstream's retries against a scripted local server: which
 * statuses and methods are retried, Retry-After in both forms, the caps, and cancellation while waiting.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltRequest } from '../../../templates/runtime/upstream/request.js';
import {
  backoffDelay,
  decideRetry,
  isIdempotentMethod,
  isRetryableStatus,
  parseRetryAfter,
  sleep,
  type RetryPolicy,
} from '../../../templates/runtime/upstream/retry.js';
import { callUpstream } from '../../../templates/runtime/upstream/upstream.js';
import { readConfig } from '../../../templates/runtime/server/config.js';

const POLICY: RetryPolicy = { maxRetries: 2, maxWaitMs: 10_000, baseDelayMs: 250 };

describe('retry policy', () => {
  it('retries only overload and gateway statuses', () => {
    expect([429, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404, 409, 500, 501, 505].some(isRetryableStatus)).toBe(false);
  });

  it('retries only idempotent methods', () => {
    expect(['GET', 'head', 'OPTIONS', 'PUT', 'DELETE'].every(isIdempotentMethod)).toBe(true);
    expect(['POST', 'PATCH', 'post'].some(isIdempotentMethod)).toBe(false);
  });

  it('parses Retry-After as seconds or an HTTP-date, ignoring garbage', () => {
    const now = Date.parse('Wed, 21 Oct 2026 07:28:00 GMT');
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter(' 3 ', now)).toBe(3_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:28:05 GMT', now)).toBe(5_000);
    expect(parseRetryAfter('Wed, 21 Oct 2026 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-1', now)).toBeUndefined();
    expect(parseRetryAfter('1.5', now)).toBeUndefined();
  });

  it('backs off exponentially with jitter between half and all of each step', () => {
    expect(backoffDelay(0, 250, () => 0)).toBe(125);
    expect(backoffDelay(0, 250, () => 1)).toBe(250);
    expect(backoffDelay(1, 250, () => 0)).toBe(250);
    expect(backoffDelay(2, 250, () => 1)).toBe(1_000);
  });

  const attempt = { method: 'GET', status: 503, retryAfter: null, retriesMade: 0, remainingMs: 30_000 };

  it('waits as Retry-After says, else backs off', () => {
    expect(decideRetry({ ...attempt, retryAfter: '2' }, POLICY)).toEqual({ retry: true, waitMs: 2_000 });
    expect(decideRetry(attempt, POLICY, () => 0)).toEqual({ retry: true, waitMs: 125 });
  });

  it('stops with a reason a person can act on', () => {
    expect(decideRetry({ ...attempt, method: 'POST' }, POLICY)).toEqual({
      retry: false,
      reason: 'not retried: POST is not idempotent',
    });
    expect(decideRetry({ ...attempt, retriesMade: 2 }, POLICY)).toEqual({
      retry: false,
      reason: 'gave up after 2 retries',
    });
    expect(decideRetry(attempt, { ...POLICY, maxRetries: 0 })).toEqual({
      retry: false,
      reason: 'retries are turned off (API_MAX_RETRIES=0)',
    });
    expect(decideRetry({ ...attempt, retryAfter: '60' }, POLICY)).toEqual({
      retry: false,
      reason: 'not retried: the upstream asked to retry after 60 s, longer than the 10 s this server waits',
    });
    expect(decideRetry({ ...attempt, retryAfter: '5', retriesMade: 1, remainingMs: 4_000 }, POLICY)).toEqual({
      retry: false,
      reason: 'gave up after 1 retry: waiting 5 s for another attempt would exceed the time limit',
    });
  });

  it('sleep rejects with the abort reason as soon as the signal fires', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(sleep(5_000, controller.signal)).rejects.toThrow('stop');
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('API_MAX_RETRIES: default 2, 0 allowed, garbage ignored', () => {
    expect(readConfig({}).maxRetries).toBe(2);
    expect(readConfig({ API_MAX_RETRIES: '0' }).maxRetries).toBe(0);
    expect(readConfig({ API_MAX_RETRIES: '5' }).maxRetries).toBe(5);
    expect(readConfig({ API_MAX_RETRIES: '-1' }).maxRetries).toBe(2);
    expect(readConfig({ API_MAX_RETRIES: '' }).maxRetries).toBe(2);
  });
});

// ---------------------------------------------------------------------------------------------------
// Against a scripted server
// ---------------------------------------------------------------------------------------------------

type Step = (req: http.IncomingMessage, res: http.ServerResponse) => void;

let server: http.Server;
let base: string;
/** Per path: the answers in order; the last one repeats. */
const scripts = new Map<string, Step[]>();
const seen: Array<{ method: string; path: string; at: number }> = [];

function script(path: string, ...steps: Step[]): void {
  scripts.set(path, steps);
}

function status(code: number, headers: Record<string, string> = {}, body = ''): Step {
  return (_req, res) => void res.writeHead(code, headers).end(body);
}

const okJson = status(200, { 'content-type': 'application/json' }, '{"ok":true}');

function requestsTo(path: string): number {
  return seen.filter((r) => r.path === path).length;
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    seen.push({ method: req.method ?? '', path, at: Date.now() });
    const steps = scripts.get(path) ?? [status(404)];
    const count = seen.filter((r) => r.path === path).length;
    req.resume();
    steps[Math.min(count, steps.length) - 1]!(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  scripts.clear();
  seen.length = 0;
});

function request(method: string, path: string): BuiltRequest {
  return { method, url: `${base}${path}`, headers: {}, ...(method === 'POST' ? { body: '{}' } : {}) };
}

const OPTS = { timeoutMs: 5_000, maxBytes: 10_000, label: 'GET /thing', retryBaseDelayMs: 10 };

function textOf(result: { content: Array<{ type: string; text?: string }> }): string {
  return result.content.map((c) => c.text ?? '').join('');
}

describe('callUpstream retries', () => {
  it('429 with Retry-After: 0, then 200: retried, success', async () => {
    script('/a', status(429, { 'retry-after': '0' }), okJson);
    const result = await callUpstream(request('GET', '/a'), OPTS);
    expect(result).toEqual({ content: [{ type: 'text', text: '{"ok":true}' }], structuredContent: { ok: true } });
    expect(requestsTo('/a')).toBe(2);
  });

  it('503 every time: two retries, then an error naming the status and the retries', async () => {
    script('/b', status(503, { 'content-type': 'text/plain' }, 'overloaded'));
    const result = await callUpstream(request('GET', '/b'), OPTS);
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'HTTP 503 Service Unavailable from GET /thing (gave up after 2 retries)\n\noverloaded' },
      ],
      isError: true,
    });
    expect(requestsTo('/b')).toBe(3);
  });

  it('backs off between attempts when there is no Retry-After', async () => {
    script('/c', status(502), status(504), okJson);
    const result = await callUpstream(request('DELETE', '/c'), { ...OPTS, retryBaseDelayMs: 100 });
    expect(result.isError).toBeUndefined();
    const times = seen.map((r) => r.at);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(45); // 50–100 ms, less timer slack
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(95); // 100–200 ms
  });

  it('honours an HTTP-date Retry-After', async () => {
    const inOneSecond = new Date(Date.now() + 1_000).toUTCString();
    script('/d', status(503, { 'retry-after': inOneSecond }), okJson);
    const started = Date.now();
    expect((await callUpstream(request('PUT', '/d'), OPTS)).structuredContent).toEqual({ ok: true });
    // toUTCString drops milliseconds, so the wait is between 0 and 1 s.
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(requestsTo('/d')).toBe(2);
  });

  it('POST is not retried', async () => {
    script('/e', status(503, { 'retry-after': '0' }));
    const result = await callUpstream(request('POST', '/e'), { ...OPTS, label: 'POST /e' });
    expect(textOf(result)).toBe('HTTP 503 Service Unavailable from POST /e (not retried: POST is not idempotent)');
    expect(requestsTo('/e')).toBe(1);
  });

  it('a Retry-After longer than the cap is reported, not waited for', async () => {
    script('/f', status(429, { 'retry-after': '120' }, 'slow down'));
    const started = Date.now();
    const result = await callUpstream(request('GET', '/f'), OPTS);
    expect(textOf(result)).toBe(
      'HTTP 429 Too Many Requests from GET /thing (not retried: the upstream asked to retry after 120 s, longer than the 10 s this server waits)\n\nslow down',
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('never waits past the overall timeout', async () => {
    script('/g', status(503, { 'retry-after': '3' }));
    const result = await callUpstream(request('GET', '/g'), { ...OPTS, timeoutMs: 1_000 });
    expect(textOf(result)).toContain('(not retried: waiting 3 s for another attempt would exceed the time limit)');
    expect(requestsTo('/g')).toBe(1);
  });

  it('maxRetries 0 turns retries off', async () => {
    script('/h', status(503));
    const result = await callUpstream(request('GET', '/h'), { ...OPTS, maxRetries: 0 });
    expect(textOf(result)).toBe(
      'HTTP 503 Service Unavailable from GET /thing (retries are turned off (API_MAX_RETRIES=0))',
    );
    expect(requestsTo('/h')).toBe(1);
  });

  it('a different error after a retry says what came before', async () => {
    script('/i', status(503, { 'retry-after': '0' }), status(500, { 'content-type': 'text/plain' }, 'broke'));
    const result = await callUpstream(request('GET', '/i'), OPTS);
    expect(textOf(result)).toBe(
      'HTTP 500 Internal Server Error from GET /thing (after 1 retry; the earlier attempt got HTTP 503)\n\nbroke',
    );
  });

  it('a network failure after a retry says so too', async () => {
    script('/j', status(503, { 'retry-after': '0' }), (req) => req.socket.destroy());
    const result = await callUpstream(request('GET', '/j'), OPTS);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^Could not reach http:\/\/127\.0\.0\.1:\d+: .+ \(after 1 retry; the earlier attempt got HTTP 503\)$/,
    );
  });

  it('a timeout during retries names the retries made', async () => {
    script('/k', status(503, { 'retry-after': '0' }), () => undefined /* never answers */);
    const result = await callUpstream(request('GET', '/k'), { ...OPTS, timeoutMs: 300 });
    expect(textOf(result)).toBe(
      'Request to GET /thing timed out after 300 ms (after 1 retry; the earlier attempt got HTTP 503)',
    );
  });

  it('a client cancel during the wait rejects at once', async () => {
    script('/l', status(503, { 'retry-after': '5' }));
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by client')), 100);
    const started = Date.now();
    await expect(
      callUpstream(request('GET', '/l'), { ...OPTS, timeoutMs: 20_000, signal: controller.signal }),
    ).rejects.toThrow('cancelled by client');
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(requestsTo('/l')).toBe(1);
  });
});
