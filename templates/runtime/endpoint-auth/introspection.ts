/**
 * Token verifiers for the protected MCP endpoint. Static tokens are compared in constant time; OAuth tokens
 * are checked with the authorization server's introspection endpoint (RFC 7662), which works for opaque
 * and JWT access tokens alike and needs no key material here.
 */
import { Buffer } from 'node:buffer';
import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';

/** Static tokens never expire; the SDK requires an expiry, so each verification grants this long. */
const STATIC_GRANT_S = 3600;
const INTROSPECTION_TIMEOUT_MS = 10_000;

/**
 * Accepts exactly the listed tokens. Each candidate is hashed first, so every comparison has the same
 * length, and every listed token is compared, so the time taken says nothing about which one matched.
 */
export function staticTokenVerifier(tokens: readonly string[], scopes: readonly string[]): OAuthTokenVerifier {
  const digests = tokens.map(sha256);
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const candidate = sha256(token);
      let matched = -1;
      digests.forEach((digest, index) => {
        if (timingSafeEqual(digest, candidate) && matched < 0) matched = index;
      });
      if (matched < 0) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token');
      return {
        token,
        clientId: `static-token-${matched + 1}`,
        scopes: [...scopes],
        expiresAt: Math.floor(Date.now() / 1000) + STATIC_GRANT_S,
      };
    },
  };
}

export interface IntrospectionOptions {
  introspectionUrl: string;
  clientId?: string;
  clientSecret?: string;
  /** A token whose introspection names another issuer is refused. */
  issuer: string;
  /** What the token's `aud` must contain. */
  audience: () => string;
  /** Stamped on AuthInfo.resource for the SDK. */
  resourceUrl: () => URL;
  fetch?: typeof fetch;
}

export function introspectionVerifier(options: IntrospectionOptions): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const answer = await introspect(token, options);
      if (answer['active'] !== true) throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token is not active');
      const issuer = answer['iss'];
      if (typeof issuer === 'string' && !sameUrl(issuer, options.issuer))
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was issued by another authorization server');
      if (!audiencesOf(answer['aud']).some((aud) => sameUrl(aud, options.audience()))) {
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'Token was not issued for this server');
      }
      const exp = answer['exp'];
      const clientId = answer['client_id'];
      const scope = answer['scope'];
      return {
        token,
        clientId: typeof clientId === 'string' ? clientId : 'unknown',
        scopes: typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [],
        ...(typeof exp === 'number' ? { expiresAt: exp } : {}),
        resource: options.resourceUrl(),
        ...(typeof answer['sub'] === 'string' ? { extra: { sub: answer['sub'] } } : {}),
      };
    },
  };
}

async function introspect(token: string, options: IntrospectionOptions): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (options.clientId) {
    const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
    headers['authorization'] =
      `Basic ${Buffer.from(`${encode(options.clientId)}:${encode(options.clientSecret ?? '')}`).toString('base64')}`;
  }
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(options.introspectionUrl, {
      method: 'POST',
      headers,
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
      redirect: 'error',
      signal: AbortSignal.timeout(INTROSPECTION_TIMEOUT_MS),
    });
  } catch {
    throw new OAuthError(OAuthErrorCode.ServerError, 'The token introspection endpoint cannot be reached');
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok || typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new OAuthError(OAuthErrorCode.ServerError, `Token introspection failed (HTTP ${response.status})`);
  }
  return body as Record<string, unknown>;
}

/** Tries each verifier in turn; a token none accepts is refused with the last verifier's reason. */
export function firstAccepting(verifiers: readonly OAuthTokenVerifier[]): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let lastError: unknown = new OAuthError(OAuthErrorCode.InvalidToken, 'Unknown token');
      for (const verifier of verifiers) {
        try {
          return await verifier.verifyAccessToken(token);
        } catch (error) {
          if (!(error instanceof OAuthError) || error.code !== OAuthErrorCode.InvalidToken) throw error;
          lastError = error;
        }
      }
      throw lastError;
    },
  };
}

function audiencesOf(aud: unknown): string[] {
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/** Issuers and audiences compare as strings, ignoring one trailing slash. */
function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

function sha256(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
