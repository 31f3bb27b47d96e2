/**
 * End to end: long-running operations (templates/runtime/upstream/accepted.ts). A `202 Accepted` with a status link is
 * polled to completion within the call's budget; past it, the result says how to poll and names the API's own
 * status operation, which is callable. SDK v2 client (2026-07-28) and v1 client (2025-11-25), over stdio.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateAndBuild, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { connectLegacyStdio, connectModernStdio } from '../helpers/mcp-clients.js';

const SPEC = `openapi: 3.0.3
info: { title: Jobs, version: '1' }
servers: [{ url: 'https://api.example.com/v1' }]
paths:
  /exports:
    post:
      operationId: startExport
      summary: Start an export
      responses: { '202': { description: accepted } }
  /jobs/{jobId}:
    get:
      operationId: getJob
      summary: Get a job
      parameters: [{ name: jobId, in: path, required: true, schema: { type: string } }]
      responses: { '200': { description: ok } }
`;

let upstream: MockUpstream;
let project: BuiltProject;
let specDir: string;
let polled = 0;
/** slow: the operation outlives any budget. */
let slow = false;

beforeAll(async () => {
  upstream = await startMockUpstream();
  specDir = mkdtempSync(join(tmpdir(), 'otm-jobs-'));
  writeFileSync(join(specDir, 'jobs.yaml'), SPEC);
  project = await generateAndBuild(join(specDir, 'jobs.yaml'));
});

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
  rmSync(specDir, { recursive: true, force: true });
});

const JSON_TYPE = { 'content-type': 'application/json' };

beforeEach(() => {
  upstream.requests.length = 0;
  polled = 0;
  slow = false;
  upstream.respond((req) => {
    if (req.method === 'POST' && req.url === '/v1/exports' && !slow)
      return {
        status: 202,
        headers: { ...JSON_TYPE, 'operation-location': '/v1/jobs/7', 'retry-after': '0' },
        body: '{}',
      };
    if (req.method === 'POST' && req.url === '/v1/exports')
      return {
        status: 202,
        headers: { ...JSON_TYPE, location: '/v1/jobs/8', 'retry-after': '1' },
        body: '{"status":"queued"}',
      };
    if (req.url === '/v1/jobs/7')
      return ++polled < 3
        ? { status: 202, headers: JSON_TYPE, body: '{"status":"running"}' }
        : { status: 200, headers: JSON_TYPE, body: '{"status":"done","file":"export.csv"}' };
    if (req.url === '/v1/jobs/8')
      return { status: 202, headers: { ...JSON_TYPE, 'retry-after': '1' }, body: '{"status":"running"}' };
    return { status: 404 };
  });
});

interface JobClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}
type Result = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

function followsAccepted(connect: (env: Record<string, string>) => Promise<JobClient>) {
  it('polls the status link of a 202 with GET until it is done', async () => {
    const client = await connect({ API_BASE_URL: `${upstream.url}/v1` });
    try {
      const result = (await client.callTool({ name: 'startExport', arguments: {} })) as Result;
      expect(result.isError).toBeFalsy();
      expect(result.content[0]!.text).toBe('{"status":"done","file":"export.csv"}');
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /v1/exports',
        'GET /v1/jobs/7',
        'GET /v1/jobs/7',
        'GET /v1/jobs/7',
      ]);
    } finally {
      await client.close();
    }
  });

  it('past the budget, says how to poll and names the status operation, which is callable', async () => {
    // A 1.5 s budget and a Retry-After of 1 s: one poll fits, a second does not.
    const client = await connect({ API_BASE_URL: `${upstream.url}/v1`, API_TIMEOUT_MS: '1500' });
    try {
      slow = true;
      const result = (await client.callTool({ name: 'startExport', arguments: {} })) as Result;
      expect(result.isError).toBeFalsy();
      expect(result.content[0]!.text).toMatch(
        new RegExp(
          `^HTTP 202 Accepted from POST /exports: the API is still working on it after \\d+ ms, polled 1 time\\. Poll GET ${upstream.url}/v1/jobs/8 for the outcome \\(the API asks to wait 1 s between polls\\)\\. Or call getJob with \\{"jobId":"8"\\}\\.$`,
        ),
      );
      expect(result.content[1]!.text).toBe('{"status":"running"}');
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/exports', 'GET /v1/jobs/8']);
      const status = (await client.callTool({ name: 'getJob', arguments: { jobId: '8' } })) as Result;
      expect(status.content.at(-1)!.text).toBe('{"status":"running"}');
      expect(upstream.requests.at(-1)).toMatchObject({ method: 'GET', url: '/v1/jobs/8' });
    } finally {
      await client.close();
    }
  });
}

describe('stdio, 2026-07-28 client', () => {
  followsAccepted((env) => connectModernStdio(project.entry, env));
});

describe('stdio, 2025-11-25 client', () => {
  followsAccepted((env) => connectLegacyStdio(project.entry, env));
});
