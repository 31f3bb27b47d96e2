/** Long-running operations: which status links are followed, when a poll fits, and which tool reads a status. */
import { describe, expect, it } from 'vitest';
import { pollFits, pollWaitMs, statusLink, statusOperation } from '../../../templates/runtime/upstream/accepted.js';
import { callUpstream } from '../../../templates/runtime/upstream/upstream.js';
import type { CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import type { UpstreamResponse } from '../../../templates/runtime/upstream/http-client.js';

const answer = (headers: Record<string, string>) =>
  ({ status: 202, statusText: 'Accepted', header: (name: string) => headers[name] ?? null }) as UpstreamResponse;

describe('statusLink', () => {
  it('prefers Operation-Location, resolves it, and follows only the request origin', () => {
    const url = 'https://api.example.com/v1/exports';
    expect(statusLink(answer({ 'operation-location': '/v1/ops/1', location: '/x' }), url)).toBe(
      'https://api.example.com/v1/ops/1',
    );
    expect(statusLink(answer({ location: 'jobs/2' }), url)).toBe('https://api.example.com/v1/jobs/2');
    expect(statusLink(answer({ location: 'https://evil.example/jobs/2' }), url)).toBeUndefined();
    expect(statusLink(answer({}), url)).toBeUndefined();
  });
});

describe('polling', () => {
  it('waits what Retry-After asks, 1 s without it, at least 250 ms, at most 10 s', () => {
    expect(pollWaitMs(answer({ 'retry-after': '3' }))).toBe(3000);
    expect(pollWaitMs(answer({}))).toBe(1000);
    expect(pollWaitMs(answer({ 'retry-after': '120' }))).toBe(10_000);
    expect(pollWaitMs(answer({ 'retry-after': '0' }))).toBe(250);
  });

  it('polls only when the wait and time for the request fit the budget', () => {
    expect(pollFits(1000, 10_000, 30_000, 0)).toBe(true);
    // A 1.5 s budget keeps 375 ms for the request: a 1 s wait fits at 0 ms, not at 200 ms.
    expect(pollFits(1000, 1500, 1500, 0)).toBe(true);
    expect(pollFits(1000, 1500, 1500, 200)).toBe(false);
  });
});

describe('statusOperation', () => {
  const tool = (name: string, method: string, path: string, required: string[] = []) =>
    ({
      name,
      inputSchema: { type: 'object', required },
      request: {
        method,
        path,
        params: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ arg: `${m[1]}_arg`, name: m[1], in: 'path' })),
      },
    }) as unknown as CatalogTool;
  const tools = [
    tool('deleteJob', 'DELETE', '/jobs/{id}'),
    tool('listJobs', 'GET', '/jobs', ['owner']),
    tool('getJob', 'GET', '/jobs/{id}', ['id_arg']),
  ];

  it('finds the GET operation whose path matches the status URL below the base URL, with its arguments', () => {
    expect(statusOperation(tools, 'https://api.example.com/v1', 'https://api.example.com/v1/jobs/a%20b')).toEqual({
      tool: 'getJob',
      args: { id_arg: 'a b' },
    });
    expect(statusOperation(tools, 'https://api.example.com/v1', 'https://api.example.com/v1/jobs')).toBeUndefined();
    expect(statusOperation(tools, 'https://api.example.com/v2', 'https://api.example.com/v1/jobs/1')).toBeUndefined();
  });

  it('takes a status URL whose path is not valid percent-encoding as it is, rather than failing the call', () => {
    // A malformed Location from the API used to throw URIError out of the tool call: the 202's result was lost.
    expect(statusOperation(tools, 'https://api.example.com/v1', 'https://api.example.com/v1/jobs/%E0%A4%A')).toEqual({
      tool: 'getJob',
      args: { id_arg: '%E0%A4%A' },
    });
  });
});

/**
 * Attack: an API that answers 202 with `Retry-After: 0` (or a date in the past) was polled with no wait at all,
 * for the whole time budget: one tool call sent 2,320 status requests in 4 s on loopback (about 17,000 in the
 * default 30 s), each with the owner's credentials, and kept the server's thread about a third busy.
 */
describe('polling a status link that asks for no wait', () => {
  it('waits at least 250 ms between polls, so one call sends a bounded number of requests', async () => {
    let polls = 0;
    const fakeFetch = (async () => {
      polls++;
      return new Response('{"status":"running"}', {
        status: 202,
        headers: { location: '/jobs/1', 'retry-after': '0', 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const result = await callUpstream(
      { method: 'POST', url: 'https://api.example.com/jobs', headers: {} },
      { fetch: fakeFetch, timeoutMs: 2_000, maxBytes: 10_000, label: 'POST /jobs' },
    );
    expect((result.content[0] as { text: string }).text).toMatch(/^HTTP 202 Accepted from POST \/jobs/);
    // 2 s at 250 ms or more a poll: at most 8 polls and the first request. Before: hundreds.
    expect(polls).toBeLessThanOrEqual(9);
    expect(polls).toBeGreaterThan(2);
  });
});
