/**
 * The AWS Lambda target: the generated petstore's dist/lambda.js `handler` invoked with Lambda-shaped events
 * (function URL / HTTP API payload format 2.0). Directly, for what the adapter maps (paths, query, base64
 * bodies, headers, the result's shape), and behind a small stand-in for the function URL that turns each
 * HTTP request into an event, so that the SDK's v2 and v1 clients drive it as they would in AWS, with the
 * exact upstream requests asserted.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LambdaHttpEvent, LambdaHttpHandler } from '../../../templates/runtime/transport/lambda.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectLegacyHttp, connectModernHttp } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const API_KEY = 'lambda-key-99';
const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

let upstream: MockUpstream;
let project: BuiltProject;
let handler: LambdaHttpHandler;
let functionUrl: Server;
let url: string;

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(`${REPO_ROOT}/fixtures/specs/petstore.yaml`);
  // The handler reads process.env on its first event, as on Lambda.
  Object.assign(process.env, {
    API_BASE_URL: `${upstream.url}/v3`,
    API_KEY,
    MCP_ALLOWED_HOSTS: '127.0.0.1',
    LOG_LEVEL: 'warn',
  });
  ({ handler } = (await import(pathToFileURL(join(project.dir, 'dist', 'lambda.js')).href)) as {
    handler: LambdaHttpHandler;
  });
  functionUrl = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const [rawPath, rawQueryString = ''] = (req.url ?? '/').split('?') as [string, string?];
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = String(value);
      const body = Buffer.concat(chunks);
      void handler({
        version: '2.0',
        rawPath,
        rawQueryString,
        headers,
        requestContext: { domainName: '127.0.0.1', http: { method: req.method ?? 'GET' } },
        ...(body.length > 0 ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
      }).then((result) => {
        res.writeHead(result.statusCode, result.headers);
        res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
      });
    });
  });
  await new Promise<void>((resolve) => functionUrl.listen(0, '127.0.0.1', resolve));
  const address = functionUrl.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => functionUrl?.close(resolve));
  await upstream?.close();
  project?.cleanup();
  for (const name of ['API_BASE_URL', 'API_KEY', 'MCP_ALLOWED_HOSTS', 'LOG_LEVEL']) delete process.env[name];
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond((req) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: Number(req.url.split('/').pop()), name: 'rex', photoUrls: [], status: 'available' }),
  }));
});

function event(method: string, rawPath: string, init: Partial<LambdaHttpEvent> = {}): LambdaHttpEvent {
  return {
    version: '2.0',
    rawPath,
    headers: { host: 'abc123.lambda-url.eu-west-1.on.aws', ...init.headers },
    requestContext: { domainName: 'abc123.lambda-url.eu-west-1.on.aws', http: { method } },
    ...init,
  };
}

describe('invoked with Lambda events', () => {
  it('answers /health and 404 elsewhere', async () => {
    const health = await handler(event('GET', '/health'));
    expect(health).toMatchObject({ statusCode: 200, body: '{"status":"ok"}', isBase64Encoded: false });
    expect(health.headers['content-type']).toContain('application/json');
    expect((await handler(event('GET', '/nope', { rawQueryString: 'a=1' }))).statusCode).toBe(404);
  });

  it('checks the Host: the function URL host must be listed in MCP_ALLOWED_HOSTS', async () => {
    const refused = await handler(
      event('POST', '/mcp', { body: '{}', headers: { 'content-type': 'application/json' } }),
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('Invalid Host');
  });

  it('takes a base64-encoded body (as function URLs send binary and often JSON) and calls the API', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'getPetById', arguments: { petId: 31 }, _meta: MODERN_META },
    });
    const result = await handler(
      event('POST', '/mcp', {
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'getPetById',
        },
        body: Buffer.from(body).toString('base64'),
        isBase64Encoded: true,
      }),
    );
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body).result.structuredContent).toMatchObject({ id: 31, name: 'rex' });
    expect(upstream.requests.map((r) => [r.method, r.url, r.headers['api_key']])).toEqual([
      ['GET', '/v3/pet/31', API_KEY],
    ]);
  });
});

describe('behind a function URL', () => {
  it('serves the 2026-07-28 client: discover, tools/list, a call', async () => {
    const client = await connectModernHttp(`${url}/mcp`);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect((await client.listTools()).tools).toHaveLength(19);
      const result = await client.callTool({ name: 'getPetById', arguments: { petId: 5 } });
      expect(result.structuredContent).toMatchObject({ id: 5 });
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v3/pet/5']);
    } finally {
      await client.close();
    }
  });

  it('serves the 2025-11-25 client (its SSE answers arrive whole)', async () => {
    const client = await connectLegacyHttp(`${url}/mcp`);
    try {
      expect((await client.listTools()).tools).toHaveLength(19);
      const result = await client.callTool({ name: 'getPetById', arguments: { petId: 6 } });
      expect(result.structuredContent).toMatchObject({ id: 6 });
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v3/pet/6']);
    } finally {
      await client.close();
    }
  });
});

describe('code mode on Lambda (Node: programs run in worker threads)', () => {
  let code: BuiltProject;
  let codeHandler: LambdaHttpHandler;
  beforeAll(async () => {
    code = await generateAndBuild(`${REPO_ROOT}/fixtures/specs/petstore.yaml`, { toolMode: 'code' });
    ({ handler: codeHandler } = (await import(pathToFileURL(join(code.dir, 'dist', 'lambda.js')).href)) as {
      handler: LambdaHttpHandler;
    });
  }, 120_000);
  afterAll(() => code?.cleanup());

  let id = 100;
  async function mcp(method: string, params: Record<string, unknown>, name?: string): Promise<{ text: string }> {
    const body = JSON.stringify({ jsonrpc: '2.0', id: id++, method, params: { ...params, _meta: MODERN_META } });
    const result = await codeHandler(
      event('POST', '/mcp', {
        headers: {
          host: '127.0.0.1',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name ? { 'mcp-name': name } : {}),
        },
        body,
        isBase64Encoded: false,
      }),
    );
    expect(result.statusCode).toBe(200);
    return { text: result.body };
  }
  const execute = (program: string) => mcp('tools/call', { name: 'execute', arguments: { code: program } }, 'execute');

  it('contains a memory bomb, and stops a busy loop while other events are answered within 100 ms', async () => {
    expect((await execute('return 1;')).text).toContain('"text":"1"');
    const bomb = await execute(
      'const a = [];\nfor (let i = 0; i < 1900; i++) a.push(new Uint8Array(1 << 20));\nreturn a.length;',
    );
    expect(bomb.text).toContain('ran out of memory');
    await mcp('tools/list', {});
    const started = performance.now();
    let settled = false;
    const loop = execute('while (true) {}').finally(() => (settled = true));
    let longest = 0;
    while (!settled) {
      const listing = performance.now();
      expect((await mcp('tools/list', {})).text).toContain('"execute"');
      longest = Math.max(longest, performance.now() - listing);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await loop).text).toContain('computed for more than 2000 ms');
    expect(performance.now() - started).toBeLessThan(3_000);
    expect(longest).toBeLessThan(100);
  });
});
