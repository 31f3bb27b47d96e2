/**
 * Credentials never reach the model: upstream bodies that echo one (an error page quoting the Authorization
 * header, a debug endpoint listing the query string) are redacted before a result leaves the server.
 */
import { Buffer } from 'node:buffer';
import { configuredSecrets } from '../upstream-auth/schemes.js';
import type { Catalog } from '../contract/catalog.js';
import { holdsSecret, redactionOf, redactText, type Redaction } from './cut.js';
import { endpointSecrets } from '../endpoint-auth/endpoint-auth-config.js';
import { readEnv } from '../contract/environment.js';
import type { ToolContent, ToolResult } from '../upstream/response.js';

/** Every secret the server itself is configured with: upstream credentials and the endpoint's own. */
export function serverSecrets(catalog: Pick<Catalog, 'securitySchemes'>, env: NodeJS.ProcessEnv): string[] {
  const confirmKey = readEnv(env, 'MCP_SIGNING_KEY');
  const tlsPassphrase = readEnv(env, 'API_TLS_PASSPHRASE');
  return [
    ...configuredSecrets(catalog.securitySchemes, env),
    ...endpointSecrets(env),
    ...(confirmKey ? [confirmKey] : []),
    ...(tlsPassphrase ? [tlsPassphrase] : []),
  ];
}

/**
 * The forms a secret may be echoed in besides its own: percent-encoded (from a query string or cookie) and
 * JSON-escaped (inside the JSON text of a result). Longest first, so a secret that contains another is
 * replaced whole.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
    // Form encoding (URLSearchParams, .NET's UrlEncode, PHP's urlencode) writes a space as `+`; every other
    // escape in it is undone where the text is searched (cut.ts secretSpans), this one cannot be: `+` is also
    // itself, in base64.
    if (secret.includes(' ')) forms.add(secret.replaceAll(' ', '+'));
    for (const form of base64Forms(secret)) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * The secret as it shows in base64 (and base64url) text: a debug echo of a request's bytes, a stored payload, a
 * data URI. Wherever it starts in the encoded bytes (3 alignments), the characters that encode only its own bits
 * are the same: each form is those, so the secret is found inside a longer encoded text too, and at most the
 * 4 bits of its first and last characters that it shares with its neighbours stay shown.
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms: string[] = [];
  for (let before = 0; before < 3; before++) {
    const stream = Buffer.concat([Buffer.alloc(before), bytes, Buffer.alloc(2)]).toString('base64');
    const first = Math.ceil((8 * before) / 6);
    const end = Math.floor((8 * (before + bytes.length)) / 6);
    const form = stream.slice(first, end);
    forms.push(form, form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  // A short one would turn up by chance in base64 text that has nothing to do with the secret (an image in JSON).
  return forms.filter((form) => form.length >= MIN_BASE64_FORM);
}

/** 12 base64 characters: 72 bits, which no unrelated text holds by chance. */
const MIN_BASE64_FORM = 12;

/**
 * The server's own secrets in all their forms, worked out once per environment snapshot and catalog: the
 * environment is read at start-up, so they do not change between calls. Tool results and log lines share them.
 */
const serverForms = new WeakMap<object, WeakMap<object, { secrets: Set<string>; forms: string[] }>>();

function serverSecretForms(
  catalog: Pick<Catalog, 'securitySchemes'>,
  env: NodeJS.ProcessEnv,
): { secrets: Set<string>; forms: string[] } {
  // Keyed by the environment and by the catalog's schemes (which name the variables that hold secrets).
  let byCatalog = serverForms.get(env);
  if (!byCatalog) serverForms.set(env, (byCatalog = new WeakMap()));
  let cached = byCatalog.get(catalog.securitySchemes);
  if (!cached) {
    const secrets = serverSecrets(catalog, env);
    cached = { secrets: new Set(secrets), forms: redactableForms(secrets) };
    byCatalog.set(catalog.securitySchemes, cached);
  }
  return cached;
}

/** What the server's log redacts: its own secrets, in every form (see serverSecretForms). */
export function serverRedactionForms(
  catalog: Pick<Catalog, 'securitySchemes'>,
  env: NodeJS.ProcessEnv,
): readonly string[] {
  return serverSecretForms(catalog, env).forms;
}

function redactableForms(secrets: readonly string[]): string[] {
  return secretForms(secrets).filter((s) => s.length >= 4);
}

/** The forms a call's result is redacted with: the server's secrets and those the call sent. */
function callForms(
  sent: readonly string[],
  catalog: Pick<Catalog, 'securitySchemes'>,
  env: NodeJS.ProcessEnv,
): readonly string[] {
  const server = serverSecretForms(catalog, env);
  const extra = sent.filter((secret) => !server.secrets.has(secret));
  return extra.length === 0 ? server.forms : redactableForms([...extra, ...server.secrets]);
}

/** What a call's body is cut and redacted with (`sent` read when the body is, after any fresh token). */
export function callRedaction(
  sent: readonly string[],
  catalog: Pick<Catalog, 'securitySchemes'>,
  env: NodeJS.ProcessEnv,
): Redaction {
  return redactionOf(callForms(sent, catalog, env));
}

/**
 * Redacts a tool result with the server's secrets (from `env`) and those the call sent (`sent`). The common
 * case, a call that sent only configured secrets, reuses the server's precomputed forms.
 */
export function redactCallResult(
  result: ToolResult,
  sent: readonly string[],
  catalog: Pick<Catalog, 'securitySchemes'>,
  env: NodeJS.ProcessEnv,
): ToolResult {
  return redactWithForms(result, callForms(sent, catalog, env));
}

/** Replaces every secret in the result's text content and in every string of its structured content. */
export function redactResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  return redactWithForms(result, redactableForms(secrets));
}

function redactWithForms(result: ToolResult, forms: readonly string[]): ToolResult {
  // Most results hold no secret: checking first spares a copy of every string and object in them.
  if (forms.length === 0 || !resultContainsAny(result, forms)) return result;
  const content = result.content.map((c) => redactContent(c, forms));
  const structured =
    result.structuredContent === undefined
      ? undefined
      : (redactValue(result.structuredContent, forms) as Record<string, unknown>);
  return { ...result, content, ...(structured !== undefined ? { structuredContent: structured } : {}) };
}

function resultContainsAny(result: ToolResult, forms: readonly string[]): boolean {
  return (
    result.content.some((c) => c.type === 'text' && containsAny(c.text, forms)) ||
    valueContainsAny(result.structuredContent, forms)
  );
}

function valueContainsAny(value: unknown, forms: readonly string[]): boolean {
  if (typeof value === 'string') return containsAny(value, forms);
  if (Array.isArray(value)) return value.some((v) => valueContainsAny(v, forms));
  if (typeof value === 'object' && value !== null) {
    for (const [key, v] of Object.entries(value))
      if (containsAny(key, forms) || valueContainsAny(v, forms)) return true;
  }
  return false;
}

/** As written or JSON-escaped (cut.ts secretSpans): a result's text is often JSON an encoder wrote. */
function containsAny(text: string, forms: readonly string[]): boolean {
  return holdsSecret(text, forms);
}

function redact(text: string, forms: readonly string[]): string {
  return redactText(text, redactionOf(forms));
}

function redactContent(content: ToolContent, forms: readonly string[]): ToolContent {
  return content.type === 'text' ? { ...content, text: redact(content.text, forms) } : content;
}

function redactValue(value: unknown, forms: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, forms);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, forms));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k, forms), redactValue(v, forms)]));
  }
  return value;
}
