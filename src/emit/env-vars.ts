/** Every environment variable the generated server reads, for README and .env.example. */
import type { Catalog, CatalogSecurityScheme } from '../../templates/runtime/catalog.js';
import { CLIENT_PROFILE_ENV, CLIENT_PROFILES_ENV, PROFILE_NAMES } from '../../templates/runtime/profiles.js';
import { endpointAuthVariables } from './auth-docs.js';

export interface EnvVarDoc {
  name: string;
  required: boolean;
  description: string;
  example: string;
  /**
   * credential: an upstream credential (client snippets and the registry entry list these);
   * endpoint: HTTP-only settings of the MCP endpoint itself (not part of a stdio registration).
   */
  role?: 'credential' | 'endpoint';
}

export function environmentVariables(catalog: Catalog): EnvVarDoc[] {
  const vars: EnvVarDoc[] = [
    {
      name: 'API_BASE_URL',
      required: !catalog.baseUrl,
      description: catalog.baseUrl ? `Upstream base URL (default ${catalog.baseUrl}).` : 'Upstream base URL. Required: the spec names no usable server.',
      example: catalog.baseUrl ?? 'https://api.example.com',
    },
  ];
  for (const s of catalog.securitySchemes) vars.push(...schemeVariables(s));
  vars.push(
    { name: 'API_TIMEOUT_MS', required: false, description: 'Time budget of one upstream call in milliseconds, retries and redirects included (default 30000).', example: '30000' },
    { name: 'API_MAX_RETRIES', required: false, description: 'Retries after HTTP 429/502/503/504 for idempotent methods, honouring Retry-After (default 2; 0 turns them off).', example: '2' },
    { name: 'API_MAX_RESPONSE_BYTES', required: false, description: 'Response bytes returned to the model before truncation (default 100000).', example: '100000' },
    { name: 'PORT', required: false, description: 'HTTP port with --http (default 3000).', example: '3000' },
    { name: 'HOST', required: false, description: 'HTTP bind address with --http (default 127.0.0.1).', example: '127.0.0.1' },
    { name: 'MCP_ALLOWED_HOSTS', required: false, description: 'Comma-separated Host names accepted over HTTP (default: localhost names only).', example: 'mcp.example.com' },
    { name: 'MCP_ALLOWED_ORIGINS', required: false, description: 'Comma-separated Origin host names accepted over HTTP (default: MCP_ALLOWED_HOSTS, else localhost).', example: 'app.example.com' },
    { name: 'MCP_CORS_ORIGINS', required: false, description: 'CORS for browser clients over HTTP: comma-separated origins, host names or * (default: off).', example: 'https://app.example.com' },
    { name: 'MCP_SHUTDOWN_TIMEOUT_MS', required: false, description: 'On SIGTERM, how long running HTTP calls may finish (default 10000).', example: '10000' },
    { name: 'MCP_TOOL_MODE', required: false, description: `all, dynamic or hybrid: overrides the tool mode chosen at generation (${catalog.toolMode}).`, example: catalog.toolMode },
    { name: CLIENT_PROFILE_ENV, required: false, description: `Client profile for every client: ${PROFILE_NAMES.join(', ')} (default: chosen per client from its clientInfo name; unknown clients get full schemas).`, example: '' },
    { name: CLIENT_PROFILES_ENV, required: false, description: 'More clientInfo names and their profiles, comma-separated `name=profile` (added to, or overriding, the built-in table).', example: 'my-agent=openai-strict' },
    { name: 'MCP_TOOLS_PAGE_SIZE', required: false, description: 'Tools per tools/list page (default 500; 0 = one page).', example: '500' },
    { name: 'LOG_LEVEL', required: false, description: 'debug, info, warn or error (default info); logs go to stderr.', example: 'info' },
    ...endpointAuthVariables(catalog),
  );
  return vars;
}

function schemeVariables(s: CatalogSecurityScheme): EnvVarDoc[] {
  const vars: EnvVarDoc[] = [];
  const credential = (name: string | undefined, description: string) => {
    if (name) vars.push({ name, required: false, description, example: '', role: 'credential' });
  };
  const where = s.kind === 'apiKey' ? ` (sent as ${s.in} ${s.paramName})` : '';
  const flow = s.clientCredentials;
  credential(s.env.value, flow ? `Ready OAuth 2 access token for scheme ${s.name}; when set, no token is fetched with the client credentials.` : `Credential for security scheme ${s.name}: ${kindLabel(s.kind)}${where}.`);
  credential(s.env.username, `User name for HTTP Basic scheme ${s.name}.`);
  credential(s.env.password, `Password for HTTP Basic scheme ${s.name}.`);
  if (!flow) return vars;
  credential(s.env.clientId, `OAuth 2 client id for scheme ${s.name}: the server gets its own tokens (client credentials grant), caches them until shortly before they expire and renews them.`);
  credential(s.env.clientSecret, `OAuth 2 client secret for scheme ${s.name} (sent to the token endpoint with HTTP Basic authentication).`);
  if (s.env.tokenUrl) vars.push({ name: s.env.tokenUrl, required: false, description: `Token endpoint for scheme ${s.name} (default ${flow.tokenUrl}).`, example: flow.tokenUrl });
  if (s.env.scopes) {
    const scopes = flow.scopes.join(' ');
    vars.push({ name: s.env.scopes, required: false, description: `Scopes requested for scheme ${s.name}, space-separated (default: ${scopes ? `\`${scopes}\`` : 'none'}).`, example: scopes });
  }
  return vars;
}

function kindLabel(kind: Catalog['securitySchemes'][number]['kind']): string {
  switch (kind) {
    case 'apiKey':
      return 'API key';
    case 'http-bearer':
      return 'bearer token';
    case 'http-raw':
      return 'the full Authorization header value';
    case 'oauth2':
      return 'OAuth 2 access token';
    case 'openIdConnect':
      return 'OpenID Connect access token';
    default:
      return 'credential';
  }
}
