/** Long-running operations: which status links are followed, when a poll fits, and which tool reads a status. */
import { describe, expect, it } from 'vitest';
import { pollFits, pollWaitMs, statusLink, statusOperation } from '../../../templates/runtime/upstream/accepted.js';
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
  it('waits what Retry-After asks, 1 s without it, at most 10 s', () => {
    expect(pollWaitMs(answer({ 'retry-after': '3' }))).toBe(3000);
    expect(pollWaitMs(answer({}))).toBe(1000);
    expect(pollWaitMs(answer({ 'retry-after': '120' }))).toBe(10_000);
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
});
