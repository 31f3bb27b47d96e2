/**
 * End to end: generate a server from fixtures/specs/features/requests.yaml, build it, start it over stdio and
 * HTTP, call tools with the SDK's own clients (2026-07-28 and 2025-11-25), and assert the exact HTTP requests
 * a local mock upstream received.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import {
  connectLegacyHttp,
  connectLegacyStdio,
  connectModernHttp,
  connectModernStdio,
} from '../helpers/mcp-clients.js';
import { startHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/requests.yaml`;

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(SPEC);
});

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond((req) => {
    if (req.url.startsWith('/v1/items/missing'))
      return { status: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"no such item"}' };
    if (req.url.startsWith('/v1/items/boom')) return { status: 500, body: 'upstream exploded' };
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true,"echo":"yes"}' };
  });
});

function env(): Record<string, string> {
  return { API_BASE_URL: `${upstream.url}/v1` };
}

function onlyRequest(): RecordedRequest {
  expect(upstream.requests).toHaveLength(1);
  return upstream.requests[0]!;
}

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

function text(result: CallResult): string {
  return result.content.map((c) => c.text ?? '').join('');
}

describe('stdio, 2026-07-28 client', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectModernStdio(project.entry, env());
  });
  afterAll(async () => {
    await client?.close();
  });

  it('negotiates the modern protocol and discovers the server', () => {
    expect(client.getProtocolEra()).toBe('modern');
    // The package and server name is the -o folder's name (generateAndBuild writes to …/server).
    expect(client.getServerVersion()?.name).toBe('server');
    expect(client.getInstructions()).toContain('Request mapping fixture');
  });

  it('lists one tool per operation with collision-free arguments', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      'getItem',
      'deleteItem',
      'listItems',
      'createItem',
      'createCharge',
      'get_search',
    ]);
    const getItem = tools.find((t) => t.name === 'getItem')!;
    expect(Object.keys(getItem.inputSchema.properties ?? {})).toEqual([
      'itemId',
      'itemId_query',
      'tags',
      'X-Trace-Id',
      'session',
    ]);
    expect(getItem.inputSchema.required).toEqual(['itemId']);
    expect(getItem.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    const createItem = tools.find((t) => t.name === 'createItem')!;
    expect(createItem.inputSchema['$defs']).toHaveProperty('NewItem');
    expect(JSON.stringify(createItem.inputSchema)).not.toContain('readOnly');
  });

  it('sends path, query, header and cookie parameters exactly', async () => {
    const result = (await client.callTool({
      name: 'getItem',
      arguments: { itemId: 'a/b?c#d', itemId_query: 7, tags: ['x', 'y'], 'X-Trace-Id': 't-1', session: 's 1' },
    })) as CallResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ ok: true, echo: 'yes' });
    const req = onlyRequest();
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v1/items/a%2Fb%3Fc%23d?itemId=7&tags=x&tags=y');
    expect(req.headers['x-trace-id']).toBe('t-1');
    expect(req.headers['cookie']).toBe('session=s%201');
  });

  it('declares lenient output schemas and wraps non-object results', async () => {
    const { tools } = await client.listTools();
    const listItems = tools.find((t) => t.name === 'listItems')!;
    expect(listItems.outputSchema).toMatchObject({ type: 'object', properties: { result: {} } });
    upstream.respond(() => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: '[{"id":1,"name":"a"}]',
    }));
    const result = (await client.callTool({ name: 'listItems', arguments: {} })) as CallResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ result: [{ id: 1, name: 'a' }] });
    expect(text(result)).toBe('[{"id":1,"name":"a"}]');
  });

  it('sends a JSON body', async () => {
    await client.callTool({ name: 'createItem', arguments: { body: { name: 'n', parent: { name: 'p' } } } });
    const req = onlyRequest();
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/items');
    expect(req.headers['content-type']).toBe('application/json');
    expect(JSON.parse(req.body.toString())).toEqual({ name: 'n', parent: { name: 'p' } });
  });

  it('sends a form body with nested objects and arrays the way Stripe expects', async () => {
    await client.callTool({
      name: 'createCharge',
      arguments: { body: { amount: 100, metadata: { order_id: '6735' }, expand: ['customer', 'invoice'] } },
    });
    const req = onlyRequest();
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(decodeURIComponent(req.body.toString())).toBe(
      'amount=100&metadata[order_id]=6735&expand[]=customer&expand[]=invoice',
    );
  });

  it('serializes deepObject and pipeDelimited query parameters', async () => {
    await client.callTool({ name: 'get_search', arguments: { filter: { status: 'open', owner: 'me' }, ids: [1, 2] } });
    const req = onlyRequest();
    expect(decodeURIComponent(req.url)).toBe('/v1/search?filter[status]=open&filter[owner]=me&ids=1|2');
  });

  it('returns isError with the status for a 404 and a 500', async () => {
    const notFound = (await client.callTool({
      name: 'deleteItem',
      arguments: { itemId: 'missing', confirm: true },
    })) as CallResult;
    expect(notFound.isError).toBe(true);
    expect(text(notFound)).toContain('404');
    expect(text(notFound)).toContain('no such item');
    expect(notFound.structuredContent).toBeUndefined();
    const failed = (await client.callTool({
      name: 'deleteItem',
      arguments: { itemId: 'boom', confirm: true },
    })) as CallResult;
    expect(failed.isError).toBe(true);
    expect(text(failed)).toContain('500');
    expect(text(failed)).toContain('upstream exploded');
  });

  it('rejects invalid arguments without calling upstream', async () => {
    const result = (await client.callTool({
      name: 'createCharge',
      arguments: { body: { amount: 'lots' } },
    })) as CallResult;
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/amount/);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('stdio, 2025-11-25 client', () => {
  it('lists and calls tools', async () => {
    const client = await connectLegacyStdio(project.entry, env());
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(6);
      const result = await client.callTool({ name: 'deleteItem', arguments: { itemId: 'x 1', confirm: true } });
      expect(result.isError).toBeFalsy();
      expect(onlyRequest()).toMatchObject({ method: 'DELETE', url: '/v1/items/x%201' });
    } finally {
      await client.close();
    }
  });
});

describe('Streamable HTTP', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(project.entry, env());
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves a 2026-07-28 client statelessly', async () => {
    const client = await connectModernHttp(server.url);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(6);
      await client.callTool({ name: 'getItem', arguments: { itemId: '42', tags: ['a'] } });
      expect(onlyRequest().url).toBe('/v1/items/42?tags=a');
    } finally {
      await client.close();
    }
  });

  it('serves a 2025-11-25 client', async () => {
    const client = await connectLegacyHttp(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(6);
      const result = await client.callTool({ name: 'deleteItem', arguments: { itemId: 'missing', confirm: true } });
      expect(result.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('refuses a foreign Host or Origin and answers health checks', async () => {
    const badOrigin = await fetch(server.url, {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(badOrigin.status).toBe(403);
    const health = await fetch(server.url.replace(/\/mcp$/, '/health'));
    expect(health.status).toBe(200);
  });
});
