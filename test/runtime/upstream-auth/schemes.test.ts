import { describe, expect, it } from 'vitest';
import {
  configuredSecrets,
  missingCredentialsMessage,
  resolveCredentials,
  type CredentialResolution,
} from '../../../templates/runtime/upstream-auth/schemes.js';
import type { CatalogSecurityScheme } from '../../../templates/runtime/contract/catalog.js';
import type { TokenRequest } from '../../../templates/runtime/upstream-auth/oauth-client.js';

const schemes: CatalogSecurityScheme[] = [
  { name: 'key', kind: 'apiKey', in: 'header', paramName: 'X-Key', env: { value: 'KEY_API_KEY' } },
  { name: 'token', kind: 'oauth2', env: { value: 'TOKEN_TOKEN' } },
  { name: 'basic', kind: 'http-basic', env: { username: 'B_USERNAME', password: 'B_PASSWORD' } },
  { name: 'q', kind: 'apiKey', in: 'query', paramName: 'api_key', env: { value: 'Q_API_KEY' } },
  {
    name: 'cc',
    kind: 'oauth2',
    scheme: 'bearer',
    env: {
      value: 'CC_TOKEN',
      clientId: 'CC_CLIENT_ID',
      clientSecret: 'CC_CLIENT_SECRET',
      tokenUrl: 'CC_TOKEN_URL',
      scopes: 'CC_SCOPES',
    },
    clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: ['read', 'write'] },
  },
  {
    name: 'relative',
    kind: 'oauth2',
    env: { value: 'R_TOKEN', clientId: 'R_CLIENT_ID', clientSecret: 'R_CLIENT_SECRET' },
    clientCredentials: { tokenUrl: 'oauth/token', scopes: [] },
  },
];

function applied(resolution: CredentialResolution) {
  if (!resolution.ok) throw new Error(`not resolved: ${JSON.stringify(resolution)}`);
  return resolution.applied;
}

/** A fetchToken that records what it was asked for and answers `issued-<n>`. */
function tokenRecorder() {
  const requests: TokenRequest[] = [];
  return { requests, fetchToken: async (request: TokenRequest) => `issued-${requests.push(request)}` };
}

describe('runtime credentials: environment', () => {
  it('sends nothing for public operations', async () => {
    expect(applied(await resolveCredentials([], schemes, { env: { KEY_API_KEY: 'k' } }))).toEqual({
      headers: {},
      query: [],
      cookies: [],
      secrets: [],
      tokens: [],
    });
  });

  it('uses the first alternative whose credentials are all configured', async () => {
    const result = applied(await resolveCredentials([['key', 'q'], ['token']], schemes, { env: { TOKEN_TOKEN: 't' } }));
    expect(result).toMatchObject({ headers: { authorization: 'Bearer t' }, query: [], cookies: [] });
  });

  it('applies AND-combined schemes together', async () => {
    const result = applied(
      await resolveCredentials([['key', 'q']], schemes, { env: { KEY_API_KEY: 'k', Q_API_KEY: 'qq' } }),
    );
    expect(result).toMatchObject({ headers: { 'x-key': 'k' }, query: [['api_key', 'qq']], cookies: [] });
    expect(result.secrets).toEqual(expect.arrayContaining(['k', 'qq']));
  });

  it('names the missing variables', async () => {
    expect(await resolveCredentials([['basic']], schemes, { env: {} })).toEqual({
      ok: false,
      missing: [{ scheme: 'basic', variable: 'B_USERNAME' }],
    });
  });

  it('encodes basic credentials, and lists the password and its encodings as secrets', async () => {
    const result = applied(
      await resolveCredentials([['basic']], schemes, { env: { B_USERNAME: 'u', B_PASSWORD: 'p4ss' } }),
    );
    const encoded = Buffer.from('u:p4ss').toString('base64');
    expect(result.headers['authorization']).toBe(`Basic ${encoded}`);
    expect(result.secrets).toEqual(expect.arrayContaining([encoded, 'u:p4ss', 'p4ss']));
  });

  it('accepts a token pasted with its "Bearer " prefix', async () => {
    const result = applied(await resolveCredentials([['token']], schemes, { env: { TOKEN_TOKEN: 'Bearer abc' } }));
    expect(result.headers['authorization']).toBe('Bearer abc');
  });
});

describe('runtime credentials: per caller', () => {
  const callerHeaders = new Map([
    ['key', 'x-upstream-key'],
    ['token', 'authorization'],
    ['basic', 'x-upstream-basic'],
  ]);

  it('a caller value wins over the environment for its scheme; other schemes still come from the environment', async () => {
    const caller = new Map([['key', 'caller-key']]);
    const result = applied(
      await resolveCredentials([['key', 'q']], schemes, {
        env: { KEY_API_KEY: 'env-key', Q_API_KEY: 'env-q' },
        caller,
        callerHeaders,
      }),
    );
    expect(result.headers['x-key']).toBe('caller-key');
    expect(result.query).toEqual([['api_key', 'env-q']]);
    expect(result.secrets).not.toContain('env-key');
  });

  it('a bearer value may come with or without "Bearer "', async () => {
    for (const value of ['Bearer caller-t', 'caller-t']) {
      const result = applied(
        await resolveCredentials([['token']], schemes, { env: {}, caller: new Map([['token', value]]) }),
      );
      expect(result.headers['authorization']).toBe('Bearer caller-t');
    }
  });

  it('basic from a caller: user:password or a whole Basic value', async () => {
    const encoded = Buffer.from('ann:pw').toString('base64');
    for (const value of ['ann:pw', `Basic ${encoded}`]) {
      const result = applied(
        await resolveCredentials([['basic']], schemes, { env: {}, caller: new Map([['basic', value]]) }),
      );
      expect(result.headers['authorization']).toBe(`Basic ${encoded}`);
      expect(result.secrets).toContain(encoded);
    }
  });

  it('a missing credential names the variable and the header a caller could send', async () => {
    const result = await resolveCredentials([['key']], schemes, { env: {}, callerHeaders });
    expect(result).toEqual({
      ok: false,
      missing: [{ scheme: 'key', variable: 'KEY_API_KEY', header: 'x-upstream-key' }],
    });
    if (result.ok || !('missing' in result)) throw new Error('expected missing');
    expect(missingCredentialsMessage('getThing', result.missing)).toBe(
      "Missing credentials for getThing: set KEY_API_KEY in the server's environment. Over HTTP a caller may send the x-upstream-key header instead.",
    );
  });
});

describe('runtime credentials: OAuth 2 client credentials', () => {
  const ids = { CC_CLIENT_ID: 'client-1', CC_CLIENT_SECRET: 'secret-1' };

  it('fetches a token with the flow URL and scopes when the client id and secret are set', async () => {
    const recorder = tokenRecorder();
    const result = applied(await resolveCredentials([['cc']], schemes, { env: ids, fetchToken: recorder.fetchToken }));
    expect(result.headers['authorization']).toBe('Bearer issued-1');
    expect(result.secrets).toContain('issued-1');
    expect(recorder.requests).toEqual([
      {
        tokenUrl: 'https://auth.example.com/token',
        clientId: 'client-1',
        clientSecret: 'secret-1',
        scopes: ['read', 'write'],
      },
    ]);
  });

  it('a ready token wins: nothing is fetched', async () => {
    const recorder = tokenRecorder();
    const result = applied(
      await resolveCredentials([['cc']], schemes, {
        env: { ...ids, CC_TOKEN: 'ready' },
        fetchToken: recorder.fetchToken,
      }),
    );
    expect(result.headers['authorization']).toBe('Bearer ready');
    expect(recorder.requests).toHaveLength(0);
  });

  it('the token URL and scopes can be overridden; a relative token URL is resolved against the base URL', async () => {
    const recorder = tokenRecorder();
    await resolveCredentials([['cc']], schemes, {
      env: { ...ids, CC_TOKEN_URL: 'http://127.0.0.1:9/t', CC_SCOPES: 'a, b c' },
      fetchToken: recorder.fetchToken,
    });
    await resolveCredentials([['relative']], schemes, {
      env: { R_CLIENT_ID: 'r', R_CLIENT_SECRET: 's' },
      baseUrl: 'https://api.example.com/v1',
      fetchToken: recorder.fetchToken,
    });
    expect(recorder.requests.map((r) => [r.tokenUrl, r.scopes])).toEqual([
      ['http://127.0.0.1:9/t', ['a', 'b', 'c']],
      ['https://api.example.com/v1/oauth/token', []],
    ]);
  });

  it('without a token or client credentials, the message offers both', async () => {
    const result = await resolveCredentials([['cc']], schemes, { env: { CC_CLIENT_ID: 'only-the-id' } });
    if (result.ok || !('missing' in result)) throw new Error('expected missing');
    expect(missingCredentialsMessage('t', result.missing)).toBe(
      "Missing credentials for t: set CC_TOKEN (or CC_CLIENT_ID and CC_CLIENT_SECRET) in the server's environment.",
    );
  });

  it('a failed token request names the scheme and the ready-token variable, never the secret', async () => {
    const result = await resolveCredentials([['cc']], schemes, {
      env: ids,
      fetchToken: async () => {
        throw new Error('the token endpoint answered HTTP 401 (invalid_client)');
      },
    });
    expect(result.ok).toBe(false);
    const failed = 'failed' in result ? result.failed : '';
    expect(failed).toContain('scheme cc');
    expect(failed).toContain('invalid_client');
    expect(failed).toContain('CC_TOKEN');
    expect(failed).not.toContain('secret-1');
  });

  it('client secrets count as configured secrets', () => {
    expect(configuredSecrets(schemes, { ...ids, CC_TOKEN: 'ready-1', KEY_API_KEY: 'kk' })).toEqual(
      expect.arrayContaining(['secret-1', 'ready-1', 'kk']),
    );
  });
});
