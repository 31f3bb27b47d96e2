/**
 * Every environment variable the generated server reads, for the README, .env.example and server.json: the
 * runtime's own table (templates/runtime/contract/environment.ts) and each security scheme's credentials.
 */
import type { Catalog, CatalogSecurityScheme } from '../../templates/runtime/contract/catalog.js';
import { ENV, type Doc, type EnvVariable } from '../../templates/runtime/contract/environment.js';

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
  /** Read by the HTTP transport only (not part of a stdio registration). */
  http?: boolean;
}

/** Upstream credentials, except the user names and client ids among them, which are not secret. */
export function isSecretVariable(v: EnvVarDoc): boolean {
  return v.role === 'credential' && !/USERNAME|CLIENT_ID/.test(v.name);
}

/** The runtime's variables in the table's order, each scheme's credentials after API_BASE_URL. */
export function environmentVariables(catalog: Catalog): EnvVarDoc[] {
  // Code mode's own variables only where code mode is: a project generated in another mode does not carry it.
  const read = Object.entries(ENV).filter(([, declared]) => catalog.toolMode === 'code' || !declared.codeMode);
  const [baseUrl, ...settings] = read.map(([name, declared]) => documented(name, declared, catalog));
  return [baseUrl!, ...catalog.securitySchemes.flatMap(schemeVariables), ...settings];
}

function documented(name: string, declared: EnvVariable<unknown>, catalog: Catalog): EnvVarDoc {
  const text = (doc: Doc) => (typeof doc === 'string' ? doc : doc(catalog));
  const defaultText = declared.defaultDoc === undefined ? plainDefault(declared.default) : text(declared.defaultDoc);
  return {
    name,
    required: declared.required?.(catalog) ?? false,
    description: withDefault(text(declared.description), defaultText),
    example: text(declared.example),
    ...(declared.endpoint ? { role: 'endpoint' as const } : {}),
    ...(declared.http ? { http: true } : {}),
  };
}

/** Numbers and words are said as they are; empty lists and absent values say nothing. */
function plainDefault(value: unknown): string {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : '';
}

/** `… (default 30000).`, or `… (default: localhost names only).` for a default said in words. */
function withDefault(description: string, defaultText: string): string {
  if (!defaultText) return description;
  const said = /\s/.test(defaultText) ? `default: ${defaultText}` : `default ${defaultText}`;
  return description.replace(/\.?$/, ` (${said}).`);
}

function schemeVariables(s: CatalogSecurityScheme): EnvVarDoc[] {
  const vars: EnvVarDoc[] = [];
  const credential = (name: string | undefined, description: string) => {
    if (name) vars.push({ name, required: false, description, example: '', role: 'credential' });
  };
  const where = s.kind === 'apiKey' ? ` (sent as ${s.in} ${s.paramName})` : '';
  const flow = s.clientCredentials;
  credential(
    s.env.value,
    flow
      ? `Ready OAuth 2 access token for scheme ${s.name}; when set, no token is fetched with the client credentials.`
      : `Credential for security scheme ${s.name}: ${kindLabel(s.kind)}${where}.`,
  );
  credential(s.env.username, `User name for HTTP Basic scheme ${s.name}.`);
  credential(s.env.password, `Password for HTTP Basic scheme ${s.name}.`);
  if (!flow) return vars;
  credential(
    s.env.clientId,
    `OAuth 2 client id for scheme ${s.name}: the server gets its own tokens (client credentials grant), caches them until shortly before they expire and renews them.`,
  );
  credential(
    s.env.clientSecret,
    `OAuth 2 client secret for scheme ${s.name} (sent to the token endpoint with HTTP Basic authentication).`,
  );
  if (s.env.tokenUrl)
    vars.push({
      name: s.env.tokenUrl,
      required: false,
      description: `Token endpoint for scheme ${s.name} (default ${flow.tokenUrl}).`,
      example: flow.tokenUrl,
    });
  if (s.env.scopes) {
    const scopes = flow.scopes.join(' ');
    vars.push({
      name: s.env.scopes,
      required: false,
      description: `Scopes requested for scheme ${s.name}, space-separated (default: ${scopes ? `\`${scopes}\`` : 'none'}).`,
      example: scopes,
    });
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
