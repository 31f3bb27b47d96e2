/**
 * OAuth 2 client credentials (RFC 6749 §4.4) for upstream schemes that offer the flow: the server gets its
 * own access token from the token endpoint, keeps it until shortly before it expires, then gets a new one.
 * Concurrent calls that need a token while one is being fetched wait for that fetch instead of starting
 * their own, so a burst of calls costs one token request.
 */
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { senderFor, type UpstreamResponse, type UpstreamTls } from '../upstream/http-client.js';
import { isPlainObject } from '../contract/plain-object.js';
import { tlsFailure } from '../upstream/tls-failure.js';

export interface TokenRequest {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
}

export interface TokenClientOptions {
  /** Sends token requests through this fetch (web targets, tests); else through node:http, as upstream calls. */
  fetch?: typeof fetch;
  /** Client certificate and extra CAs, as for upstream calls (node:http only: upstream-tls.ts). */
  tls?: UpstreamTls;
  /** Budget of one token request. */
  timeoutMs: number;
  /** Injected for tests; defaults to Date.now. */
  now?: () => number;
  /** The replicas' shared cache (shared-tokens.ts), asked before fetching. */
  shared?: SharedTokenCache;
}

/** A cache the replicas share: one of them fetches a token the others then reuse. */
export interface SharedTokenCache {
  /** The shared token when fresh, else one `fetchToken` got (by this replica, or by another while it waited). */
  obtain(key: string, fetchToken: () => Promise<CachedToken>): Promise<CachedToken>;
  /** Drops `token` from the shared cache (the API refused it). */
  forget(key: string, token: string): void;
}

/** The token endpoint could not be reached or refused: the message never contains the secret. */
export class TokenRequestError extends Error {
  override readonly name = 'TokenRequestError';
}

/** A token response is a few hundred bytes of JSON; more than this is not one. */
const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** How long a token is kept when the token endpoint does not say (no `expires_in`). */
const DEFAULT_LIFETIME_MS = 5 * 60_000;
/** A token is replaced this long before it expires, so no request leaves with one about to lapse... */
const REFRESH_MARGIN_MS = 60_000;
/** ...but a short-lived token is still used for at least half its life. */
const MIN_USE_FRACTION = 0.5;

export interface CachedToken {
  token: string;
  /** From here on a new token is fetched. */
  refreshAt: number;
  /** Until here the token may still be used if fetching a new one fails. */
  expiresAt: number;
}

export class ClientCredentialsTokens {
  private readonly cache = new Map<string, CachedToken>();
  private readonly inflight = new Map<string, Promise<string>>();
  private readonly now: () => number;

  constructor(private readonly options: TokenClientOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A valid access token for this client and scope set, from the cache when it has a fresh one. */
  async token(request: TokenRequest): Promise<string> {
    const key = cacheKey(request);
    const cached = this.cache.get(key);
    if (cached && this.now() < cached.refreshAt) return cached.token;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const fetching = this.fetchAndCache(key, request, cached).finally(() => this.inflight.delete(key));
    this.inflight.set(key, fetching);
    return fetching;
  }

  /**
   * Forgets `token` after the API refused it (HTTP 401: revoked, or rotated before its stated expiry), so the
   * next call gets a new one. A newer token another call already got is kept.
   */
  invalidate(request: TokenRequest, token: string): void {
    const key = cacheKey(request);
    if (this.cache.get(key)?.token === token) this.cache.delete(key);
    this.options.shared?.forget(key, token);
  }

  private async fetchAndCache(key: string, request: TokenRequest, previous: CachedToken | undefined): Promise<string> {
    try {
      const fetchToken = () => this.fetchToken(request);
      const entry = await (this.options.shared ? this.options.shared.obtain(key, fetchToken) : fetchToken());
      this.cache.set(key, entry);
      return entry.token;
    } catch (error) {
      // A refresh that fails while the old token is still valid keeps the API usable meanwhile.
      if (previous && this.now() < previous.expiresAt) return previous.token;
      throw error;
    }
  }

  private async fetchToken(request: TokenRequest): Promise<CachedToken> {
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (request.scopes.length > 0) body.set('scope', request.scopes.join(' '));
    const started = this.now();
    let response: UpstreamResponse;
    let bytes: Uint8Array;
    try {
      // Redirects are not followed: the client secret goes to the configured endpoint only.
      const send = await senderFor(this.options);
      response = await send({
        method: 'POST',
        url: request.tokenUrl,
        headers: {
          authorization: basicCredentials(request.clientId, request.clientSecret),
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: body.toString(),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      ({ bytes } = await response.readCapped(MAX_TOKEN_RESPONSE_BYTES));
    } catch (error) {
      throw new TokenRequestError(`cannot reach the token endpoint ${request.tokenUrl} (${reasonOf(error)})`);
    }
    const payload = parsedJson(bytes);
    if (response.status < 200 || response.status > 299)
      throw new TokenRequestError(
        `the token endpoint ${request.tokenUrl} answered HTTP ${response.status}${oauthErrorOf(payload)}`,
      );
    return cachedTokenFrom(payload, started, request.tokenUrl);
  }
}

function cachedTokenFrom(payload: unknown, fetchedAt: number, tokenUrl: string): CachedToken {
  const fields = isPlainObject(payload) ? payload : {};
  const token = fields['access_token'];
  if (typeof token !== 'string' || token === '')
    throw new TokenRequestError(`the token endpoint ${tokenUrl} returned no access_token`);
  const type = fields['token_type'];
  if (typeof type === 'string' && type.toLowerCase() !== 'bearer') {
    throw new TokenRequestError(
      `the token endpoint ${tokenUrl} returned a ${type} token; only bearer tokens are supported`,
    );
  }
  const seconds = Number(fields['expires_in']);
  const lifetime = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_LIFETIME_MS;
  const margin = Math.min(REFRESH_MARGIN_MS, lifetime * (1 - MIN_USE_FRACTION));
  return { token, refreshAt: fetchedAt + lifetime - margin, expiresAt: fetchedAt + lifetime };
}

/** RFC 6749 §2.3.1: client_secret_basic, each part form-encoded first. */
function basicCredentials(clientId: string, clientSecret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(clientId)}:${encode(clientSecret)}`).toString('base64')}`;
}

/** One token per client, secret, endpoint and scope set; the secret is hashed so it is not kept as a key. */
function cacheKey(request: TokenRequest): string {
  const secret = createHash('sha256').update(request.clientSecret).digest('hex');
  return JSON.stringify([request.tokenUrl, request.clientId, secret, [...request.scopes].sort()]);
}

/** The standard `error` code only: descriptions are free text that could quote the request. */
function oauthErrorOf(payload: unknown): string {
  const code = isPlainObject(payload) ? payload['error'] : undefined;
  return typeof code === 'string' && /^[\x20-\x7e]{1,64}$/.test(code) ? ` (${code})` : '';
}

function parsedJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** node:http puts the system error code on the error, fetch on its cause. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return 'timed out';
  const tls = tlsFailure(error);
  if (tls !== undefined) return tls;
  const code = [error, error instanceof Error ? error.cause : undefined]
    .map((candidate) => (candidate as { code?: unknown } | undefined)?.code)
    .find((candidate): candidate is string => typeof candidate === 'string');
  return code ?? (error instanceof Error ? error.message : String(error));
}
