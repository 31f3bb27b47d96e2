/**
 * Protection of the MCP HTTP endpoint itself, from the environment (read for --http only; stdio has no
 * endpoint). Two ways, which may be combined: a static list of bearer tokens, and OAuth 2.1 resource-server
 * mode, where tokens from an authorization server are checked by token introspection (RFC 7662).
 */
import { readEnv } from '../contract/environment.js';

export interface OAuthResourceConfig {
  /** The authorization server clients are sent to (advertised in the Protected Resource Metadata). */
  issuer: string;
  /** The public URL of this MCP endpoint; default `http://<host>:<port>/mcp`. */
  resourceUrl?: string;
  /** What a token's `aud` must contain; default the resource URL. */
  audience?: string;
  introspectionUrl?: string;
  /** This server's own credentials at the introspection endpoint. */
  clientId?: string;
  clientSecret?: string;
  /** Scopes every token must carry (and that the metadata advertises). */
  scopes: string[];
}

export interface EndpointAuthConfig {
  staticTokens: string[];
  oauth?: OAuthResourceConfig;
}

export function readEndpointAuthConfig(env: NodeJS.ProcessEnv): EndpointAuthConfig {
  const issuer = readEnv(env, 'MCP_OAUTH_ISSUER');
  const oauth: OAuthResourceConfig | undefined = issuer
    ? {
        issuer,
        scopes: readEnv(env, 'MCP_OAUTH_SCOPES'),
        ...defined('resourceUrl', readEnv(env, 'MCP_OAUTH_RESOURCE_URL')),
        ...defined('audience', readEnv(env, 'MCP_OAUTH_AUDIENCE')),
        ...defined('introspectionUrl', readEnv(env, 'MCP_OAUTH_INTROSPECTION_URL')),
        ...defined('clientId', readEnv(env, 'MCP_OAUTH_CLIENT_ID')),
        ...defined('clientSecret', readEnv(env, 'MCP_OAUTH_CLIENT_SECRET')),
      }
    : undefined;
  return { staticTokens: readEnv(env, 'MCP_AUTH_TOKENS'), ...(oauth ? { oauth } : {}) };
}

/** The endpoint's secrets, so logs and results can redact them. */
export function endpointSecrets(env: NodeJS.ProcessEnv): string[] {
  const secret = readEnv(env, 'MCP_OAUTH_CLIENT_SECRET');
  return [...readEnv(env, 'MCP_AUTH_TOKENS'), ...(secret ? [secret] : [])];
}

function defined<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
