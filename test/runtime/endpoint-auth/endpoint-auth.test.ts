/**
 * The protected HTTP endpoint in-process: static bearer tokens, and OAuth 2.1 resource-server mode against a
 * local introspection endpoint (Protected Resource Metadata, challenges, audience/issuer/expiry/scope checks).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/server';
import { readConfig } from '../../../templates/runtime/server/config.js';
import { EndpointAuthConfigError } from '../../../templates/runtime/endpoint-auth/endpoint-auth.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { startHttp, type HttpServerHandle } from '../../../templates/runtime/transport/http-server.js';
import { basicAuth, startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';

const PROTOCOL = '2026-07-28';

/** One tool, `whoami`, answering with the verified token info the SDK handed to the handler. */
function factory(): Server {
  const server = new Server({ name: 't', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({
    tools: [{ name: 'whoami', description: 'who', inputSchema: { type: 'object' as const } }],
  }));
  server.setRequestHandler('tools/call', (_request, ctx) => {
    const info = ctx.http?.authInfo;
    return {
      content: [
        {
          type: 'text' as const,
          text: JSON.stringify(
            info ? { clientId: info.clientId, scopes: info.scopes, resource: info.resource?.href } : null,
          ),
        },
      ],
    };
  });
  return server;
}

const logged: string[] = [];
const memoryLog: Logger = {
  debug: (m, f) => void logged.push(JSON.stringify({ m, f })),
  info: (m, f) => void logged.push(JSON.stringify({ m, f })),
  warn: (m, f) => void logged.push(JSON.stringify({ m, f })),
  error: (m, f) => void logged.push(JSON.stringify({ m, f })),
};

let handle: HttpServerHandle | undefined;
let as: OAuthServer;

beforeAll(async () => {
  as = await startOAuthServer();
});
afterAll(async () => {
  await as?.close();
});
afterEach(async () => {
  await handle?.close();
  handle = undefined;
  as.requests.length = 0;
  logged.length = 0;
});

async function start(env: Record<string, string>): Promise<string> {
  const config = readConfig({ PORT: '1', ...env });
  config.http.port = 0;
  handle = await startHttp(factory, config, memoryLog, { handleSignals: false });
  return `http://127.0.0.1:${handle.port}`;
}

function whoami(base: string, authorization?: string): Promise<Response> {
  return fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
      ...(authorization ? { authorization } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'whoami',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': PROTOCOL,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
}

async function toolText(res: Response): Promise<unknown> {
  const body = (await res.json()) as { result: { content: Array<{ text: string }> } };
  return JSON.parse(body.result.content[0]!.text) as unknown;
}

describe('static bearer tokens (MCP_AUTH_TOKENS)', () => {
  it('401 with a Bearer challenge without a token or with a wrong one; 200 with a listed one', async () => {
    const base = await start({ MCP_AUTH_TOKENS: 'first-token-111, second-token-222' });
    const missing = await whoami(base);
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    const wrong = await whoami(base, 'Bearer second-token-22');
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect((await whoami(base, 'Basic c2Vjb25kLXRva2VuLTIyMg==')).status).toBe(401);
    const ok = await whoami(base, 'Bearer second-token-222');
    expect(ok.status).toBe(200);
    expect(await toolText(ok)).toEqual({ clientId: 'static-token-2', scopes: [] });
  });

  it('leaves /health open and never logs a token', async () => {
    const base = await start({ MCP_AUTH_TOKENS: 'first-token-111' });
    expect((await fetch(`${base}/health`)).status).toBe(200);
    await whoami(base, 'Bearer first-token-111');
    await whoami(base, 'Bearer not-the-token-999');
    expect(logged.join('\n')).not.toMatch(/first-token-111|not-the-token-999/);
  });

  it('serves no OAuth metadata in static mode', async () => {
    const base = await start({ MCP_AUTH_TOKENS: 'first-token-111' });
    expect((await fetch(`${base}/.well-known/oauth-protected-resource`)).status).toBe(404);
  });
});

describe('OAuth 2.1 resource server (introspection)', () => {
  let resource = '';
  const issuer = () => as.url;
  const env = () => ({
    MCP_OAUTH_ISSUER: issuer(),
    MCP_OAUTH_INTROSPECTION_URL: `${as.url}/introspect`,
    MCP_OAUTH_CLIENT_ID: 'mcp-server',
    MCP_OAUTH_CLIENT_SECRET: 'intro-secret-1',
  });
  const now = () => Math.floor(Date.now() / 1000);
  /** Introspection answers by token: `good` is active for this server, the others each break one rule. */
  const answers = (token: string | undefined): Record<string, unknown> => {
    const good = {
      active: true,
      client_id: 'alice-app',
      scope: 'mcp read',
      exp: now() + 600,
      aud: resource,
      iss: issuer(),
      sub: 'alice',
    };
    switch (token) {
      case 'good-token':
        return good;
      case 'array-aud':
        return { ...good, aud: ['https://other.example', resource] };
      case 'inactive':
        return { active: false };
      case 'other-audience':
        return { ...good, aud: 'https://other.example/mcp' };
      case 'other-issuer':
        return { ...good, iss: 'https://evil.example' };
      case 'no-exp':
        return { ...good, exp: undefined };
      case 'expired':
        return { ...good, exp: now() - 5 };
      case 'no-scope':
        return { ...good, scope: 'read' };
      default:
        return { active: false };
    }
  };

  async function startOAuth(extra: Record<string, string> = {}): Promise<string> {
    as.onIntrospect((req) => answers(req.form['token']));
    const base = await start({ ...env(), ...extra });
    resource = extra['MCP_OAUTH_RESOURCE_URL'] ?? `${base}/mcp`;
    return base;
  }

  it('serves the Protected Resource Metadata at the root and the path-suffixed location', async () => {
    const base = await startOAuth({ MCP_OAUTH_SCOPES: 'mcp' });
    for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        resource: `${base}/mcp`,
        authorization_servers: [issuer()],
        scopes_supported: ['mcp'],
      });
    }
    expect((await fetch(`${base}/.well-known/oauth-protected-resource`, { method: 'POST' })).status).toBe(405);
    // The authorization server's own metadata is its business: not guessed here.
    expect((await fetch(`${base}/.well-known/oauth-authorization-server`)).status).toBe(404);
  });

  it('401 challenges carry resource_metadata', async () => {
    const base = await startOAuth();
    const res = await whoami(base);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain(
      `resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
  });

  it('an active token for this server is accepted and handed to the SDK as authInfo', async () => {
    const base = await startOAuth();
    const res = await whoami(base, 'Bearer good-token');
    expect(res.status).toBe(200);
    expect(await toolText(res)).toEqual({ clientId: 'alice-app', scopes: ['mcp', 'read'], resource: `${base}/mcp` });
    expect(as.requests).toEqual([
      {
        path: '/introspect',
        authorization: basicAuth('mcp-server', 'intro-secret-1'),
        contentType: 'application/x-www-form-urlencoded',
        form: { token: 'good-token', token_type_hint: 'access_token' },
      },
    ]);
    expect((await whoami(base, 'Bearer array-aud')).status).toBe(200);
  });

  it('refuses inactive, foreign-audience, foreign-issuer, expiry-less and expired tokens with 401', async () => {
    const base = await startOAuth();
    for (const token of ['inactive', 'other-audience', 'other-issuer', 'no-exp', 'expired', 'unknown']) {
      const res = await whoami(base, `Bearer ${token}`);
      expect(res.status, token).toBe(401);
      expect(res.headers.get('www-authenticate'), token).toMatch(/^Bearer error="invalid_token"/);
    }
  });

  it('MCP_OAUTH_SCOPES: a token without them gets 403 insufficient_scope', async () => {
    const base = await startOAuth({ MCP_OAUTH_SCOPES: 'mcp' });
    const res = await whoami(base, 'Bearer no-scope');
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    expect((await whoami(base, 'Bearer good-token')).status).toBe(200);
  });

  it('MCP_OAUTH_RESOURCE_URL sets the resource and the audience', async () => {
    const base = await startOAuth({ MCP_OAUTH_RESOURCE_URL: 'https://mcp.example.com/mcp' });
    expect(await (await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).json()).toMatchObject({
      resource: 'https://mcp.example.com/mcp',
    });
    expect((await whoami(base, 'Bearer good-token')).status).toBe(200);
  });

  it('static tokens and OAuth together: a static token needs no introspection', async () => {
    const base = await startOAuth({ MCP_AUTH_TOKENS: 'ops-token-123' });
    expect(await toolText(await whoami(base, 'Bearer ops-token-123'))).toMatchObject({ clientId: 'static-token-1' });
    expect(as.requests).toHaveLength(0);
    expect((await whoami(base, 'Bearer good-token')).status).toBe(200);
  });

  it('an introspection endpoint that cannot be reached is a server error, not a pass', async () => {
    as.onIntrospect(() => ({ active: true }));
    const base = await start({ ...env(), MCP_OAUTH_INTROSPECTION_URL: 'http://127.0.0.1:9/introspect' });
    expect((await whoami(base, 'Bearer good-token')).status).toBe(500);
  });

  it('refuses to start without an introspection endpoint, or with a plain-http issuer off localhost', async () => {
    await expect(start({ MCP_OAUTH_ISSUER: 'https://auth.example.com' })).rejects.toThrow(EndpointAuthConfigError);
    await expect(start({ ...env(), MCP_OAUTH_ISSUER: 'http://auth.example.com' })).rejects.toThrow(/HTTPS/);
  });

  it('never logs a token or the introspection secret', async () => {
    const base = await startOAuth();
    await whoami(base, 'Bearer good-token');
    await whoami(base, 'Bearer inactive');
    expect(logged.join('\n')).not.toMatch(/good-token|inactive|intro-secret-1/);
  });
});
