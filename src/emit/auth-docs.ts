/** What the generated README and .env.example say about authentication: upstream, per caller, and the endpoint. */
import { CALLER_CREDENTIALS_ENV, callerHeaderMap, defaultCallerHeader } from '../../templates/runtime/caller-credentials.js';
import type { Catalog, CatalogSecurityScheme } from '../../templates/runtime/catalog.js';
import { ENDPOINT_AUTH_ENV } from '../../templates/runtime/endpoint-auth-config.js';
import type { EnvVarDoc } from './env-vars.js';

export function endpointAuthVariables(catalog: Catalog): EnvVarDoc[] {
  const endpoint = (name: string, description: string, example = ''): EnvVarDoc => ({ name, required: false, description, example, role: 'endpoint' });
  return [
    endpoint(
      CALLER_CREDENTIALS_ENV,
      `Per-caller upstream credentials over HTTP: \`off\`, \`headers\` (each scheme from its \`X-Upstream-<Scheme>\` header) or \`scheme=Header,…\` (default: ${describeCallerConfig(catalog)}).`,
      describeCallerConfig(catalog),
    ),
    endpoint(ENDPOINT_AUTH_ENV.staticTokens, 'Comma-separated bearer tokens the HTTP endpoint accepts; without it (and without MCP_OAUTH_ISSUER) the endpoint is open.'),
    endpoint(ENDPOINT_AUTH_ENV.issuer, 'OAuth 2.1 resource-server mode: the authorization server that issues tokens for this endpoint (advertised in the Protected Resource Metadata).', 'https://auth.example.com'),
    endpoint(ENDPOINT_AUTH_ENV.introspectionUrl, 'Token introspection endpoint (RFC 7662) used to verify tokens; required with MCP_OAUTH_ISSUER.', 'https://auth.example.com/oauth2/introspect'),
    endpoint(ENDPOINT_AUTH_ENV.clientId, "This server's client id at the introspection endpoint."),
    endpoint(ENDPOINT_AUTH_ENV.clientSecret, "This server's client secret at the introspection endpoint."),
    endpoint(ENDPOINT_AUTH_ENV.resourceUrl, 'Public URL of the MCP endpoint, the `resource` of the metadata (default http://HOST:PORT/mcp).', 'https://mcp.example.com/mcp'),
    endpoint(ENDPOINT_AUTH_ENV.audience, "What a token's `aud` must contain (default: the resource URL)."),
    endpoint(ENDPOINT_AUTH_ENV.scopes, 'Space-separated scopes every token must carry (403 insufficient_scope otherwise).'),
  ];
}

function describeCallerConfig(catalog: Catalog): string {
  const config = catalog.callerCredentials;
  if (!config || config.mode === 'off') return 'off';
  if (!config.map) return 'headers';
  return Object.entries(config.map).map(([scheme, header]) => `${scheme}=${header}`).join(',') || 'off';
}

export interface AuthView {
  schemes: Array<{ name: string; sent: string; variables: string }>;
  clientCredentials: Array<{ name: string; tokenUrl: string; scopes: string }>;
  /** The mapping baked in at generation; empty when off. */
  callerHeaders: Array<{ scheme: string; header: string }>;
  /** What `MCP_CALLER_CREDENTIALS=headers` would use. */
  defaultHeaders: Array<{ scheme: string; header: string }>;
  exampleMapping: string;
}

export function authView(catalog: Catalog): AuthView {
  const schemes = catalog.securitySchemes;
  return {
    schemes: schemes.map((s) => ({ name: s.name, sent: howSent(s), variables: variablesOf(s) })),
    clientCredentials: schemes.filter((s) => s.clientCredentials).map((s) => ({ name: s.name, tokenUrl: s.clientCredentials!.tokenUrl, scopes: s.clientCredentials!.scopes.join(' ') })),
    callerHeaders: [...callerHeaderMap(catalog.callerCredentials, schemes)].map(([scheme, header]) => ({ scheme, header })),
    defaultHeaders: schemes.map((s) => ({ scheme: s.name, header: defaultCallerHeader(s.name) })),
    exampleMapping: schemes.length > 0 ? schemes.slice(0, 2).map((s, i) => `${s.name}=${i === 0 ? 'X-Upstream-Key' : 'X-Other-Key'}`).join(',') : 'scheme=X-Upstream-Key',
  };
}

function howSent(s: CatalogSecurityScheme): string {
  switch (s.kind) {
    case 'apiKey':
      return `${s.in ?? 'header'} \`${s.paramName ?? s.name}\``;
    case 'http-basic':
      return '`Authorization: Basic …`';
    case 'http-raw':
      return `\`Authorization: ${s.scheme ?? ''} …\``;
    default:
      return s.clientCredentials ? '`Authorization: Bearer …` (client-credentials token)' : '`Authorization: Bearer …`';
  }
}

function variablesOf(s: CatalogSecurityScheme): string {
  const code = (name: string | undefined) => (name ? `\`${name}\`` : '');
  if (s.kind === 'http-basic') return `${code(s.env.username)} + ${code(s.env.password)}`;
  if (s.clientCredentials) return `${code(s.env.value)}, or ${code(s.env.clientId)} + ${code(s.env.clientSecret)}`;
  return code(s.env.value);
}
