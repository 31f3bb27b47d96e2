/**
 * Credentials never reach the model: upstream bodies that echo one (an error page quoting the Authorization
 * header, a debug endpoint listing the query string) are redacted before a result leaves the server.
 */
import { configuredSecrets } from './auth.js';
import type { Catalog } from './catalog.js';
import { endpointSecrets } from './endpoint-auth-config.js';
import { redact } from './log.js';
import type { ToolContent, ToolResult } from './response.js';

/** Every secret the server itself is configured with: upstream credentials and the endpoint's own. */
export function serverSecrets(catalog: Pick<Catalog, 'securitySchemes'>, env: NodeJS.ProcessEnv): string[] {
  return [...configuredSecrets(catalog.securitySchemes, env), ...endpointSecrets(env)];
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
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every secret in the result's text content and in every string of its structured content. */
export function redactResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  const forms = secretForms(secrets).filter((s) => s.length >= 4);
  if (forms.length === 0) return result;
  const content = result.content.map((c) => redactContent(c, forms));
  const structured = result.structuredContent === undefined ? undefined : (redactValue(result.structuredContent, forms) as Record<string, unknown>);
  return { ...result, content, ...(structured !== undefined ? { structuredContent: structured } : {}) };
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
