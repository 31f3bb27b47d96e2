/** OAuth 2 client credentials against a local token endpoint: the request, caching, refresh, dedupe, errors. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ClientCredentialsTokens,
  TokenRequestError,
  type TokenRequest,
} from '../../../templates/runtime/upstream-auth/oauth-client.js';
import { basicAuth, startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';

let as: OAuthServer;
let request: TokenRequest;

beforeAll(async () => {
  as = await startOAuthServer();
});
afterAll(async () => {
  await as?.close();
});
beforeEach(() => {
  as.requests.length = 0;
  as.onToken((_req, n) => ({ body: { access_token: `at-${n}`, token_type: 'Bearer', expires_in: 3600 } }));
  request = { tokenUrl: `${as.url}/token`, clientId: 'client 1', clientSecret: 's3cret:x', scopes: ['read', 'write'] };
});

/** A clock the test moves by hand. */
function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

describe('client credentials tokens', () => {
  it('POSTs grant_type and scope as a form, with the client id and secret as HTTP Basic (form-encoded first)', async () => {
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000 });
    expect(await tokens.token(request)).toBe('at-1');
    expect(as.requests).toEqual([
      {
        path: '/token',
        authorization: basicAuth('client+1', 's3cret%3Ax'),
        contentType: 'application/x-www-form-urlencoded',
        form: { grant_type: 'client_credentials', scope: 'read write' },
      },
    ]);
  });

  it('leaves scope out when the flow has none', async () => {
    await new ClientCredentialsTokens({ timeoutMs: 5000 }).token({ ...request, scopes: [] });
    expect(as.requests[0]!.form).toEqual({ grant_type: 'client_credentials' });
  });

  it('keeps the token until a minute before it expires, then fetches a new one', async () => {
    const time = clock();
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000, now: time.now });
    expect(await tokens.token(request)).toBe('at-1');
    time.advance(3600_000 - 61_000);
    expect(await tokens.token(request)).toBe('at-1');
    time.advance(2_000);
    expect(await tokens.token(request)).toBe('at-2');
    expect(as.requests).toHaveLength(2);
  });

  it('uses a short-lived token for at least half its life', async () => {
    as.onToken((_req, n) => ({ body: { access_token: `short-${n}`, expires_in: 60 } }));
    const time = clock();
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000, now: time.now });
    expect(await tokens.token(request)).toBe('short-1');
    time.advance(29_000);
    expect(await tokens.token(request)).toBe('short-1');
    time.advance(2_000);
    expect(await tokens.token(request)).toBe('short-2');
  });

  it('forgets a token the API refused, and only that one', async () => {
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000 });
    expect(await tokens.token(request)).toBe('at-1');
    tokens.invalidate(request, 'some-older-token'); // another call's stale token: the cached one stays
    expect(await tokens.token(request)).toBe('at-1');
    tokens.invalidate(request, 'at-1');
    expect(await tokens.token(request)).toBe('at-2');
    expect(as.requests).toHaveLength(2);
  });

  it('concurrent calls share one token request', async () => {
    as.onToken((_req, n) => ({ body: { access_token: `at-${n}`, expires_in: 3600 }, delayMs: 100 }));
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000 });
    const got = await Promise.all(Array.from({ length: 20 }, () => tokens.token(request)));
    expect(new Set(got)).toEqual(new Set(['at-1']));
    expect(as.requests).toHaveLength(1);
  });

  it('different clients or scope sets get different tokens', async () => {
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000 });
    const a = await tokens.token(request);
    const b = await tokens.token({ ...request, scopes: ['read'] });
    const c = await tokens.token({ ...request, clientId: 'other' });
    expect(new Set([a, b, c]).size).toBe(3);
    expect(await tokens.token({ ...request, scopes: ['write', 'read'] })).toBe(a);
  });

  it('a failed refresh keeps using the old token while it is still valid', async () => {
    const time = clock();
    const tokens = new ClientCredentialsTokens({ timeoutMs: 5000, now: time.now });
    expect(await tokens.token(request)).toBe('at-1');
    as.onToken(() => ({ status: 503, body: { error: 'temporarily_unavailable' } }));
    time.advance(3600_000 - 30_000);
    expect(await tokens.token(request)).toBe('at-1');
    time.advance(31_000);
    await expect(tokens.token(request)).rejects.toThrow(TokenRequestError);
  });

  it('errors name the endpoint, the status and the OAuth error code, never the secret or the description', async () => {
    as.onToken(() => ({ status: 401, body: { error: 'invalid_client', error_description: 'bad secret s3cret:x' } }));
    const error = await new ClientCredentialsTokens({ timeoutMs: 5000 }).token(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenRequestError);
    expect((error as Error).message).toBe(`the token endpoint ${as.url}/token answered HTTP 401 (invalid_client)`);
  });

  it('a 200 without an access token, or with a non-bearer token, is an error', async () => {
    as.onToken(() => ({ body: { token_type: 'Bearer' } }));
    await expect(new ClientCredentialsTokens({ timeoutMs: 5000 }).token(request)).rejects.toThrow(/no access_token/);
    as.onToken(() => ({ body: { access_token: 'x', token_type: 'mac' } }));
    await expect(new ClientCredentialsTokens({ timeoutMs: 5000 }).token(request)).rejects.toThrow(/only bearer tokens/);
  });

  it('an unreachable endpoint is an error, and the next call tries again', async () => {
    const tokens = new ClientCredentialsTokens({ timeoutMs: 2000 });
    const unreachable = { ...request, tokenUrl: 'http://127.0.0.1:9/token' };
    await expect(tokens.token(unreachable)).rejects.toThrow(
      /cannot reach the token endpoint http:\/\/127\.0\.0\.1:9\/token/,
    );
    await expect(tokens.token(unreachable)).rejects.toThrow(TokenRequestError);
  });
});
