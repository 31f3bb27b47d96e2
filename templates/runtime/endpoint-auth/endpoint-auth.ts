/**
 * The gate in front of /mcp when the endpoint is protected (see endpoint-auth-config.ts), built on the SDK's
 * bearer helpers: `verifyBearerToken` checks the header, expiry and scopes, `bearerAuthChallengeResponse`
 * writes the 401/403 with its `WWW-Authenticate: Bearer …` challenge, and in OAuth mode the Protected
 * Resource Metadata (RFC 9728) tells clients which authorization server to get a token from. Web-standard
 * (Request and Response), so every deployment target shares it.
 */
import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  oauthMetadataResponse,
  verifyBearerToken,
  type AuthInfo,
  type AuthMetadataOptions,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import type { EndpointAuthConfig, OAuthResourceConfig } from './endpoint-auth-config.js';
import { firstAccepting, introspectionVerifier, staticTokenVerifier } from './introspection.js';
import type { Logger } from '../server/log.js';

const PRM_ROOT_PATH = '/.well-known/oauth-protected-resource';

export interface EndpointAuth {
  /** Whether this path is one of the metadata documents (served without a token). */
  isMetadataPath(path: string): boolean;
  answerMetadata(request: Request): Response;
  /** Verifies the request's bearer token: the token's AuthInfo, or the challenge to answer with. */
  authorize(request: Request): Promise<{ authInfo: AuthInfo } | { challenge: Response }>;
}

export class EndpointAuthConfigError extends Error {
  override readonly name = 'EndpointAuthConfigError';
}

export interface EndpointAuthOptions {
  log: Logger;
  /** The endpoint's URL when MCP_OAUTH_RESOURCE_URL is not set; known only once the server listens. */
  defaultResourceUrl: () => string;
  fetch?: typeof fetch;
}

/** Undefined when the endpoint is open. Throws EndpointAuthConfigError for an unusable configuration. */
export function createEndpointAuth(config: EndpointAuthConfig, options: EndpointAuthOptions): EndpointAuth | undefined {
  if (config.staticTokens.length === 0 && !config.oauth) return undefined;
  const oauth = config.oauth ? oauthResource(config.oauth, options) : undefined;
  const requiredScopes = config.oauth?.scopes ?? [];
  const verifiers: OAuthTokenVerifier[] = [];
  if (config.staticTokens.length > 0) verifiers.push(staticTokenVerifier(config.staticTokens, requiredScopes));
  if (oauth) verifiers.push(oauth.verifier);
  const verifier = firstAccepting(verifiers);

  return {
    isMetadataPath: (path) => oauth !== undefined && (path === PRM_ROOT_PATH || path === oauth.metadataPath()),
    answerMetadata: (request) => {
      if (!oauth) return Response.json({ error: 'not found' }, { status: 404 });
      // Both the root and the path-suffixed location serve the document for the one resource, /mcp.
      const asked = new Request(oauth.metadataUrl(), { method: request.method, headers: forwardedHeaders(request) });
      return oauthMetadataResponse(asked, oauth.metadataOptions())!;
    },
    authorize: async (request) => {
      const resourceMetadataUrl = oauth?.metadataUrl();
      const challenge = { requiredScopes, ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}) };
      try {
        return { authInfo: await verifyBearerToken(firstAuthorization(request), { verifier, ...challenge }) };
      } catch (error) {
        if (!(error instanceof OAuthError))
          options.log.error('token verification failed', {
            error: error instanceof Error ? error.message : String(error),
          });
        return { challenge: bearerAuthChallengeResponse(error, challenge) };
      }
    },
  };
}

interface OAuthResource {
  verifier: OAuthTokenVerifier;
  metadataOptions: () => AuthMetadataOptions;
  metadataUrl: () => string;
  metadataPath: () => string;
}

function oauthResource(config: OAuthResourceConfig, options: EndpointAuthOptions): OAuthResource {
  if (!config.introspectionUrl) {
    throw new EndpointAuthConfigError(
      'MCP_OAUTH_ISSUER is set: also set MCP_OAUTH_INTROSPECTION_URL (and MCP_OAUTH_CLIENT_ID/MCP_OAUTH_CLIENT_SECRET) so tokens can be verified',
    );
  }
  const resourceUrl = once(() => new URL(config.resourceUrl ?? options.defaultResourceUrl()));
  const metadataOptions = once((): AuthMetadataOptions => ({
    // Only `issuer` goes into the Protected Resource Metadata; clients read the authorization server's own
    // endpoints from its metadata, at its own well-known URL, so none are guessed here.
    oauthMetadata: {
      issuer: config.issuer,
      authorization_endpoint: config.issuer,
      token_endpoint: config.issuer,
      response_types_supported: ['code'],
    },
    resourceServerUrl: resourceUrl(),
    ...(config.scopes.length > 0 ? { scopesSupported: config.scopes } : {}),
  }));
  validateIssuer(config);
  return {
    verifier: introspectionVerifier({
      introspectionUrl: config.introspectionUrl,
      issuer: config.issuer,
      audience: () => config.audience ?? resourceUrl().href,
      resourceUrl,
      ...(config.clientId ? { clientId: config.clientId } : {}),
      ...(config.clientSecret ? { clientSecret: config.clientSecret } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    }),
    metadataOptions,
    metadataUrl: once(() => getOAuthProtectedResourceMetadataUrl(resourceUrl())),
    metadataPath: once(() => new URL(getOAuthProtectedResourceMetadataUrl(resourceUrl())).pathname),
  };
}

/** Fails at start-up, not at the first request: the SDK's check (HTTPS outside localhost, no query or fragment). */
function validateIssuer(config: OAuthResourceConfig): void {
  try {
    buildOAuthProtectedResourceMetadata({
      oauthMetadata: {
        issuer: config.issuer,
        authorization_endpoint: config.issuer,
        token_endpoint: config.issuer,
        response_types_supported: ['code'],
      },
      resourceServerUrl: new URL(config.resourceUrl ?? 'http://localhost/mcp'),
    });
  } catch (error) {
    throw new EndpointAuthConfigError(
      `MCP_OAUTH_ISSUER / MCP_OAUTH_RESOURCE_URL: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Headers join repeated Authorization headers with a comma; only the first counts (as in the SDK's gate). */
function firstAuthorization(request: Request): string | undefined {
  const header = request.headers.get('authorization');
  return header?.split(',')[0]?.trim() || undefined;
}

/** What the SDK's metadata answer looks at: CORS preflight headers. */
function forwardedHeaders(request: Request): Record<string, string> {
  const requested = request.headers.get('access-control-request-headers');
  return requested !== null ? { 'access-control-request-headers': requested } : {};
}

function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
