/**
 * Request body encoding: a BodyPlan plus the body argument in, the bytes (or FormData) to send and their
 * Content-Type out.
 */
import { Buffer } from 'node:buffer';
import { base64Hint, inAlphabet, isBase64 } from './base64.js';
import type { Base64Alphabet, BodyPlan, ParamStyle } from '../contract/catalog.js';
import { encodeMultipart, type MultipartPart } from './multipart.js';
import { isPlainObject } from '../contract/plain-object.js';
import {
  RequestBuildError,
  encodeQueryKey,
  encodeRfc3986,
  flattenBracketed,
  joinPairs,
  scalarToString,
  serializeQueryParam,
  type EncodedPair,
} from './serialize.js';

export interface EncodedBody {
  body: string | Uint8Array;
  /** Absent for multipart: fetch writes `multipart/form-data; boundary=…` itself. */
  contentType?: string;
}

/**
 * A file (or raw content) in tool arguments. JSON cannot carry bytes, so binary content arrives as base64
 * (a `data:<type>;base64,` prefix is accepted, since models often produce data URLs) and text content as
 * a plain string.
 */
export interface FileInput {
  base64?: string;
  text?: string;
  filename?: string;
  contentType?: string;
}

const FILE_INPUT_KEYS = new Set(['base64', 'text', 'filename', 'contentType']);
const DEFAULT_FILENAME = 'file';
const OCTET_STREAM = 'application/octet-stream';
const TEXT_PLAIN = 'text/plain';

export function encodeBody(plan: BodyPlan, value: unknown): EncodedBody {
  return encodeValue(plan, plan.base64 ? base64Text(plan.arg, value, plan.base64) : value);
}

/** Base64 text travels as that text: one that is not base64 is refused here rather than by the API. */
function base64Text(arg: string, value: unknown, alphabet: Base64Alphabet): string {
  if (typeof value !== 'string' || !isBase64(value)) throw new RequestBuildError(base64Hint(arg));
  return inAlphabet(value, alphabet);
}

function encodeValue(plan: BodyPlan, value: unknown): EncodedBody {
  switch (plan.kind) {
    case 'json':
      return { body: JSON.stringify(value) ?? 'null', contentType: concreteOr(plan.mediaType, 'application/json') };
    case 'form':
      return {
        body: encodeFormBody(value, plan.encoding),
        contentType: concreteOr(plan.mediaType, 'application/x-www-form-urlencoded'),
      };
    case 'multipart':
      return buildMultipart(value, plan);
    case 'binary':
      return encodeBinaryBody(value, plan.mediaType);
    case 'text':
      return { body: scalarToString(value), contentType: concreteOr(plan.mediaType, 'text/plain') };
  }
}

// ---------------------------------------------------------------------------------------------------
// Media types
// ---------------------------------------------------------------------------------------------------

/** `Application/JSON; charset=utf-8` → `application/json`. */
export function mediaTypeEssence(mediaType: string): string {
  return (mediaType.split(';')[0] ?? '').trim().toLowerCase();
}

export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaTypeEssence(mediaType);
  return essence === 'application/json' || essence === 'text/json' || essence.endsWith('+json');
}

/**
 * A spec may declare a range (`*\/*`, `application/*`) or a list; neither can be sent as a Content-Type,
 * so the fallback takes its place. Concrete types (vendor `+json` types included) are kept as written.
 */
function concreteOr(mediaType: string | undefined, fallback: string): string {
  if (mediaType === undefined) return fallback;
  const essence = mediaTypeEssence(mediaType);
  if (essence === '' || essence.includes('*') || essence.includes(',') || !essence.includes('/')) return fallback;
  return mediaType;
}

// ---------------------------------------------------------------------------------------------------
// application/x-www-form-urlencoded
// ---------------------------------------------------------------------------------------------------

/**
 * Stripe's convention unless the spec's `encoding` says otherwise: `metadata[order_id]=6735`,
 * `expand[]=customer&expand[]=invoice`, `items[0][price]=p_1` (see flattenBracketed). Spaces are `%20`,
 * never `+`. A string argument is taken to be an already encoded form body and sent as is.
 */
function encodeFormBody(value: unknown, encoding: BodyPlan['encoding']): string {
  if (typeof value === 'string') return value;
  const fields = requireObject(value, 'A form body');
  const pairs: EncodedPair[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field === undefined) continue;
    pairs.push(...encodeFormField(name, field, encoding?.[name]));
  }
  return joinPairs(pairs);
}

type FieldEncoding = NonNullable<BodyPlan['encoding']>[string];

function encodeFormField(name: string, field: unknown, rule: FieldEncoding | undefined): EncodedPair[] {
  const key = encodeQueryKey(name);
  if (rule?.contentType !== undefined && isJsonMediaType(rule.contentType)) {
    return [[key, encodeRfc3986(JSON.stringify(field) ?? 'null')]];
  }
  if (rule?.style !== undefined || rule?.explode !== undefined) {
    // An explicit style from the spec: serialize the property exactly like a query parameter.
    const style: ParamStyle = rule.style ?? 'form';
    const explode = rule.explode ?? style === 'form';
    return serializeQueryParam({ arg: name, name, in: 'query', style, explode }, field);
  }
  return flattenBracketed(key, field, encodeRfc3986);
}

// ---------------------------------------------------------------------------------------------------
// multipart/form-data
// ---------------------------------------------------------------------------------------------------

/**
 * One part per property, following OpenAPI's multipart defaults:
 * - files (properties in `plan.fileFields`, or any value shaped like FileInput) → a Blob with the file's
 *   filename (default `file`) and type (default: the property's `encoding` contentType when concrete,
 *   else application/octet-stream). A plain string in a file field is the file's text content;
 * - scalars → text parts (Content-Type: the property's `encoding` contentType when concrete, else none:
 *   text/plain is the default);
 * - objects → a JSON part with Content-Type application/json (or the property's `encoding` contentType when
 *   that is a JSON type: an object cannot be written in another);
 * - arrays → one part per element, all under the property's name (what OpenAPI specifies and what
 *   multer, FastAPI and Spring read as a list), unless `encoding` asks for JSON, which sends the whole
 *   array as one JSON part.
 */
function buildMultipart(value: unknown, plan: BodyPlan): { body: Uint8Array; contentType: string } {
  const fields = requireObject(value, 'A multipart body');
  const parts: MultipartPart[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (field === undefined) continue;
    const part: PartRule = {
      isFileField: plan.fileFields?.includes(name) ?? false,
      contentType: plan.encoding?.[name]?.contentType,
    };
    const wantsWholeJson = part.contentType !== undefined && isJsonMediaType(part.contentType);
    const items = Array.isArray(field) && !wantsWholeJson ? field : [field];
    for (const item of items) {
      const encoded = partFor(name, item, part);
      if (encoded) parts.push(encoded);
    }
  }
  return encodeMultipart(parts);
}

interface PartRule {
  isFileField: boolean;
  contentType: string | undefined;
}

function partFor(name: string, item: unknown, rule: PartRule): MultipartPart | undefined {
  if (item === undefined) return undefined;
  const file = asFileInput(item) ?? (rule.isFileField && typeof item === 'string' ? { text: item } : undefined);
  if (file !== undefined) {
    const { bytes, contentType } = fileBytes(file, name);
    const type = contentType ?? concreteOr(rule.contentType, OCTET_STREAM);
    return { name, data: bytes, filename: file.filename ?? DEFAULT_FILENAME, contentType: type };
  }
  const wantsJson = rule.contentType !== undefined && isJsonMediaType(rule.contentType);
  if (wantsJson || Array.isArray(item) || isPlainObject(item)) {
    const type = wantsJson && rule.contentType !== undefined ? rule.contentType : 'application/json';
    return { name, data: JSON.stringify(item) ?? 'null', contentType: type };
  }
  // A scalar part is text/plain unless `encoding` names its type (a concrete one: a range cannot be sent).
  const type = concreteOr(rule.contentType, TEXT_PLAIN);
  return type === TEXT_PLAIN
    ? { name, data: scalarToString(item) }
    : { name, data: scalarToString(item), contentType: type };
}

// ---------------------------------------------------------------------------------------------------
// Raw bodies
// ---------------------------------------------------------------------------------------------------

/** `{ base64 }`, `{ text }`, a plain string (its UTF-8 bytes) or bytes, sent as they are. */
function encodeBinaryBody(value: unknown, mediaType: string): EncodedBody {
  if (value instanceof Uint8Array) return { body: value, contentType: concreteOr(mediaType, OCTET_STREAM) };
  const file = typeof value === 'string' ? { text: value } : asFileInput(value);
  if (file === undefined) {
    throw new RequestBuildError('A binary body must be a string, { base64 } or { text }.');
  }
  const { bytes, contentType } = fileBytes(file, 'body');
  return { body: bytes, contentType: concreteOr(mediaType, contentType ?? OCTET_STREAM) };
}

// ---------------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------------

/** The value as a FileInput when it is one: only FileInput keys, and a string `base64` or `text`. */
export function asFileInput(value: unknown): FileInput | undefined {
  if (!isPlainObject(value)) return undefined;
  if (!Object.keys(value).every((key) => FILE_INPUT_KEYS.has(key))) return undefined;
  const { base64, text, filename, contentType } = value;
  if (typeof base64 !== 'string' && typeof text !== 'string') return undefined;
  if (filename !== undefined && typeof filename !== 'string') return undefined;
  if (contentType !== undefined && typeof contentType !== 'string') return undefined;
  return {
    ...(typeof base64 === 'string' ? { base64 } : { text: text as string }),
    ...(filename !== undefined ? { filename } : {}),
    ...(contentType !== undefined ? { contentType } : {}),
  };
}

const DATA_URL_PREFIX = /^data:([^;,]*)((?:;[^;,]*)*);base64,/i;
const BASE64_TEXT = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The file's bytes, and its type as stated by the file itself (`contentType`, or a data URL prefix). */
function fileBytes(file: FileInput, label: string): { bytes: Uint8Array<ArrayBuffer>; contentType?: string } {
  if (file.base64 === undefined) {
    return { bytes: Uint8Array.from(Buffer.from(file.text ?? '', 'utf8')), contentType: file.contentType };
  }
  const dataUrl = DATA_URL_PREFIX.exec(file.base64);
  const payload = (dataUrl ? file.base64.slice(dataUrl[0].length) : file.base64).replace(/\s+/g, '');
  // Buffer.from silently skips characters it does not know; reject them instead of sending garbage.
  if (!BASE64_TEXT.test(payload)) throw new RequestBuildError(`"${label}" is not valid base64.`);
  // A copy on a plain ArrayBuffer (Buffer may share a pooled one), which is what Blob and fetch accept.
  const bytes = Uint8Array.from(Buffer.from(payload, 'base64'));
  const dataUrlType = dataUrl?.[1] ? dataUrl[1] : undefined;
  return { bytes, contentType: file.contentType ?? dataUrlType };
}

function requireObject(value: unknown, what: string): Record<string, unknown> {
  if (!isPlainObject(value)) {
    throw new RequestBuildError(`${what} must be an object of fields, got ${describe(value)}.`);
  }
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
