/** What the generated README says about authentication: upstream, per caller, and the endpoint. */
import { callerHeaderMap, defaultCallerHeader } from '../../templates/runtime/contract/caller-credentials.js';
import type { Catalog, CatalogSecurityScheme } from '../../templates/runtime/contract/catalog.js';

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
  const headerSchemes = schemes.filter((s) => s.kind !== 'mutualTLS');
  return {
    schemes: schemes.map((s) => ({ name: s.name, sent: howSent(s), variables: variablesOf(s) })),
    clientCredentials: schemes
      .filter((s) => s.clientCredentials)
      .map((s) => ({
        name: s.name,
        tokenUrl: s.clientCredentials!.tokenUrl,
        scopes: s.clientCredentials!.scopes.join(' '),
      })),
    callerHeaders: [...callerHeaderMap(catalog.callerCredentials, schemes)].map(([scheme, header]) => ({
      scheme,
      header,
    })),
    defaultHeaders: headerSchemes.map((s) => ({ scheme: s.name, header: defaultCallerHeader(s.name) })),
    exampleMapping:
      headerSchemes.length > 0
        ? headerSchemes
            .slice(0, 2)
            .map((s, i) => `${s.name}=${i === 0 ? 'X-Upstream-Key' : 'X-Other-Key'}`)
            .join(',')
        : 'scheme=X-Upstream-Key',
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
    case 'mutualTLS':
      return 'client certificate (mutual TLS), on every upstream and token request; Node server only';
    default:
      return s.clientCredentials ? '`Authorization: Bearer …` (client-credentials token)' : '`Authorization: Bearer …`';
  }
}

function variablesOf(s: CatalogSecurityScheme): string {
  const code = (name: string | undefined) => (name ? `\`${name}\`` : '');
  if (s.kind === 'mutualTLS')
    return `${code(s.env.certFile)} + ${code(s.env.privateFile)} (+ \`API_TLS_PASSPHRASE\` for an encrypted key, \`API_TLS_CA_FILE\` for a private CA)`;
  if (s.kind === 'http-basic') return `${code(s.env.username)} + ${code(s.env.password)}`;
  if (s.clientCredentials) return `${code(s.env.value)}, or ${code(s.env.clientId)} + ${code(s.env.clientSecret)}`;
  return code(s.env.value);
}
