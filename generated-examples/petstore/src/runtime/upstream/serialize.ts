/**
 * Parameter serialization per OpenAPI 3.x `style` / `explode` (which follow RFC 6570 URI templates).
 *
 * Every function here is pure: a ParamPlan plus the tool argument in, encoded text out. The request
 * builder (request.ts) assembles those pieces into a URL and headers.
 *
 * Value conventions shared by every location:
 * - `undefined` means "not given": the parameter is omitted.
 * - `null` is sent as an empty value (`a=` in a query).
 * - booleans become `true` / `false`, numbers their plain decimal digits (never `1e+21`: see numberToText).
 * - A value nested deeper than the style can express (an object inside an array, say) is sent as JSON,
 *   since OpenAPI defines no serialization for it and JSON is the least surprising fallback.
 * - A parameter with `contentType` (declared with `content`, not `schema`) is JSON text, encoded like a
 *   plain string in its location.
 */
import { isPlainObject } from '../contract/plain-object.js';
import type { ParamPlan, ParamStyle } from '../contract/catalog.js';

/** A request could not be built from the arguments (missing path argument, unsafe URL, bad body). */
export class RequestBuildError extends Error {
  override readonly name = 'RequestBuildError';
}

/** One query (or form) pair, key and value already percent-encoded. */
export type EncodedPair = [key: string, value: string];

// ---------------------------------------------------------------------------------------------------
// Encoders
// ---------------------------------------------------------------------------------------------------

/**
 * Lone UTF-16 surrogates make encodeURIComponent throw a URIError, and JSON input can carry them
 * (`"\ud800"`). Replace them with U+FFFD so a stray surrogate never crashes a request.
 */
export function toWellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** encodeURIComponent, plus `!'()*`: the output contains RFC 3986 unreserved characters only. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(toWellFormed(text)).replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/**
 * Encodes a value that goes into a path segment. Besides everything encodeRfc3986 encodes (notably `/`,
 * `?` and `#`), a value that is exactly `.` or `..` is written as `%2E` / `%2E%2E`. Note that the WHATWG
 * URL parser (and so fetch) still collapses `%2E%2E` segments, which is why request.ts also refuses
 * any path whose substituted segment is a dot-segment.
 */
export function encodePathValue(text: string): string {
  if (text === '.') return '%2E';
  if (text === '..') return '%2E%2E';
  return encodeRfc3986(text);
}

/**
 * Query keys are percent-encoded like values, except that `[` and `]` stay literal: names such as
 * `filter[status]` or `page[size]` are written the way API documentation shows them (and how deepObject
 * keys look). Brackets have no delimiting role in a query, and URL parsers leave them alone.
 */
export function encodeQueryKey(name: string): string {
  return encodeRfc3986(name).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/**
 * `allowReserved: true` (RFC 6570 reserved expansion): RFC 3986 unreserved and reserved characters and
 * existing percent-encoded triplets pass through unchanged; everything that may never appear in a URL
 * is still percent-encoded (spaces, control characters, non-ASCII, `"<>\^`{|}`, and a `%` that does not
 * start a `%XX` triplet).
 *
 * One exception to "reserved passes through": `#` is always encoded. An unencoded `#` ends the query and
 * starts the fragment, which would silently drop the rest of the value and every later parameter; OAS
 * 3.1.1 also notes that `#`, `[`, `]` are not allowed in a query even with allowReserved. `[` and `]` are
 * kept, since URL parsers accept them in queries and APIs that ask for allowReserved usually want them.
 */
export function encodeAllowingReserved(text: string): string {
  return toWellFormed(text).replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~:/?[\]@!$&'()*+,;=%]/gu, (char) =>
    encodeURIComponent(char),
  );
}

/**
 * A header value must never contain CR, LF or NUL: with those, one argument could smuggle in a second
 * header. They are percent-encoded (`%0D`, `%0A`, `%00`) rather than stripped, so the server can still
 * see what was sent. The same treatment is applied to the other characters fetch refuses in a header
 * value (remaining control characters except tab, DEL, and anything above U+00FF, encoded as UTF-8);
 * fetch would otherwise reject the whole request.
 */
export function sanitizeHeaderValue(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what a header value may not carry
  return toWellFormed(text).replace(/[\u0000-\u0008\u000A-\u001F\u007F]|[^\u0000-\u00FF]/gu, (char) =>
    encodeURIComponent(char),
  );
}

// ---------------------------------------------------------------------------------------------------
// Value shapes
// ---------------------------------------------------------------------------------------------------

function isContainer(value: unknown): boolean {
  return Array.isArray(value) || isPlainObject(value);
}

/** The text of a single value: scalars as JavaScript prints them, null as '', containers as JSON. */
export function scalarToString(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberToText(value);
  if (typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

const EXPONENT_FORM = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * A number in plain decimal notation. JavaScript writes 1e21 and up (and below 1e-6) in exponent form, and an
 * integer that large passes an `integer` schema: `String(1e21)` is `1e+21`, which an API parsing an integer
 * from a path or query refuses. The digits are the ones JavaScript prints, only the decimal point moves.
 */
export function numberToText(value: number): string {
  const text = String(value);
  const match = EXPONENT_FORM.exec(text);
  if (!match) return text;
  const [, sign = '', lead = '', fraction = '', exponent = '0'] = match;
  const digits = lead + fraction;
  const point = 1 + Number(exponent);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The three shapes that OpenAPI styles distinguish, with every leaf already turned into text. */
type Shape =
  | { kind: 'primitive'; text: string }
  | { kind: 'array'; items: string[] }
  | { kind: 'object'; entries: Array<[string, string]> };

function shapeOf(value: unknown): Shape {
  if (Array.isArray(value)) return { kind: 'array', items: value.map(scalarToString) };
  if (isPlainObject(value)) {
    // Properties set to undefined are absent, as they would be after a JSON round trip.
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return { kind: 'object', entries: entries.map(([k, v]) => [k, scalarToString(v)]) };
  }
  return { kind: 'primitive', text: scalarToString(value) };
}

/** `{R:100,G:200}` → `R,100,G,200` (the non-exploded object form), each part encoded. */
function flatEntries(entries: Array<[string, string]>, encode: (s: string) => string): string[] {
  return entries.flatMap(([key, value]) => [encode(key), encode(value)]);
}

/** `{R:100,G:200}` → `R=100`, `G=200` (the exploded object form), each side encoded. */
function keyValueEntries(entries: Array<[string, string]>, encode: (s: string) => string): string[] {
  return entries.map(([key, value]) => `${encode(key)}=${encode(value)}`);
}

function contentParamText(value: unknown): string {
  return JSON.stringify(value) ?? '';
}

// ---------------------------------------------------------------------------------------------------
// Path
// ---------------------------------------------------------------------------------------------------

/**
 * The text that replaces `{name}` in the path template. Styles: simple (default), label, matrix.
 * The result never contains `/`, `?` or `#`, so a value always stays inside its own segment.
 * Empty values follow the OpenAPI examples table: simple → ``, label → `.`, matrix → `;name`.
 */
export function serializePathParam(plan: ParamPlan, value: unknown): string {
  const shape: Shape = plan.contentType ? { kind: 'primitive', text: contentParamText(value) } : shapeOf(value);
  switch (plan.style) {
    case 'label':
      return labelPath(shape, plan.explode);
    case 'matrix':
      return matrixPath(encodeRfc3986(plan.name), shape, plan.explode);
    default:
      return simpleValue(shape, plan.explode, encodePathValue);
  }
}

/** simple: `blue`, `blue,black,brown`, `R,100,G,200` or (explode) `R=100,G=200`. Also used by headers. */
function simpleValue(shape: Shape, explode: boolean, encode: (s: string) => string): string {
  switch (shape.kind) {
    case 'primitive':
      return encode(shape.text);
    case 'array':
      return shape.items.map(encode).join(',');
    case 'object':
      return (explode ? keyValueEntries(shape.entries, encode) : flatEntries(shape.entries, encode)).join(',');
  }
}

/** label: `.blue`, `.blue,black` or (explode) `.blue.black`, `.R,100,G,200` or (explode) `.R=100.G=200`. */
function labelPath(shape: Shape, explode: boolean): string {
  const separator = explode ? '.' : ',';
  switch (shape.kind) {
    case 'primitive':
      return `.${encodePathValue(shape.text)}`;
    case 'array':
      return `.${shape.items.map(encodePathValue).join(separator)}`;
    case 'object': {
      const parts = explode
        ? keyValueEntries(shape.entries, encodePathValue)
        : flatEntries(shape.entries, encodePathValue);
      return `.${parts.join(separator)}`;
    }
  }
}

/**
 * matrix: `;color=blue`, `;color=blue,black` or (explode) `;color=blue;color=black`,
 * `;color=R,100,G,200` or (explode) `;R=100;G=200`. An empty value is `;color` (RFC 6570).
 */
function matrixPath(name: string, shape: Shape, explode: boolean): string {
  const named = (key: string, text: string): string => (text === '' ? `;${key}` : `;${key}=${encodePathValue(text)}`);
  switch (shape.kind) {
    case 'primitive':
      return named(name, shape.text);
    case 'array':
      if (shape.items.length === 0) return `;${name}`;
      return explode
        ? shape.items.map((item) => named(name, item)).join('')
        : `;${name}=${shape.items.map(encodePathValue).join(',')}`;
    case 'object':
      if (shape.entries.length === 0) return `;${name}`;
      return explode
        ? shape.entries.map(([key, text]) => named(encodePathValue(key), text)).join('')
        : `;${name}=${flatEntries(shape.entries, encodePathValue).join(',')}`;
  }
}

// ---------------------------------------------------------------------------------------------------
// Query
// ---------------------------------------------------------------------------------------------------

/** The separator between array items (or object keys and values) of a non-exploded query value. */
function delimiterFor(style: ParamStyle): string {
  switch (style) {
    case 'spaceDelimited':
      return '%20';
    case 'pipeDelimited':
      return '|';
    case 'tabDelimited':
      return '%09';
    default:
      return ',';
  }
}

/**
 * The encoded `key=value` pairs one query parameter contributes (none when the value is undefined).
 *
 * - form (default): `color=blue`; arrays `color=blue&color=black` (explode) or `color=blue,black`;
 *   objects `R=100&G=200` (explode) or `color=R,100,G,200`.
 * - spaceDelimited / pipeDelimited / tabDelimited: arrays and objects joined by `%20`, `|`, `%09`;
 *   with explode true they behave like exploded form (the spec leaves that case undefined).
 * - deepObject: `color[R]=100`; see flattenBracketed for nesting and arrays.
 * - simple / label / matrix are path styles; in a query they are treated as form.
 *
 * Empty arrays and objects are omitted entirely (RFC 6570: an empty list or map is undefined).
 */
export function serializeQueryParam(plan: ParamPlan, value: unknown): EncodedPair[] {
  if (value === undefined) return [];
  const key = encodeQueryKey(plan.name);
  const encode = plan.allowReserved ? encodeAllowingReserved : encodeRfc3986;
  if (plan.contentType) return [[key, encode(contentParamText(value))]];
  if (plan.style === 'deepObject') return flattenBracketed(key, value, encode);

  const shape = shapeOf(value);
  if (shape.kind === 'primitive') return [[key, encode(shape.text)]];
  if (shape.kind === 'array' && shape.items.length === 0) return [];
  if (shape.kind === 'object' && shape.entries.length === 0) return [];

  if (plan.explode) {
    return shape.kind === 'array'
      ? shape.items.map((item): EncodedPair => [key, encode(item)])
      : shape.entries.map(([k, v]): EncodedPair => [encodeQueryKey(k), encode(v)]);
  }
  const parts = shape.kind === 'array' ? shape.items.map(encode) : flatEntries(shape.entries, encode);
  return [[key, parts.join(delimiterFor(plan.style))]];
}

/**
 * Bracket notation, shared by query `deepObject` and form bodies (Stripe's convention):
 * - objects: `a[k]=v`, nested `a[k][j]=v`;
 * - arrays of scalars: `a[k][]=v1&a[k][]=v2`. OpenAPI leaves arrays inside deepObject undefined; `[]` is
 *   what Rails, PHP, qs and Stripe all parse back into an array, so it is the choice here;
 * - arrays that contain objects or arrays are indexed instead, `a[0][price]=x`, because `[]` cannot say
 *   which element a nested key belongs to;
 * - null is an empty value (`a[k]=`), undefined is skipped, empty arrays and objects produce nothing.
 *
 * `key` must already be encoded; object keys are encoded here, brackets in them included.
 */
export function flattenBracketed(
  key: string,
  value: unknown,
  encodeValue: (text: string) => string,
  out: EncodedPair[] = [],
): EncodedPair[] {
  if (value === undefined) return out;
  if (Array.isArray(value)) {
    const indexed = value.some(isContainer);
    value.forEach((item, index) => {
      flattenBracketed(indexed ? `${key}[${index}]` : `${key}[]`, item, encodeValue, out);
    });
  } else if (isPlainObject(value)) {
    for (const [childKey, child] of Object.entries(value)) {
      flattenBracketed(`${key}[${encodeRfc3986(childKey)}]`, child, encodeValue, out);
    }
  } else {
    out.push([key, encodeValue(scalarToString(value))]);
  }
  return out;
}

/** `[['a','1'],['b','2']]` → `a=1&b=2`. */
export function joinPairs(pairs: EncodedPair[]): string {
  return pairs.map(([key, value]) => `${key}=${value}`).join('&');
}

// ---------------------------------------------------------------------------------------------------
// Header
// ---------------------------------------------------------------------------------------------------

/**
 * A header value, style simple: `blue`, `blue,black,brown`, `R,100,G,200` or (explode) `R=100,G=200`.
 * Values are sent as they are (headers are not percent-encoded), except for the characters
 * sanitizeHeaderValue neutralizes. Undefined, empty arrays and empty objects mean "no header".
 */
export function serializeHeaderParam(plan: ParamPlan, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (plan.contentType) return sanitizeHeaderValue(contentParamText(value));
  const shape = shapeOf(value);
  if (shape.kind === 'array' && shape.items.length === 0) return undefined;
  if (shape.kind === 'object' && shape.entries.length === 0) return undefined;
  return sanitizeHeaderValue(simpleValue(shape, plan.explode, (text) => text));
}

// ---------------------------------------------------------------------------------------------------
// Cookie
// ---------------------------------------------------------------------------------------------------

/**
 * The `name=value` cookie pairs one cookie parameter contributes, style form:
 * `color=blue`; arrays `color=blue,black` or (explode) `color=blue; color=black`; objects
 * `color=R,100,G,200` or (explode) `R=100; G=200`. Names and values are percent-encoded
 * (encodeURIComponent plus `!'()*`), so `;`, `,`, `=` and spaces inside a value cannot end the pair or
 * start another cookie. Join the pairs of all cookie parameters with joinCookiePairs.
 */
export function serializeCookieParam(plan: ParamPlan, value: unknown): string[] {
  if (value === undefined) return [];
  const name = encodeRfc3986(plan.name);
  if (plan.contentType) return [`${name}=${encodeRfc3986(contentParamText(value))}`];
  const shape = shapeOf(value);
  switch (shape.kind) {
    case 'primitive':
      return [`${name}=${encodeRfc3986(shape.text)}`];
    case 'array':
      if (shape.items.length === 0) return [];
      return plan.explode
        ? shape.items.map((item) => `${name}=${encodeRfc3986(item)}`)
        : [`${name}=${shape.items.map(encodeRfc3986).join(',')}`];
    case 'object':
      if (shape.entries.length === 0) return [];
      return plan.explode
        ? keyValueEntries(shape.entries, encodeRfc3986)
        : [`${name}=${flatEntries(shape.entries, encodeRfc3986).join(',')}`];
  }
}

/** `['a=1', 'b=2']` → `a=1; b=2`, the value of a `Cookie` header. */
export function joinCookiePairs(pairs: string[]): string {
  return pairs.join('; ');
}
