/**
 * Authentication end to end, on a server generated from fixtures/specs/features/auth.yaml with
 * `--caller-credentials headerKey=X-Upstream-Key,queryKey=X-Upstream-Query,bearerAuth=X-Upstream-Token`:
 * OAuth 2 client credentials against a local token endpoint, missing credentials, per-caller credentials
 * over HTTP (two callers, interleaved), the endpoint's own token never forwarded, and redaction of echoed
 * credentials in results and logs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport, type Client } from '@modelcontextprotocol/client';
import { generate } from '../../src/pipeline.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { connectModernStdio, modernClient } from '../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { basicAuth, startOAuthServer, type OAuthServer } from '../helpers/oauth-server.js';
import { startHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/auth.yaml`;
const MAPPING = 'headerKey=X-Upstream-Key,queryKey=X-Upstream-Query,bearerAuth=X-Upstream-Token';
/** Set in the generator's own environment: it must not end up in any generated file. */
const GENERATION_ENV_SECRET = 'gen-env-secret-4242';

let project: BuiltProject;
let upstream: MockUpstream;
let as: OAuthServer;

beforeAll(async () => {
  upstream = await startMockUpstream();
  as = await startOAuthServer();
  process.env['BEARER_AUTH_TOKEN'] = GENERATION_ENV_SECRET;
  try {
    project = await generateAndBuild(SPEC, { callerCredentials: MAPPING });
  } finally {
    delete process.env['BEARER_AUTH_TOKEN'];
  }
});

afterAll(async () => {
  await upstream?.close();
  await as?.close();
  project?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
  as.requests.length = 0;
  upstream.respond(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }));
  as.onToken((_req, n) => ({ body: { access_token: `at-${n}`, token_type: 'Bearer', expires_in: 3600 } }));
});

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

function text(result: CallResult): string {
  return result.content.map((c) => c.text ?? '').join('');
}

function queryOf(req: RecordedRequest): URLSearchParams {
  return new URL(req.url, 'http://x').searchParams;
}

async function connectHttpAs(url: string, headers: Record<string, string>): Promise<Client> {
  const client = modernClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

// ---------------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------------

describe('auth.yaml: what is generated', () => {
  interface Scheme {
    name: string;
    env: Record<string, string>;
    clientCredentials?: { tokenUrl: string; scopes: string[] };
  }
  const catalog = () =>
    JSON.parse(readFileSync(join(project.dir, 'catalog.json'), 'utf8')) as {
      securitySchemes: Scheme[];
      callerCredentials?: unknown;
    };

  it('keeps the client-credentials flow (token URL, scopes) and its variables in catalog.json', () => {
    const machine = catalog().securitySchemes.find((s) => s.name === 'machineAuth')!;
    expect(machine.clientCredentials).toEqual({
      tokenUrl: 'https://login.auth-fixture.example.com/oauth/token',
      scopes: ['read', 'write'],
    });
    expect(machine.env).toEqual({
      value: 'MACHINE_AUTH_TOKEN',
      clientId: 'MACHINE_AUTH_CLIENT_ID',
      clientSecret: 'MACHINE_AUTH_CLIENT_SECRET',
      tokenUrl: 'MACHINE_AUTH_TOKEN_URL',
      scopes: 'MACHINE_AUTH_SCOPES',
    });
  });

  it('stores the caller-credentials mapping chosen at generation', () => {
    expect(catalog().callerCredentials).toEqual({
      mode: 'headers',
      map: { headerKey: 'x-upstream-key', queryKey: 'x-upstream-query', bearerAuth: 'x-upstream-token' },
    });
  });

  it('the docs and .env.example document every variable and the mapping', () => {
    const envExample = readFileSync(join(project.dir, '.env.example'), 'utf8');
    const environment = readFileSync(join(project.dir, 'docs', 'environment.md'), 'utf8');
    const authentication = readFileSync(join(project.dir, 'docs', 'authentication.md'), 'utf8');
    expect(readFileSync(join(project.dir, 'README.md'), 'utf8')).toContain('](docs/authentication.md)');
    const variables = [
      'BEARER_AUTH_TOKEN',
      'HEADER_KEY_API_KEY',
      'QUERY_KEY_API_KEY',
      'BASIC_AUTH_USERNAME',
      'BASIC_AUTH_PASSWORD',
      'MACHINE_AUTH_TOKEN',
      'MACHINE_AUTH_CLIENT_ID',
      'MACHINE_AUTH_CLIENT_SECRET',
      'MACHINE_AUTH_TOKEN_URL',
      'MACHINE_AUTH_SCOPES',
      'MCP_CALLER_CREDENTIALS',
      'MCP_AUTH_TOKENS',
      'MCP_OAUTH_ISSUER',
      'MCP_OAUTH_INTROSPECTION_URL',
      'MCP_OAUTH_CLIENT_ID',
      'MCP_OAUTH_CLIENT_SECRET',
      'MCP_OAUTH_RESOURCE_URL',
      'MCP_OAUTH_AUDIENCE',
      'MCP_OAUTH_SCOPES',
    ];
    for (const name of variables) {
      expect(envExample, name).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
      expect(environment, name).toContain(`| \`${name}\` |`);
    }
    expect(authentication).toContain('## Credentials for the API');
    expect(authentication).toContain('| `headerKey` | `x-upstream-key` |');
    expect(authentication).toContain('/.well-known/oauth-protected-resource');
  });

  it('no generated file holds a credential from the generator environment', () => {
    for (const file of project.result.files) expect(file.contents, file.path).not.toContain(GENERATION_ENV_SECRET);
  });

  it('a mapping entry for an unknown scheme is a warning; a malformed mapping is an options error', async () => {
    const result = await generate({
      spec: SPEC,
      validate: false,
      write: false,
      callerCredentials: 'nope=X-Nope,headerKey=X-Key',
    });
    expect(result.diagnostics.filter((d) => d.code === 'OTM_SECURITY_UNKNOWN').map((d) => d.message)).toEqual([
      '--caller-credentials names unknown security scheme nope; the entry is ignored',
    ]);
    await expect(
      generate({ spec: SPEC, validate: false, write: false, callerCredentials: 'headerKey' }),
    ).rejects.toThrow(/--caller-credentials/);
  });
});

// ---------------------------------------------------------------------------------------------------
// Missing credentials (stdio)
// ---------------------------------------------------------------------------------------------------

describe('without credentials: an error naming the variable, and no upstream request', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connectModernStdio(project.entry, { API_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('every secured tool fails with the variables to set; nothing reaches the API or the token endpoint', async () => {
    const expected: Record<string, string> = {
      listItems:
        "Missing credentials for listItems: set BEARER_AUTH_TOKEN in the server's environment. Over HTTP a caller may send the x-upstream-token header instead.",
      getKeyed:
        "Missing credentials for getKeyed: set HEADER_KEY_API_KEY and QUERY_KEY_API_KEY in the server's environment. Over HTTP a caller may send the x-upstream-key header and the x-upstream-query header instead.",
      getMachine:
        "Missing credentials for getMachine: set MACHINE_AUTH_TOKEN (or MACHINE_AUTH_CLIENT_ID and MACHINE_AUTH_CLIENT_SECRET) in the server's environment.",
      basicOrKey: "Missing credentials for basicOrKey: set BASIC_AUTH_USERNAME in the server's environment.",
    };
    for (const [tool, message] of Object.entries(expected)) {
      const result = await call(client, tool);
      expect(result.isError, tool).toBe(true);
      expect(text(result)).toBe(message);
    }
    expect(upstream.requests).toHaveLength(0);
    expect(as.requests).toHaveLength(0);
    const open = await call(client, 'publicOp');
    expect(open.isError).toBeFalsy();
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.headers['authorization']).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------
// OAuth 2 client credentials (stdio)
// ---------------------------------------------------------------------------------------------------

describe('OAuth 2 client credentials against a local token endpoint', () => {
  const clientEnv = () => ({
    API_BASE_URL: upstream.url,
    MACHINE_AUTH_CLIENT_ID: 'machine-client',
    MACHINE_AUTH_CLIENT_SECRET: 'machine-secret-0001',
    MACHINE_AUTH_TOKEN_URL: `${as.url}/token`,
  });

  it('fetches one token (client_secret_basic, grant_type, scope), caches it, and shares it between concurrent calls', async () => {
    const client = await connectModernStdio(project.entry, clientEnv());
    try {
      as.onToken((_req, n) => ({
        body: { access_token: `machine-at-${n}`, token_type: 'Bearer', expires_in: 3600 },
        delayMs: 50,
      }));
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) => call(client, 'getMachine', { tag: `c${i}` })),
      );
      for (const result of results) expect(result.isError, text(result)).toBeFalsy();
      for (let i = 0; i < 3; i++) expect((await call(client, 'getMachine')).isError).toBeFalsy();
      expect(as.requests).toEqual([
        {
          path: '/token',
          authorization: basicAuth('machine-client', 'machine-secret-0001'),
          contentType: 'application/x-www-form-urlencoded',
          form: { grant_type: 'client_credentials', scope: 'read write' },
        },
      ]);
      expect(upstream.requests).toHaveLength(13);
      for (const req of upstream.requests) expect(req.headers['authorization']).toBe('Bearer machine-at-1');
    } finally {
      await client.close();
    }
  });

  it('a token the API refuses (401) is dropped: the call gets a new one and is sent once more, and later calls use it', async () => {
    upstream.respond((req) =>
      req.headers['authorization'] === 'Bearer machine-at-1'
        ? { status: 401, headers: { 'content-type': 'application/json' }, body: '{"message":"token revoked"}' }
        : { status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' },
    );
    as.onToken((_req, n) => ({ body: { access_token: `machine-at-${n}`, token_type: 'Bearer', expires_in: 3600 } }));
    const client = await connectModernStdio(project.entry, clientEnv());
    try {
      const first = await call(client, 'getMachine');
      expect(first.isError, text(first)).toBeFalsy();
      expect((await call(client, 'getMachine')).isError).toBeFalsy();
      expect(upstream.requests.map((r) => r.headers['authorization'])).toEqual([
        'Bearer machine-at-1',
        'Bearer machine-at-2',
        'Bearer machine-at-2',
      ]);
      expect(as.requests).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a ready token wins over the client credentials: no token request, even when the token URL is unreachable', async () => {
    const client = await connectModernStdio(project.entry, {
      ...clientEnv(),
      MACHINE_AUTH_TOKEN: 'ready-machine-token',
      MACHINE_AUTH_TOKEN_URL: 'http://127.0.0.1:9/token',
    });
    try {
      expect((await call(client, 'getMachine')).isError).toBeFalsy();
      expect(upstream.requests[0]!.headers['authorization']).toBe('Bearer ready-machine-token');
      expect(as.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('an unreachable or refusing token endpoint is a tool error naming the scheme, without the secret and without an API request', async () => {
    const client = await connectModernStdio(project.entry, {
      ...clientEnv(),
      MACHINE_AUTH_TOKEN_URL: 'http://127.0.0.1:9/token',
    });
    try {
      const unreachable = await call(client, 'getMachine');
      expect(unreachable.isError).toBe(true);
      expect(text(unreachable)).toMatch(
        /^Cannot get an OAuth 2 access token for getMachine: scheme machineAuth: cannot reach the token endpoint http:\/\/127\.0\.0\.1:9\/token/,
      );
      expect(text(unreachable)).toContain('MACHINE_AUTH_TOKEN');
    } finally {
      await client.close();
    }
    as.onToken(() => ({
      status: 401,
      body: { error: 'invalid_client', error_description: 'secret machine-secret-0001 is wrong' },
    }));
    const refused = await connectModernStdio(project.entry, clientEnv());
    try {
      const result = await call(refused, 'getMachine');
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('answered HTTP 401 (invalid_client)');
      expect(text(result)).not.toContain('machine-secret-0001');
    } finally {
      await refused.close();
    }
    expect(upstream.requests).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------------------------------
// Per-caller credentials over HTTP
// ---------------------------------------------------------------------------------------------------

describe('per-caller credentials over HTTP', () => {
  let server: HttpServerProcess;
  const callers = {
    A: {
      authorization: 'Bearer mcp-token-a',
      'x-upstream-key': 'key-A-111',
      'x-upstream-query': 'query-A-111',
      'x-upstream-token': 'bearer-A-111',
    },
    B: {
      authorization: 'Bearer mcp-token-b',
      'x-upstream-key': 'key-B-222',
      'x-upstream-query': 'query-B-222',
      'x-upstream-token': 'bearer-B-222',
    },
  };

  beforeAll(async () => {
    server = await startHttpServer(project.entry, {
      API_BASE_URL: upstream.url,
      MCP_AUTH_TOKENS: 'mcp-token-a,mcp-token-b,mcp-token-c',
      // The environment's own credential, used only when a caller sends none.
      BEARER_AUTH_TOKEN: 'env-bearer-999',
    });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("two callers × 50 interleaved concurrent calls: every upstream request carries its own caller's credentials", async () => {
    const a = await connectHttpAs(server.url, callers.A);
    const b = await connectHttpAs(server.url, callers.B);
    try {
      const plan = [
        ...Array.from({ length: 50 }, (_, i) => ({ who: 'A' as const, i })),
        ...Array.from({ length: 50 }, (_, i) => ({ who: 'B' as const, i })),
      ];
      for (let i = plan.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [plan[i], plan[j]] = [plan[j]!, plan[i]!];
      }
      const results = await Promise.all(
        plan.map(({ who, i }) =>
          call(who === 'A' ? a : b, i % 2 === 0 ? 'listItems' : 'getKeyed', { tag: `${who}-${i}` }),
        ),
      );
      for (const result of results) expect(result.isError, text(result)).toBeFalsy();
      expect(upstream.requests).toHaveLength(100);
      const seen = new Set<string>();
      for (const req of upstream.requests) {
        const tag = queryOf(req).get('tag')!;
        seen.add(tag);
        const who = tag.split('-')[0] as 'A' | 'B';
        const own = callers[who];
        if (req.url.startsWith('/items')) {
          expect(req.headers['authorization'], tag).toBe(`Bearer ${own['x-upstream-token']}`);
        } else {
          expect(req.url.startsWith('/keyed'), tag).toBe(true);
          expect(req.headers['x-api-key'], tag).toBe(own['x-upstream-key']);
          expect(queryOf(req).get('api_key'), tag).toBe(own['x-upstream-query']);
          // The MCP client's own token for this server is never forwarded.
          expect(req.headers['authorization'], tag).toBeUndefined();
        }
        expect(JSON.stringify(req.headers), tag).not.toContain('mcp-token');
      }
      expect(seen.size).toBe(100);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a caller without credential headers falls back to the environment, and is told which header to send otherwise', async () => {
    const c = await connectHttpAs(server.url, { authorization: 'Bearer mcp-token-c' });
    try {
      expect((await call(c, 'listItems', { tag: 'c' })).isError).toBeFalsy();
      expect(upstream.requests[0]!.headers['authorization']).toBe('Bearer env-bearer-999');
      const keyed = await call(c, 'getKeyed');
      expect(keyed.isError).toBe(true);
      expect(text(keyed)).toContain('x-upstream-key header');
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await c.close();
    }
  });

  it('the endpoint refuses clients without a listed token', async () => {
    await expect(connectHttpAs(server.url, { 'x-upstream-key': 'key-A-111' })).rejects.toThrow();
    const res = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('MCP_CALLER_CREDENTIALS at run time', () => {
  it("bearerAuth=authorization forwards the caller's Authorization header, and only for that scheme", async () => {
    const server = await startHttpServer(project.entry, {
      API_BASE_URL: upstream.url,
      MCP_CALLER_CREDENTIALS: 'bearerAuth=authorization',
    });
    try {
      const client = await connectHttpAs(server.url, {
        authorization: 'Bearer caller-own-token',
        'x-upstream-key': 'ignored-key',
      });
      try {
        expect((await call(client, 'listItems')).isError).toBeFalsy();
        expect(upstream.requests[0]!.headers['authorization']).toBe('Bearer caller-own-token');
        const keyed = await call(client, 'getKeyed');
        expect(keyed.isError).toBe(true);
        expect(text(keyed)).toContain('HEADER_KEY_API_KEY');
        expect(upstream.requests).toHaveLength(1);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('off: the generated mapping is ignored and caller headers are never read', async () => {
    const server = await startHttpServer(project.entry, { API_BASE_URL: upstream.url, MCP_CALLER_CREDENTIALS: 'off' });
    try {
      const client = await connectHttpAs(server.url, { 'x-upstream-token': 'bearer-A-111' });
      try {
        const result = await call(client, 'listItems');
        expect(result.isError).toBe(true);
        expect(text(result)).toBe(
          "Missing credentials for listItems: set BEARER_AUTH_TOKEN in the server's environment.",
        );
        expect(upstream.requests).toHaveLength(0);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('a malformed value stops the server at start-up', async () => {
    await expect(
      startHttpServer(project.entry, { API_BASE_URL: upstream.url, MCP_CALLER_CREDENTIALS: 'bearerAuth' }),
    ).rejects.toThrow(/caller credentials/);
  });
});

// ---------------------------------------------------------------------------------------------------
// Redaction
// ---------------------------------------------------------------------------------------------------

describe('credentials echoed by the API are redacted from results and never logged', () => {
  let server: HttpServerProcess;
  let stderr = '';
  const secrets = {
    header: 'hdr-secret-1234',
    query: 'qry-secret-5678',
    envBearer: 'env-bearer-secret-9012',
    callerBearer: 'caller-bearer-3456',
    mcpToken: 'mcp-endpoint-7890',
  };

  /** The upstream answers with everything it received: the Authorization and key headers and the URL. */
  const echo = (status: number) => (req: RecordedRequest) => ({
    status,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      error: status >= 400 ? 'unauthorized' : undefined,
      got: { authorization: req.headers['authorization'] ?? null, key: req.headers['x-api-key'] ?? null, url: req.url },
    }),
  });

  beforeAll(async () => {
    server = await startHttpServer(project.entry, {
      API_BASE_URL: upstream.url,
      LOG_LEVEL: 'debug',
      HEADER_KEY_API_KEY: secrets.header,
      QUERY_KEY_API_KEY: secrets.query,
      BEARER_AUTH_TOKEN: secrets.envBearer,
      MCP_AUTH_TOKENS: secrets.mcpToken,
      MCP_CALLER_CREDENTIALS: 'bearerAuth=X-Upstream-Token',
    });
    server.child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  });
  afterAll(async () => {
    await server?.stop();
  });

  function expectNoSecret(value: unknown): void {
    const serialized = JSON.stringify(value);
    for (const secret of Object.values(secrets)) expect(serialized).not.toContain(secret);
  }

  it('in a 401 body and in a 200 body: the echoed Authorization header and query key show as [redacted]', async () => {
    const env = await connectHttpAs(server.url, { authorization: `Bearer ${secrets.mcpToken}` });
    const caller = await connectHttpAs(server.url, {
      authorization: `Bearer ${secrets.mcpToken}`,
      'x-upstream-token': secrets.callerBearer,
    });
    try {
      upstream.respond(echo(401));
      const keyed401 = await call(env, 'getKeyed', { tag: 't' });
      expect(keyed401.isError).toBe(true);
      expect(text(keyed401)).toContain('401');
      expect(text(keyed401)).toContain('"key":"[redacted]"');
      expect(text(keyed401)).toContain('api_key=[redacted]');
      expectNoSecret(keyed401);
      const bearer401 = await call(caller, 'listItems');
      expect(text(bearer401)).toContain('"authorization":"Bearer [redacted]"');
      expectNoSecret(bearer401);

      upstream.respond(echo(200));
      const keyed200 = await call(env, 'getKeyed', { tag: 't' });
      expect(keyed200.isError).toBeFalsy();
      expect(text(keyed200)).toContain('"key":"[redacted]"');
      expect(keyed200.structuredContent).toMatchObject({
        got: { key: '[redacted]', url: '/keyed?tag=t&api_key=[redacted]' },
      });
      expectNoSecret(keyed200);
      const bearer200 = await call(env, 'listItems');
      expect(bearer200.structuredContent).toMatchObject({ got: { authorization: 'Bearer [redacted]' } });
      expectNoSecret(bearer200);
      expect(upstream.requests).toHaveLength(4);
    } finally {
      await env.close();
      await caller.close();
    }
  });

  it('the server log (stderr, debug level) holds none of the credentials', async () => {
    await new Promise((r) => setTimeout(r, 200));
    expect(stderr).toContain('upstream call');
    for (const secret of Object.values(secrets)) expect(stderr).not.toContain(secret);
  });
});
