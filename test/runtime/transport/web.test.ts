/**
 * createWebServer in-process, as the web targets build it: from catalog text (a Workers text module) and an
 * env object with non-string bindings, upstream through the given fetch. Its one handler answers every path
 * with the Node server's guards: /health, 404, Host and Origin checks, CORS preflight and headers, endpoint
 * auth, the drain's 503; the SDK's v2 client calls a tool through it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { createWebServer, type WebServer } from '../../../templates/runtime/transport/web.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

let catalog: string;
let searchIndex: string;

beforeAll(async () => {
  const result = await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
    out: '/nonexistent/petstore-mcp',
    validate: false,
    write: false,
  });
  catalog = result.files.find((f) => f.path === 'catalog.json')!.contents;
  searchIndex = readFileSync(join(REPO_ROOT, 'generated-examples', 'petstore', 'search-index.json'), 'utf8');
});

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function server(env: Record<string, unknown>, fetch?: typeof globalThis.fetch): Promise<WebServer> {
  return createWebServer({ catalog, searchIndex: () => searchIndex, env, logger: quiet, ...(fetch ? { fetch } : {}) });
}

const post = (headers: Record<string, string> = {}) =>
  new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
  });

describe('createWebServer', () => {
  it('answers /health, 404 elsewhere, and refuses a foreign Host or Origin', async () => {
    const web = await server({ KV: { get: () => undefined } }); // a non-string binding is ignored
    expect(await (await web.fetch(new Request('http://127.0.0.1/health'))).json()).toEqual({ status: 'ok' });
    expect((await web.fetch(new Request('http://127.0.0.1/other'))).status).toBe(404);
    expect((await web.fetch(new Request('http://evil.example/mcp', { method: 'POST', body: '{}' }))).status).toBe(403);
    expect((await web.fetch(post({ origin: 'http://evil.example' }))).status).toBe(403);
    expect((await web.fetch(post({ 'mcp-protocol-version': '2025-11-25' }))).status).toBe(200);
  });

  it('serves MCP_ALLOWED_HOSTS, CORS preflights and headers for MCP_CORS_ORIGINS', async () => {
    const web = await server({ MCP_ALLOWED_HOSTS: 'mcp.example.com', MCP_CORS_ORIGINS: 'https://app.example.com' });
    const preflight = await web.fetch(
      new Request('https://mcp.example.com/mcp', {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      }),
    );
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const answer = await web.fetch(
      new Request('https://mcp.example.com/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          origin: 'https://app.example.com',
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect((await web.fetch(post())).status).toBe(403); // 127.0.0.1 is no longer an allowed host
  });

  it('protects the endpoint with MCP_AUTH_TOKENS: 401 with a Bearer challenge, then 200', async () => {
    const web = await server({ MCP_AUTH_TOKENS: 'tok-1' });
    const refused = await web.fetch(post({ 'mcp-protocol-version': '2025-11-25' }));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const allowed = await web.fetch(post({ 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer tok-1' }));
    expect(allowed.status).toBe(200);
  });

  it('needs MCP_OAUTH_RESOURCE_URL in OAuth mode: a web target knows no address of its own', async () => {
    await expect(
      server({
        MCP_OAUTH_ISSUER: 'https://auth.example.com',
        MCP_OAUTH_INTROSPECTION_URL: 'https://auth.example.com/i',
      }),
    ).rejects.toThrow(/MCP_OAUTH_RESOURCE_URL/);
  });

  it('refuses to start with MCP_STATE_URL on a target that cannot load the Redis client (Workers)', async () => {
    const warnings: string[] = [];
    const logger: Logger = { ...quiet, warn: (message) => void warnings.push(message) };
    const starting = createWebServer({
      catalog,
      searchIndex: () => searchIndex,
      env: { MCP_STATE_URL: 'redis://r' },
      logger,
    });
    await expect(starting).rejects.toThrow('MCP_STATE_URL is set, but this deployment target does not load');
    // Replicas sharing state without a shared signing key would refuse each other's confirmations: said first.
    expect(warnings).toEqual([expect.stringMatching(/^MCP_STATE_URL is set but MCP_SIGNING_KEY is not/)]);
    await expect(server({ MCP_STATE_URL: 'redis://redis.internal:6379' })).rejects.toThrow(
      'MCP_STATE_URL is set, but this deployment target does not load the Redis client: Cloudflare Workers cannot open the TCP connections it needs',
    );
  });

  it('answers 503 once it stops accepting (a drain)', async () => {
    const web = await server({});
    web.stopAccepting();
    const refused = await web.fetch(post());
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
  });

  it('calls the API through the given fetch, with the credential from env and the User-Agent', async () => {
    const seen: Request[] = [];
    const upstream: typeof fetch = async (input, init) => {
      seen.push(new Request(input, init));
      return Response.json({ id: 4, name: 'Tom', photoUrls: [] });
    };
    const web = await server({ API_BASE_URL: 'https://petstore.test/v3', API_KEY: 'web-key-1' }, upstream);
    const client = new Client(
      { name: 'web-test', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
        fetch: (input, init) => web.fetch(new Request(input, init)),
      }),
    );
    const result = await client.callTool({ name: 'getPetById', arguments: { petId: 4 } });
    await client.close();
    expect(result.structuredContent).toMatchObject({ id: 4, name: 'Tom' });
    expect(seen.map((r) => [r.method, r.url, r.headers.get('api_key')])).toEqual([
      ['GET', 'https://petstore.test/v3/pet/4', 'web-key-1'],
    ]);
    expect(seen[0]!.headers.get('user-agent')).toBe('petstore-mcp/1.0.27-SNAPSHOT openapi-to-mcp');
  });
});
