/**
 * Per-caller upstream credentials over HTTP. A hosted server serves many people, each with their own API
 * credentials, which they send as headers of their MCP requests. The mapping says which request header
 * carries which security scheme's credential. Nothing else from the caller is ever sent upstream: the
 * caller's own `Authorization` header (its token for this MCP server) stays here unless the mapping names
 * it explicitly (`bearerAuth=authorization`).
 *
 * Configured at generation (`--caller-credentials`, stored in catalog.json) and at run time
 * (`MCP_CALLER_CREDENTIALS`, which wins): `off`, `headers` (every scheme, from `X-Upstream-<Scheme>`), or
 * `scheme=Header,scheme2=Header2` (only those schemes).
 */
import type { CallerCredentialsConfig, CatalogSecurityScheme } from './catalog.js';
import { readEnv } from './environment.js';

/** Scheme name → lower-case name of the request header that carries the caller's credential for it. */
export type CallerHeaderMap = ReadonlyMap<string, string>;

/** One request's credentials: scheme name → the value its caller sent. */
export type CallerCredentialValues = ReadonlyMap<string, string>;

export class CallerCredentialsError extends Error {
  override readonly name = 'CallerCredentialsError';
}

/** RFC 9110 token characters: what a header name may contain. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Parses `off`, `headers` or `scheme=Header,…`; throws CallerCredentialsError on anything else. */
export function parseCallerCredentials(raw: string): CallerCredentialsConfig {
  const text = raw.trim();
  if (text === '' || text === 'off') return { mode: 'off' };
  if (text === 'headers') return { mode: 'headers' };
  const map: Record<string, string> = {};
  for (const entry of text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    const eq = entry.indexOf('=');
    const scheme = entry.slice(0, Math.max(eq, 0)).trim();
    const header = entry.slice(eq + 1).trim();
    if (eq <= 0 || scheme === '' || !HEADER_NAME.test(header)) {
      throw new CallerCredentialsError(
        `caller credentials: expected off, headers or scheme=Header-Name[,…], got "${entry}"`,
      );
    }
    map[scheme] = header.toLowerCase();
  }
  return { mode: 'headers', map };
}

/** `bearerAuth` → `x-upstream-bearer-auth`: the header for a scheme when `headers` mode names none. */
export function defaultCallerHeader(scheme: string): string {
  const words = scheme
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `x-upstream-${words || 'credential'}`;
}

/** The effective mapping for the schemes this API has (names the API does not define are left out). */
export function callerHeaderMap(
  config: CallerCredentialsConfig | undefined,
  schemes: readonly CatalogSecurityScheme[],
): Map<string, string> {
  if (!config || config.mode === 'off') return new Map();
  // A client certificate belongs to the server's TLS connection: no request header can carry one.
  const headerSchemes = schemes.filter((s) => s.kind !== 'mutualTLS');
  if (!config.map) return new Map(headerSchemes.map((s) => [s.name, defaultCallerHeader(s.name)]));
  const known = new Set(headerSchemes.map((s) => s.name));
  return new Map(
    Object.entries(config.map)
      .filter(([scheme]) => known.has(scheme))
      .map(([scheme, header]) => [scheme, header.toLowerCase()]),
  );
}

/** Scheme names in the mapping that the API does not define (reported, then ignored). */
export function unknownCallerSchemes(
  config: CallerCredentialsConfig | undefined,
  schemes: readonly CatalogSecurityScheme[],
): string[] {
  const known = new Set(schemes.map((s) => s.name));
  return Object.keys(config?.map ?? {}).filter((scheme) => !known.has(scheme));
}

/** MCP_CALLER_CREDENTIALS when set, else what was chosen at generation. */
export function callerCredentialsConfig(
  catalogConfig: CallerCredentialsConfig | undefined,
  env: NodeJS.ProcessEnv,
): CallerCredentialsConfig | undefined {
  const raw = readEnv(env, 'MCP_CALLER_CREDENTIALS');
  return raw === undefined ? catalogConfig : parseCallerCredentials(raw);
}

/** Reads the mapped headers of one MCP request. Over stdio there is no request, so there are no values. */
export function callerCredentialValues(map: CallerHeaderMap, headers: Headers | undefined): CallerCredentialValues {
  const values = new Map<string, string>();
  if (!headers || map.size === 0) return values;
  for (const [scheme, header] of map) {
    const value = headers.get(header)?.trim();
    if (value) values.set(scheme, value);
  }
  return values;
}
