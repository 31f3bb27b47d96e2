/**
 * Builds the upstream HTTP request for one tool call from its RequestPlan and the tool arguments.
 */
import type { ParamPlan, RequestPlan } from '../contract/catalog.js';
import { encodeBody } from './body.js';
import {
  RequestBuildError,
  joinCookiePairs,
  joinPairs,
  serializeCookieParam,
  serializeHeaderParam,
  serializePathParam,
  serializeQueryParam,
} from './serialize.js';

export { RequestBuildError } from './serialize.js';

export interface BuiltRequest {
  method: string;
  url: string;
  /** Lowercase header names. */
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export const DEFAULT_ACCEPT = 'application/json, */*';

/**
 * `baseUrl` is the effective base for this operation: resolving `plan.server` (and any configured
 * override) is the caller's job. The resulting URL is guaranteed to be on baseUrl's origin.
 */
export function buildRequest(plan: RequestPlan, args: Record<string, unknown>, baseUrl: string): BuiltRequest {
  const base = parseBaseUrl(baseUrl);
  const { pathTemplate, templateQuery } = splitPathTemplate(plan.path);
  const path = substitutePath(pathTemplate, plan.params, args);
  const url = joinUrl(baseUrl, path) + queryString(templateQuery, plan.params, args);
  assertSameOrigin(url, base);

  const headers = new Map<string, string>([['accept', plan.accept ?? DEFAULT_ACCEPT]]);
  addHeaderParams(headers, plan.params, args);
  addCookieHeader(headers, plan.params, args);

  const request: BuiltRequest = { method: plan.method.toUpperCase(), url, headers: {} };
  if (plan.body) {
    const value = args[plan.body.arg];
    if (value === undefined) {
      if (plan.body.required) throw new RequestBuildError(`Missing required request body argument "${plan.body.arg}".`);
      if (plan.body.contentTypeRequired) headers.set('content-type', plan.body.mediaType);
    } else {
      const encoded = encodeBody(plan.body, value);
      request.body = encoded.body;
      // The body encoder knows what it produced (for multipart, its boundary), so its Content-Type wins over
      // a `Content-Type` header parameter.
      if (encoded.contentType === undefined) headers.delete('content-type');
      else headers.set('content-type', encoded.contentType);
    }
  }
  // fromEntries defines own properties, so even a header named `__proto__` survives.
  request.headers = Object.fromEntries(headers);
  return request;
}

// ---------------------------------------------------------------------------------------------------
// URL
// ---------------------------------------------------------------------------------------------------

function parseBaseUrl(baseUrl: string): URL {
  let base: URL;
  try {
    base = new URL(baseUrl);
  } catch {
    throw new RequestBuildError(`Invalid base URL "${baseUrl}": it must be an absolute http(s) URL.`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new RequestBuildError(`Invalid base URL "${baseUrl}": only http and https are supported.`);
  }
  return base;
}

/** `/search?type=all` → path `/search`, query `type=all` (kept verbatim, further params appended). */
function splitPathTemplate(template: string): { pathTemplate: string; templateQuery: string | undefined } {
  const questionMark = template.indexOf('?');
  if (questionMark === -1) return { pathTemplate: template, templateQuery: undefined };
  return { pathTemplate: template.slice(0, questionMark), templateQuery: template.slice(questionMark + 1) };
}

const PLACEHOLDER = /\{([^{}]+)\}/g;

/**
 * Replaces each `{name}` with its serialized path parameter, then checks every segment that received
 * a value. Serialized values never contain `/`, so template segments and result segments line up.
 */
function substitutePath(template: string, params: ParamPlan[], args: Record<string, unknown>): string {
  const pathParams = params.filter((param) => param.in === 'path');
  const path = template.replace(PLACEHOLDER, (_match, name: string) => {
    const param = pathParams.find((candidate) => candidate.name === name);
    if (param === undefined) {
      throw new RequestBuildError(`Path template "${template}" has a placeholder {${name}} without a path parameter.`);
    }
    const value = args[param.arg];
    if (value === undefined || value === null) {
      throw new RequestBuildError(`Missing required path argument "${param.arg}".`);
    }
    return serializePathParam(param, value);
  });
  assertSegmentsStayPut(template, path, pathParams);
  return path;
}

/**
 * A substituted segment must not be empty (`/users/{id}` with id "" would hit `/users/`, a different
 * endpoint) and must not be a dot-segment: URL parsers, fetch included, collapse `..`, `%2E%2E`,
 * `.%2E` and friends, so `/users/{id}/posts` with id ".." would silently become `/posts`.
 */
function assertSegmentsStayPut(template: string, path: string, pathParams: ParamPlan[]): void {
  const placeholders = segmentPlaceholders(template);
  const pathSegments = path.split('/');
  placeholders.forEach((names, index) => {
    if (names === undefined) return;
    const segment = pathSegments[index] ?? '';
    if (segment !== '' && !isDotSegment(segment)) return;
    const argNames = names
      .map((name) => pathParams.find((param) => param.name === name)?.arg ?? name)
      .map((arg) => `"${arg}"`)
      .join(', ');
    if (segment === '') {
      throw new RequestBuildError(`Path argument ${argNames} must not be empty.`);
    }
    throw new RequestBuildError(
      `Path argument ${argNames} must not be "." or "..": it would change which endpoint is called.`,
    );
  });
}

/** For each `/` segment of a path template, the placeholder names in it (undefined for none); worked out once per template. */
const placeholdersByTemplate = new Map<string, Array<string[] | undefined>>();

function segmentPlaceholders(template: string): Array<string[] | undefined> {
  let placeholders = placeholdersByTemplate.get(template);
  if (!placeholders) {
    placeholders = template.split('/').map((segment) => {
      const names = [...segment.matchAll(PLACEHOLDER)].map((match) => match[1]!);
      return names.length > 0 ? names : undefined;
    });
    placeholdersByTemplate.set(template, placeholders);
  }
  return placeholders;
}

function isDotSegment(segment: string): boolean {
  const normalized = segment.toLowerCase().replace(/%2e/g, '.');
  return normalized === '.' || normalized === '..';
}

function joinUrl(baseUrl: string, path: string): string {
  const trimmedBase = baseUrl.replace(/\/+$/, '');
  if (path === '') return trimmedBase;
  return path.startsWith('/') ? trimmedBase + path : `${trimmedBase}/${path}`;
}

function queryString(templateQuery: string | undefined, params: ParamPlan[], args: Record<string, unknown>): string {
  const pairs = params
    .filter((param) => param.in === 'query')
    .flatMap((param) => serializeQueryParam(param, args[param.arg]));
  const parts = [templateQuery, joinPairs(pairs)].filter((part): part is string => part !== undefined && part !== '');
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/**
 * Defence in depth: whatever the template and arguments were, the request goes to the configured origin.
 * (Values are percent-encoded and the path is always joined after a `/`, so this should never fire; it
 * is here so that a future change to either cannot quietly send credentials to another host.)
 */
export function assertSameOrigin(url: string, baseUrl: string | URL): void {
  const base = typeof baseUrl === 'string' ? parseBaseUrl(baseUrl) : baseUrl;
  // An origin is already in canonical form, and the `/` after it ends the authority: a URL that starts
  // that way parses back to the same origin, so only other URLs need a full parse.
  if (url.startsWith(`${base.origin}/`)) return;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new RequestBuildError(`The request URL "${url}" is not a valid URL.`);
  }
  if (target.origin !== base.origin) {
    throw new RequestBuildError(
      `The request URL would leave the API's origin (${base.origin} → ${target.origin}); refusing to send it.`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Headers
// ---------------------------------------------------------------------------------------------------

/** Header parameters as the plan names them (a plan may legitimately set `accept` and others). */
function addHeaderParams(headers: Map<string, string>, params: ParamPlan[], args: Record<string, unknown>): void {
  for (const param of params) {
    if (param.in !== 'header') continue;
    const value = serializeHeaderParam(param, args[param.arg]);
    if (value !== undefined) headers.set(param.name.toLowerCase(), value);
  }
}

/** All cookie parameters in one `cookie` header, after any `Cookie` header parameter. */
function addCookieHeader(headers: Map<string, string>, params: ParamPlan[], args: Record<string, unknown>): void {
  const pairs = params
    .filter((param) => param.in === 'cookie')
    .flatMap((param) => serializeCookieParam(param, args[param.arg]));
  if (pairs.length === 0) return;
  const existing = headers.get('cookie');
  headers.set('cookie', joinCookiePairs(existing ? [existing, ...pairs] : pairs));
}
