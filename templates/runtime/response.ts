/**
 * Turns an upstream HTTP response into an MCP tool result: JSON as text plus structuredContent, images
 * and audio as such, other binary content as an embedded resource, everything bounded by a byte cap.
 */
import { Buffer } from 'node:buffer';
import type { CappedBody, UpstreamResponse } from './http-client.js';
import { isPlainObject } from './plain-object.js';

export type ToolContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource'; resource: { uri: string; mimeType: string; blob: string } }
  | { type: 'resource_link'; uri: string; name: string; mimeType: string; description: string; size?: number };

/** A type rather than an interface: the SDK's result types have an index signature, which only a type satisfies. */
export type ToolResult = {
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  /**
   * Set when the body was not all given (over the cap) or is a binary download: the call path may then add a
   * link to the whole body (response-links.ts). Never sent: the call path takes it off.
   */
  cut?: BodyCut;
  /** Set on a page read (`readPage`): what follows the page. Never sent either. */
  page?: BodyPage;
  /** A 202 whose operation outlived the call: its status URL (accepted.ts). Never sent either. */
  pending?: { url: string };
};

export interface BodyCut {
  mimeType: string;
  binary: boolean;
  /** The whole body's size, when the response stated it. */
  totalBytes?: number;
}

export interface BodyPage {
  index: number;
  mimeType: string;
  /** Bytes of the body before this page. */
  offset: number;
  bytes: number;
  more: boolean;
  totalBytes?: number;
}

export interface ResponseOptions {
  /** Never read more than this many bytes of the body. */
  maxBytes: number;
  /** Names the request in error messages, e.g. `GET /pets/{petId}`. */
  requestLabel: string;
  /** Added to an error heading in parentheses, e.g. `gave up after 2 retries`. */
  errorNote?: string;
}

/** How much of an error body is quoted. */
const ERROR_EXCERPT_CHARS = 2_000;
/** Enough bytes for ERROR_EXCERPT_CHARS characters of UTF-8, so large error pages are not read in full. */
const ERROR_READ_BYTES = ERROR_EXCERPT_CHARS * 4;
const RESOURCE_URI = 'upstream://response';

export function errorResult(message: string): ToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function textResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * Page `index` of the body (pages of `size` bytes), as text for textual types and as a blob otherwise. A page
 * of UTF-8 text starts and ends on character boundaries, so the pages concatenate to the body. Errors as
 * responseToResult gives them.
 */
export async function pageResult(
  res: UpstreamResponse,
  page: { index: number; size: number },
  opts: ResponseOptions,
): Promise<ToolResult> {
  if (res.status >= 400) return responseToResult(res, opts);
  const offset = page.index * page.size;
  // One byte past the page's end: enough to move the end to a character boundary, and to tell if more follows.
  const body = await res.readCapped(offset + page.size + UTF8_MAX_CONTINUATION + 1);
  const contentType = res.header('content-type') ?? '';
  const essence = essenceOf(contentType);
  const textual = isJsonType(essence) || isTextualType(essence);
  const utf8 = textual && ['utf-8', 'utf8'].includes(charsetOf(contentType).toLowerCase());
  const start = utf8 ? characterStart(body.bytes, offset) : Math.min(offset, body.bytes.byteLength);
  const end = utf8
    ? characterStart(body.bytes, offset + page.size)
    : Math.min(offset + page.size, body.bytes.byteLength);
  const bytes = body.bytes.subarray(start, end);
  const total = declaredLength(res);
  const more = end < body.bytes.byteLength || body.truncated;
  const content: ToolContent = textual
    ? { type: 'text', text: decodeText(bytes, contentType, false) }
    : {
        type: 'resource',
        resource: { uri: RESOURCE_URI, mimeType: essence || 'application/octet-stream', blob: toBase64(bytes) },
      };
  return {
    content: [content],
    page: {
      index: page.index,
      mimeType: essence || (textual ? 'text/plain' : 'application/octet-stream'),
      offset: start,
      bytes: bytes.byteLength,
      more,
      ...(total !== undefined ? { totalBytes: total } : {}),
    },
  };
}

/** A UTF-8 character is at most 4 bytes: a boundary is found within 3 bytes of any offset. */
const UTF8_MAX_CONTINUATION = 3;

/** The first offset at or after `offset` that does not fall inside a UTF-8 character (or the end). */
function characterStart(bytes: Uint8Array, offset: number): number {
  let at = Math.min(offset, bytes.byteLength);
  for (let n = 0; n < UTF8_MAX_CONTINUATION && at < bytes.byteLength && (bytes[at]! & 0xc0) === 0x80; n++) at++;
  return at;
}

export async function responseToResult(res: UpstreamResponse, opts: ResponseOptions): Promise<ToolResult> {
  const isError = res.status >= 400;
  const body = await res.readCapped(isError ? Math.min(opts.maxBytes, ERROR_READ_BYTES) : opts.maxBytes);
  const contentType = res.header('content-type') ?? '';
  if (isError) return errorResponseResult(res, body, contentType, errorHeading(res, opts));
  if (body.bytes.byteLength === 0 && !body.truncated) return textResult(`${statusLine(res)} (empty body)`);
  return successResult(res, body, contentType, opts.maxBytes);
}

/**
 * The full body size, when the response states it. With a Content-Encoding, Content-Length counts the
 * compressed bytes while the body is read decompressed, so it says nothing useful.
 */
function declaredLength(res: UpstreamResponse): number | undefined {
  const encoding = res.header('content-encoding');
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return undefined;
  const header = res.header('content-length');
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

function truncationNote(res: UpstreamResponse, shownBytes: number): string {
  const total = declaredLength(res);
  const remaining = total === undefined ? 0 : total - shownBytes;
  return remaining > 0 ? `…[truncated: ${remaining} more bytes not shown]` : '…[truncated: more bytes not shown]';
}

// ---------------------------------------------------------------------------------------------------
// Media types
// ---------------------------------------------------------------------------------------------------

function essenceOf(contentType: string): string {
  return (contentType.split(';')[0] ?? '').trim().toLowerCase();
}

function charsetOf(contentType: string): string {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType);
  return match?.[1] ?? 'utf-8';
}

function isJsonType(essence: string): boolean {
  return essence === 'application/json' || essence === 'text/json' || essence.endsWith('+json');
}

const TEXTUAL_TYPES = new Set([
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-www-form-urlencoded',
  'application/graphql',
  'application/yaml',
  'application/x-yaml',
  'application/toml',
  'application/csv',
  'application/sql',
  'application/x-ndjson',
  'application/jsonl',
  'application/x-sh',
  'image/svg+xml', // XML text; MCP clients do not render SVG as an image
]);

function isTextualType(essence: string): boolean {
  return (
    essence.startsWith('text/') || TEXTUAL_TYPES.has(essence) || essence.endsWith('+xml') || essence.endsWith('+yaml')
  );
}

const BINARY_TYPES = new Set([
  'application/octet-stream',
  'application/pdf',
  'application/zip',
  'application/gzip',
  'application/x-gzip',
  'application/x-tar',
  'application/x-bzip2',
  'application/x-7z-compressed',
  'application/x-rar-compressed',
  'application/java-archive',
  'application/msword',
  'application/wasm',
  'application/protobuf',
  'application/x-protobuf',
]);

function isBinaryType(essence: string): boolean {
  return (
    BINARY_TYPES.has(essence) ||
    essence.startsWith('video/') ||
    essence.startsWith('font/') ||
    essence.startsWith('model/') ||
    essence.startsWith('application/vnd.openxmlformats') ||
    essence.startsWith('application/vnd.ms-')
  );
}

/** Decodes with the declared charset; a cut-off multi-byte character at the end is dropped, not mangled. */
function decodeText(bytes: Uint8Array, contentType: string, truncated: boolean): string {
  const charset = charsetOf(contentType);
  // A streaming decode keeps the cut-off character as state, so it gets a decoder of its own.
  if (truncated) return decoderFor(charset).decode(bytes, { stream: true });
  return sharedDecoderFor(charset).decode(bytes);
}

/** Decoders for whole bodies, one per charset label: building a TextDecoder costs more than decoding a small body. */
const sharedDecoders = new Map<string, ReturnType<typeof decoderFor>>();
const MAX_SHARED_DECODERS = 16;

function sharedDecoderFor(charset: string): ReturnType<typeof decoderFor> {
  const label = charset.toLowerCase();
  let decoder = sharedDecoders.get(label);
  if (!decoder) {
    decoder = decoderFor(label);
    if (sharedDecoders.size < MAX_SHARED_DECODERS) sharedDecoders.set(label, decoder);
  }
  return decoder;
}

/** An unknown or unsupported charset label falls back to UTF-8 rather than failing the call. */
function decoderFor(charset: string) {
  try {
    return new TextDecoder(charset);
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** Valid UTF-8 with no control characters beyond whitespace: safe to show as text. */
function looksLikeText(bytes: Uint8Array, truncated: boolean): boolean {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: truncated });
  } catch {
    return false;
  }
  // eslint-disable-next-line no-control-regex -- control characters are what tells binary from text
  return !/[\u0000-\u0008\u000E-\u001A\u001C-\u001F]/.test(text);
}

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

function statusLine(res: UpstreamResponse): string {
  return res.statusText ? `HTTP ${res.status} ${res.statusText}` : `HTTP ${res.status}`;
}

// ---------------------------------------------------------------------------------------------------
// Results
// ---------------------------------------------------------------------------------------------------

/** `HTTP 503 Service Unavailable from GET /pets/7 (gave up after 2 retries)`. */
function errorHeading(res: UpstreamResponse, opts: ResponseOptions): string {
  const heading = `${statusLine(res)} from ${opts.requestLabel}`;
  return opts.errorNote ? `${heading} (${opts.errorNote})` : heading;
}

/** The HTTP status an error result's heading names (`HTTP 404 Not Found from …`), if it names one. */
export function errorStatus(text: string): number | undefined {
  const match = /^HTTP (\d{3})\b/.exec(text);
  return match ? Number(match[1]) : undefined;
}

/** The heading, then the start of the body. Never structuredContent. */
function errorResponseResult(
  res: UpstreamResponse,
  body: CappedBody,
  contentType: string,
  heading: string,
): ToolResult {
  if (body.bytes.byteLength === 0) return errorResult(heading);
  const essence = essenceOf(contentType);
  const textual =
    isJsonType(essence) ||
    isTextualType(essence) ||
    (!isBinaryType(essence) && looksLikeText(body.bytes, body.truncated));
  if (!textual) {
    return errorResult(`${heading}\n\n[${describeSize(res, body)} of ${essence || 'binary data'}]`);
  }
  const text = decodeText(body.bytes, contentType, body.truncated);
  const excerpt = text.slice(0, ERROR_EXCERPT_CHARS);
  if (excerpt.length === text.length && !body.truncated) return errorResult(`${heading}\n\n${text}`);
  return errorResult(`${heading}\n\n${excerpt}\n${truncationNote(res, Buffer.byteLength(excerpt))}`);
}

function describeSize(res: UpstreamResponse, body: CappedBody): string {
  const declared = declaredLength(res);
  if (declared !== undefined) return `${declared} bytes`;
  return body.truncated ? `more than ${body.bytes.byteLength} bytes` : `${body.bytes.byteLength} bytes`;
}

function successResult(res: UpstreamResponse, body: CappedBody, contentType: string, maxBytes: number): ToolResult {
  const essence = essenceOf(contentType);
  if (isJsonType(essence) || isTextualType(essence)) return textualResult(res, body, contentType);
  if (essence.startsWith('image/')) return mediaResult(res, body, 'image', essence, maxBytes);
  if (essence.startsWith('audio/')) return mediaResult(res, body, 'audio', essence, maxBytes);
  if (isBinaryType(essence)) return mediaResult(res, body, 'resource', essence, maxBytes);
  // No or unrecognized Content-Type: trust the bytes.
  if (looksLikeText(body.bytes, body.truncated)) return textualResult(res, body, contentType);
  return mediaResult(res, body, 'resource', essence || 'application/octet-stream', maxBytes);
}

/**
 * The body text as received (not re-formatted). JSON that parses to a plain object is also returned as
 * structuredContent; a JSON content type with invalid JSON is still a successful text result. Without a
 * Content-Type, a body that parses as JSON counts as JSON; with a non-JSON type it is plain text.
 */
function textualResult(res: UpstreamResponse, body: CappedBody, contentType: string): ToolResult {
  const text = decodeText(body.bytes, contentType, body.truncated);
  if (body.truncated)
    return {
      ...textResult(`${text}\n${truncationNote(res, shownBytes(text, body, contentType))}`),
      cut: bodyCut(res, essenceOf(contentType) || 'text/plain', false),
    };
  const essence = essenceOf(contentType);
  const result = textResult(text);
  if (isJsonType(essence) || essence === '') {
    const parsed = parseJson(text);
    if (isPlainObject(parsed)) result.structuredContent = parsed;
  }
  return result;
}

/**
 * Images, audio and other binary data, base64-encoded. A truncated binary body would be corrupt, so
 * it is described in text instead of being sent.
 */
function mediaResult(
  res: UpstreamResponse,
  body: CappedBody,
  kind: 'image' | 'audio' | 'resource',
  mimeType: string,
  maxBytes: number,
): ToolResult {
  if (body.truncated) {
    return {
      ...textResult(
        `${statusLine(res)}: the ${mimeType} body is larger than the ${maxBytes}-byte limit and was not included. ` +
          truncationNote(res, body.bytes.byteLength),
      ),
      cut: bodyCut(res, mimeType, true),
    };
  }
  const data = toBase64(body.bytes);
  if (kind === 'resource')
    return {
      content: [{ type: 'resource', resource: { uri: RESOURCE_URI, mimeType, blob: data } }],
      // A download: the call path may give a link instead (a model reads no base64).
      cut: { mimeType, binary: true, totalBytes: body.bytes.byteLength },
    };
  return { content: [{ type: kind, data, mimeType }] };
}

function bodyCut(res: UpstreamResponse, mimeType: string, binary: boolean): BodyCut {
  const total = declaredLength(res);
  return { mimeType, binary, ...(total !== undefined ? { totalBytes: total } : {}) };
}

/** Bytes actually shown: a multi-byte character cut by the cap was dropped by the decoder. */
function shownBytes(text: string, body: CappedBody, contentType: string): number {
  const charset = charsetOf(contentType).toLowerCase();
  return charset === 'utf-8' || charset === 'utf8' ? Buffer.byteLength(text) : body.bytes.byteLength;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
