/**
 * Upstream credentials, applied per the operation's security requirements: the first alternative whose
 * schemes all have credentials wins; a public operation sends none. A scheme's credential comes from, in
 * this order: the caller's request header (HTTP, when the caller-credentials mapping covers the scheme),
 * the server's environment, and for OAuth 2 client-credentials schemes a token the server fetches itself.
 */
import { Buffer } from 'node:buffer';
import type { CatalogSecurityScheme } from '../contract/catalog.js';
import type { CallerCredentialValues, CallerHeaderMap } from '../contract/caller-credentials.js';
import type { TokenRequest } from './oauth-client.js';

export interface AppliedCredentials {
  headers: Record<string, string>;
  query: Array<[string, string]>;
  cookies: Array<[string, string]>;
  /** Every credential value sent (and the forms it may be echoed in), so results can be redacted. */
  secrets: string[];
  /** The client-credentials tokens this request carries, so one the API refuses can be forgotten. */
  tokens: Array<{ request: TokenRequest; token: string }>;
}

export interface CredentialSources {
  env: NodeJS.ProcessEnv;
  /** This caller's credentials by scheme name; they win over the environment for the schemes they cover. */
  caller?: CallerCredentialValues;
  /** Which header each caller-supplied scheme is read from (named in missing-credential messages). */
  callerHeaders?: CallerHeaderMap;
  /** Resolves a relative token URL (OpenAPI allows them) against the API's base URL. */
  baseUrl?: string;
  /** Gets an access token for a client-credentials scheme (see oauth-client.ts). */
  fetchToken?: (request: TokenRequest) => Promise<string>;
}

/** What is missing for one scheme, to tell the user which variable (or header) to set. */
export interface MissingCredential {
  scheme: string;
  variable: string;
  /** Variables that would do instead (client id and secret, for client-credentials schemes). */
  orVariables?: string[];
  /** Over HTTP, the request header a caller may send it in. */
  header?: string;
}

export type CredentialResolution =
  | { ok: true; applied: AppliedCredentials }
  | { ok: false; missing: MissingCredential[] }
  | { ok: false; failed: string };

/** One scheme's credential, once its source is known. */
type SchemeCredential =
  | { scheme: CatalogSecurityScheme; source: 'value'; value: string }
  | { scheme: CatalogSecurityScheme; source: 'basic'; username: string; password: string }
  | { scheme: CatalogSecurityScheme; source: 'client-credentials'; request: TokenRequest }
  /** Presented by the TLS connection itself (a client certificate): nothing goes on the request. */
  | { scheme: CatalogSecurityScheme; source: 'connection' };

type CredentialChoice = { ok: true; credentials: SchemeCredential[] } | { ok: false; missing: MissingCredential[] };

export async function resolveCredentials(
  requirement: readonly (readonly string[])[] | undefined,
  schemes: readonly CatalogSecurityScheme[],
  sources: CredentialSources,
): Promise<CredentialResolution> {
  const choice = chooseCredentials(requirement, schemes, sources);
  if (!choice.ok) return choice;
  try {
    return { ok: true, applied: await applyCredentials(choice.credentials, sources) };
  } catch (error) {
    return { ok: false, failed: error instanceof Error ? error.message : String(error) };
  }
}

/** Picks the first alternative whose schemes all have a credential, without fetching anything yet. */
function chooseCredentials(
  requirement: readonly (readonly string[])[] | undefined,
  schemes: readonly CatalogSecurityScheme[],
  sources: CredentialSources,
): CredentialChoice {
  if (!requirement || requirement.length === 0) return { ok: true, credentials: [] };
  const byName = new Map(schemes.map((s) => [s.name, s]));
  const missingPerAlternative: MissingCredential[][] = [];
  for (const alternative of requirement) {
    const credentials: SchemeCredential[] = [];
    const missing: MissingCredential[] = [];
    for (const name of alternative) {
      const scheme = byName.get(name);
      if (!scheme) continue; // a scheme the catalog does not carry: nothing this server could send
      const found = credentialFor(scheme, sources);
      if ('variable' in found) missing.push(found);
      else credentials.push(found);
    }
    if (missing.length === 0) return { ok: true, credentials };
    missingPerAlternative.push(missing);
  }
  const shortest = missingPerAlternative.sort((a, b) => a.length - b.length)[0] ?? [];
  return { ok: false, missing: shortest };
}

function credentialFor(
  scheme: CatalogSecurityScheme,
  sources: CredentialSources,
): SchemeCredential | MissingCredential {
  if (scheme.kind === 'mutualTLS') return clientCertificate(scheme, sources.env);
  const fromCaller = sources.caller?.get(scheme.name);
  if (fromCaller) return { scheme, source: 'value', value: fromCaller };
  const env = sources.env;
  if (scheme.kind === 'http-basic') {
    const username = scheme.env.username ? env[scheme.env.username] : undefined;
    if (username)
      return {
        scheme,
        source: 'basic',
        username,
        password: scheme.env.password ? (env[scheme.env.password] ?? '') : '',
      };
    return missingFor(scheme, scheme.env.username!, sources);
  }
  const value = scheme.env.value ? env[scheme.env.value] : undefined;
  if (value) return { scheme, source: 'value', value };
  const request = clientCredentialsRequest(scheme, sources);
  if (request) return { scheme, source: 'client-credentials', request };
  return missingFor(scheme, scheme.env.value!, sources);
}

function missingFor(scheme: CatalogSecurityScheme, variable: string, sources: CredentialSources): MissingCredential {
  const header = sources.callerHeaders?.get(scheme.name);
  const orVariables =
    scheme.clientCredentials && scheme.env.clientId && scheme.env.clientSecret
      ? [scheme.env.clientId, scheme.env.clientSecret]
      : undefined;
  return { scheme: scheme.name, variable, ...(orVariables ? { orVariables } : {}), ...(header ? { header } : {}) };
}

/** Set at start or the server would not have started (upstream-tls.ts), so the variable being set is enough. */
function clientCertificate(
  scheme: CatalogSecurityScheme,
  env: NodeJS.ProcessEnv,
): SchemeCredential | MissingCredential {
  const { certFile = 'API_TLS_CERT_FILE', privateFile = 'API_TLS_PRIVATE_FILE' } = scheme.env;
  if (env[certFile]?.trim()) return { scheme, source: 'connection' };
  return { scheme: scheme.name, variable: `${certFile} and ${privateFile}` };
}

/** The token request for a client-credentials scheme whose client id and secret are both set. */
function clientCredentialsRequest(scheme: CatalogSecurityScheme, sources: CredentialSources): TokenRequest | undefined {
  const flow = scheme.clientCredentials;
  const { env } = sources;
  const clientId = scheme.env.clientId ? env[scheme.env.clientId] : undefined;
  const clientSecret = scheme.env.clientSecret ? env[scheme.env.clientSecret] : undefined;
  if (!flow || !clientId || !clientSecret) return undefined;
  const configuredUrl = (scheme.env.tokenUrl ? env[scheme.env.tokenUrl]?.trim() : undefined) || flow.tokenUrl;
  const tokenUrl = sources.baseUrl
    ? new URL(configuredUrl, withTrailingSlash(sources.baseUrl)).toString()
    : configuredUrl;
  const scopesOverride = scheme.env.scopes ? env[scheme.env.scopes] : undefined;
  const scopes = scopesOverride === undefined ? flow.scopes : scopesOverride.split(/[\s,]+/).filter(Boolean);
  return { tokenUrl, clientId, clientSecret, scopes };
}

/** `new URL('token', 'https://x/api')` drops `api`; the base URL is a folder here. */
function withTrailingSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** Puts the chosen credentials on the request; fetches client-credentials tokens (may throw). */
async function applyCredentials(
  credentials: readonly SchemeCredential[],
  sources: Pick<CredentialSources, 'fetchToken'>,
): Promise<AppliedCredentials> {
  const applied: AppliedCredentials = { headers: {}, query: [], cookies: [], secrets: [], tokens: [] };
  for (const credential of credentials) {
    if (credential.source === 'connection') continue;
    if (credential.source === 'basic') {
      applyBasic(credential.username, credential.password, applied);
    } else if (credential.source === 'client-credentials') {
      const token = await fetchSchemeToken(credential.scheme, credential.request, sources);
      applyValue(credential.scheme, token, applied);
      applied.tokens.push({ request: credential.request, token });
    } else {
      applyValue(credential.scheme, credential.value, applied);
    }
  }
  return applied;
}

/** A failed token request names the scheme and the variable that would do without one. */
async function fetchSchemeToken(
  scheme: CatalogSecurityScheme,
  request: TokenRequest,
  sources: Pick<CredentialSources, 'fetchToken'>,
): Promise<string> {
  const readyToken = scheme.env.value
    ? `; setting ${scheme.env.value} to a ready access token avoids the token request`
    : '';
  if (!sources.fetchToken) throw new Error(`no token client for scheme ${scheme.name}${readyToken}`);
  try {
    return await sources.fetchToken(request);
  } catch (error) {
    throw new Error(`scheme ${scheme.name}: ${error instanceof Error ? error.message : String(error)}${readyToken}`, {
      cause: error,
    });
  }
}

function applyBasic(username: string, password: string, into: AppliedCredentials): void {
  const encoded = Buffer.from(`${username}:${password}`).toString('base64');
  into.headers['authorization'] = `Basic ${encoded}`;
  into.secrets.push(encoded, `${username}:${password}`, ...(password ? [password] : []));
}

function applyValue(scheme: CatalogSecurityScheme, value: string, into: AppliedCredentials): void {
  switch (scheme.kind) {
    case 'apiKey': {
      const name = scheme.paramName ?? scheme.name;
      if (scheme.in === 'query') into.query.push([name, value]);
      else if (scheme.in === 'cookie') into.cookies.push([name, value]);
      else into.headers[name.toLowerCase()] = value;
      into.secrets.push(value, ...withoutAuthWord(value));
      return;
    }
    case 'http-basic': {
      // Only a caller's header reaches here: either a whole `Basic …` value or `user:password`.
      const whole = /^basic\s+/i.test(value) ? value : `Basic ${Buffer.from(value).toString('base64')}`;
      into.headers['authorization'] = whole;
      into.secrets.push(whole, ...withoutAuthWord(whole), value);
      return;
    }
    case 'http-raw': {
      const whole = value.includes(' ') ? value : `${capitalize(scheme.scheme ?? 'Bearer')} ${value}`;
      into.headers['authorization'] = whole;
      into.secrets.push(whole, ...withoutAuthWord(whole));
      return;
    }
    default: {
      // bearer, oauth2 and openIdConnect all take an access token; a pasted `Bearer …` is accepted too.
      const token = value.replace(/^bearer\s+/i, '');
      into.headers['authorization'] = `Bearer ${token}`;
      into.secrets.push(token);
      return;
    }
  }
}

/** `Basic abc` → `abc`: upstreams that echo a credential often echo only its second half. */
function withoutAuthWord(value: string): string[] {
  const match = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(value);
  return match?.[1] ? [match[1]] : [];
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The message of a tool error for missing credentials: which variables to set, or which header to send. */
export function missingCredentialsMessage(tool: string, missing: readonly MissingCredential[]): string {
  const variables = missing.map((m) =>
    m.orVariables ? `${m.variable} (or ${m.orVariables.join(' and ')})` : m.variable,
  );
  const headers = missing.filter((m) => m.header).map((m) => m.header!);
  const viaHeaders =
    headers.length > 0
      ? ` Over HTTP a caller may send ${headers.map((h) => `the ${h} header`).join(' and ')} instead.`
      : '';
  return `Missing credentials for ${tool}: set ${variables.join(' and ')} in the server's environment.${viaHeaders}`;
}

/** Every credential value configured in the environment for these schemes, so logs and results can redact them. */
export function configuredSecrets(schemes: readonly CatalogSecurityScheme[], env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const s of schemes) {
    for (const name of [s.env.value, s.env.password, s.env.clientSecret]) {
      const v = name ? env[name] : undefined;
      if (v) values.push(v, ...withoutAuthWord(v));
    }
  }
  return values;
}
