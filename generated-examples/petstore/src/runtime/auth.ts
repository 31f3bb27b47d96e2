/**
 * Upstream credentials from environment variables, applied per the operation's security requirements: the
 * first alternative whose schemes all have credentials wins; a public operation sends none.
 */
import type { CatalogSecurityScheme } from './catalog.js';

export interface AppliedCredentials {
  headers: Record<string, string>;
  query: Array<[string, string]>;
  cookies: Array<[string, string]>;
}

export type CredentialResolution = { ok: true; applied: AppliedCredentials } | { ok: false; missing: string[] };

export function resolveCredentials(
  requirement: readonly (readonly string[])[] | undefined,
  schemes: readonly CatalogSecurityScheme[],
  env: NodeJS.ProcessEnv,
): CredentialResolution {
  const empty: AppliedCredentials = { headers: {}, query: [], cookies: [] };
  if (!requirement || requirement.length === 0) return { ok: true, applied: empty };
  const byName = new Map(schemes.map((s) => [s.name, s]));
  const missingPerAlternative: string[][] = [];
  for (const alternative of requirement) {
    const applied: AppliedCredentials = { headers: {}, query: [], cookies: [] };
    const missing: string[] = [];
    for (const name of alternative) {
      const scheme = byName.get(name);
      if (!scheme) continue; // unsupported scheme (e.g. mutualTLS): configured outside this server
      missing.push(...applyScheme(scheme, env, applied));
    }
    if (missing.length === 0) return { ok: true, applied };
    missingPerAlternative.push(missing);
  }
  const shortest = missingPerAlternative.sort((a, b) => a.length - b.length)[0] ?? [];
  return { ok: false, missing: shortest };
}

/** Adds one scheme's credentials to `into`; returns the names of unset variables it needed. */
function applyScheme(scheme: CatalogSecurityScheme, env: NodeJS.ProcessEnv, into: AppliedCredentials): string[] {
  const value = scheme.env.value ? env[scheme.env.value] : undefined;
  switch (scheme.kind) {
    case 'apiKey': {
      if (!value) return [scheme.env.value!];
      const name = scheme.paramName ?? scheme.name;
      if (scheme.in === 'query') into.query.push([name, value]);
      else if (scheme.in === 'cookie') into.cookies.push([name, value]);
      else into.headers[name.toLowerCase()] = value;
      return [];
    }
    case 'http-basic': {
      const user = scheme.env.username ? env[scheme.env.username] : undefined;
      const password = scheme.env.password ? (env[scheme.env.password] ?? '') : '';
      if (!user) return [scheme.env.username!];
      into.headers['authorization'] = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      return [];
    }
    case 'http-raw': {
      if (!value) return [scheme.env.value!];
      into.headers['authorization'] = value.includes(' ') ? value : `${capitalize(scheme.scheme ?? 'Bearer')} ${value}`;
      return [];
    }
    default: {
      // bearer, oauth2 and openIdConnect all take a ready access token.
      if (!value) return [scheme.env.value!];
      into.headers['authorization'] = `Bearer ${value}`;
      return [];
    }
  }
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Every credential value currently configured, so logs and results can redact them. */
export function configuredSecrets(schemes: readonly CatalogSecurityScheme[], env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const s of schemes) {
    for (const name of [s.env.value, s.env.password]) {
      const v = name ? env[name] : undefined;
      if (v) values.push(v);
    }
  }
  return values;
}
