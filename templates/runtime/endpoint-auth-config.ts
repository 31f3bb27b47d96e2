/**
 * Protection of the MCP HTTP endpoint itself, from the environment (read for --http only; stdio has no
 * endpoint). Two ways, which may be combined: a static list of bearer tokens, and OAuth 2.1 resource-server
 * mode, where tokens from an authorization server are checked by token introspection (RFC 7662).
 */

export const ENDPOINT_AUTH_ENV = {
  staticTokens: 'MCP_AUTH_TOKENS',
  issuer: 'MCP_OAUTH_ISSUER',
  resourceUrl: 'MCP_OAUTH_RESOURCE_URL',
  audience: 'MCP_OAUTH_AUDIENCE',
  introspectionUrl: 'MCP_OAUTH_INTROSPECTION_URL',
  clientId: 'MCP_OAUTH_CLIENT_ID',
  clientSecret: 'MCP_OAUTH_CLIENT_SECRET',
  scopes: 'MCP_OAUTH_SCOPES',
} as const;

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
  const issuer = env[ENDPOINT_AUTH_ENV.issuer]?.trim();
  const optional = (name: string) => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const oauth: OAuthResourceConfig | undefined = issuer
    ? {
        issuer,
        scopes: list(env[ENDPOINT_AUTH_ENV.scopes], /[\s,]+/),
        ...defined('resourceUrl', optional(ENDPOINT_AUTH_ENV.resourceUrl)),
        ...defined('audience', optional(ENDPOINT_AUTH_ENV.audience)),
        ...defined('introspectionUrl', optional(ENDPOINT_AUTH_ENV.introspectionUrl)),
        ...defined('clientId', optional(ENDPOINT_AUTH_ENV.clientId)),
        ...defined('clientSecret', env[ENDPOINT_AUTH_ENV.clientSecret] || undefined),
      }
    : undefined;
  return { staticTokens: list(env[ENDPOINT_AUTH_ENV.staticTokens], /,/), ...(oauth ? { oauth } : {}) };
}

/** The endpoint's secrets, so logs and results can redact them. */
export function endpointSecrets(env: NodeJS.ProcessEnv): string[] {
  const secret = env[ENDPOINT_AUTH_ENV.clientSecret];
  return [...list(env[ENDPOINT_AUTH_ENV.staticTokens], /,/), ...(secret ? [secret] : [])];
}

function list(raw: string | undefined, separator: RegExp): string[] {
  return (raw ?? '').split(separator).map((s) => s.trim()).filter(Boolean);
}

function defined<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}
