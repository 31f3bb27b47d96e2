/**
 * Turns an upstream HTTP response into an MCP tool result: JSON as text plus structuredContent, images
 * and audio as such, other binary content as an embedded resource, everything bounded by a byte cap.
 */
import { Buffer } from 'node:buffer';
import {
  charsWithinBytes,
  cutBoundary,
  cutEnd,
  maskSecretBytes,
  NO_SECRETS,
  redactSpans,
  redactText,
  secretSpans,
  type Redaction,
} from '../redaction/cut.js';
import type { CappedBody, UpstreamResponse } from './http-client.js';
import { isPlainObject } from '../contract/plain-object.js';

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
  /**
   * The secrets a body may echo. They are redacted before anything is cut, and every cut drops the partial word
   * at its edge (cut.ts); the body is read past each cut by the longest secret form so one across it is whole.
   */
  redaction?: Redaction;
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
 *
 * Only a window around the page is held: the body before it is read and dropped as it streams (readCapped's
 * `skipBytes`), so reading page 999,999 of a large or endless body costs its reading, within the call's time
 * budget, and about one page of memory, not everything before the page.
 */
export async function pageResult(
  res: UpstreamResponse,
  page: { index: number; size: number },
  opts: ResponseOptions,
): Promise<ToolResult> {
  if (res.status >= 400) return responseToResult(res, opts);
  const redaction = opts.redaction ?? NO_SECRETS;
  const offset = page.index * page.size;
  // Before the page: enough for its start to move back out of the word and the secret it would split, as it does
  // for the end of the page before (cut.ts), so the pages still join up.
  const wanted = Math.max(0, offset - pageLookbehindBytes(redaction));
  // Past the page's end: enough to move the end to a character boundary, to read a secret across it whole, and
  // to tell if more follows.
  const read = await res.readCapped(
    offset - wanted + page.size + redaction.lookaheadBytes + UTF8_MAX_CONTINUATION + 1,
    wanted,
  );
  const contentType = res.header('content-type') ?? '';
  const essence = essenceOf(contentType);
  const textual = isJsonType(essence) || isTextualType(essence);
  const utf8 = textual && ['utf-8', 'utf8'].includes(charsetOf(contentType).toLowerCase());
  // Where the bytes read start in the body (short of `wanted` when the body ends before it), moved on to a
  // character's first byte for UTF-8 text.
  const skipped = read.skipped ?? 0;
  const aligned = utf8 && skipped > 0 ? continuationBytesAt(read.bytes) : 0;
  const body: CappedBody = { bytes: read.bytes.subarray(aligned), truncated: read.truncated };
  const windowStart = skipped + aligned;
  const total = declaredLength(res);
  const pageOf = (content: ToolContent, start: number, bytes: number, more: boolean): ToolResult => ({
    content: [content],
    page: {
      index: page.index,
      mimeType: essence || (textual ? 'text/plain' : 'application/octet-stream'),
      offset: start,
      bytes,
      more,
      ...(total !== undefined ? { totalBytes: total } : {}),
    },
  });
  if (utf8) {
    const text = textPage(body, offset - windowStart, page.size, redaction, windowStart > 0);
    return pageOf({ type: 'text', text: text.text }, windowStart + text.offset, text.bytes, text.more);
  }
  const start = Math.min(Math.max(0, offset - windowStart), body.bytes.byteLength);
  const end = Math.min(Math.max(0, offset - windowStart) + page.size, body.bytes.byteLength);
  // Masked in the whole window, which reaches past both ends of the page by the longest secret form: a secret the
  // page shows part of is found whole, and the part shown is masked.
  const bytes = (textual ? body.bytes : maskSecretBytes(body.bytes, redaction)).subarray(start, end);
  const more = end < body.bytes.byteLength || body.truncated;
  const content: ToolContent = textual
    ? { type: 'text', text: otherCharsetPage(body, start, end, contentType, redaction) }
    : {
        type: 'resource',
        resource: { uri: RESOURCE_URI, mimeType: essence || 'application/octet-stream', blob: toBase64(bytes) },
      };
  return pageOf(content, windowStart + start, bytes.byteLength, more);
}

/**
 * How far before a page its window starts: a cut moves back at most `edgeChars` characters to the start of a word
 * and then at most the longest secret form to the start of a secret, each character at most 4 bytes of UTF-8.
 * A multiple of 4, so that a window of UTF-16 or UTF-32 text starts where a page does, on a unit's first byte.
 */
function pageLookbehindBytes(redaction: Redaction): number {
  return 4 * (redaction.edgeChars + Math.max(redaction.lookaheadBytes, 1)) + 4;
}

/** UTF-8 continuation bytes (0b10xxxxxx) at the start of a window that began inside a character: at most 3. */
function continuationBytesAt(bytes: Uint8Array): number {
  let count = 0;
  while (count < UTF8_MAX_CONTINUATION && count < bytes.byteLength && (bytes[count]! & 0xc0) === 0x80) count++;
  return count;
}

/**
 * A page of text in another charset: its bytes as they are, and any secret the page shows part of is
 * `[redacted]` (found in the text decoded up to past the page's end).
 */
function otherCharsetPage(
  body: CappedBody,
  start: number,
  end: number,
  contentType: string,
  redaction: Redaction,
): string {
  const page = decodeText(body.bytes.subarray(start, end), contentType, false);
  if (redaction.forms.length === 0) return page;
  const text = decodeText(body.bytes, contentType, body.truncated);
  const from = decodeText(body.bytes.subarray(0, start), contentType, true).length;
  const to = from + page.length;
  const inside = secretSpans(text, redaction.forms)
    .filter(([a, b]) => a < to && b > from)
    .map(([a, b]) => [Math.max(a, from) - from, Math.min(b, to) - from] as const);
  return redactSpans(page, inside);
}

/**
 * One page of UTF-8 text, its secrets redacted. Its ends are cuts (cut.ts): each moves back to the start of the
 * word it would split and out of any secret, the same way for the page before and the page after, so the pages
 * still follow on from each other and no page shows a piece of a secret. `body` is a window of the body that
 * starts `offset` bytes before the page (`windowed`: not at the body's start), and the offset returned is
 * counted from the window's start.
 */
function textPage(
  body: CappedBody,
  offset: number,
  size: number,
  redaction: Redaction,
  windowed = false,
): { text: string; offset: number; bytes: number; more: boolean } {
  const text = decodeText(body.bytes, 'text/plain; charset=utf-8', body.truncated);
  const spans = secretSpans(text, redaction.forms);
  const boundary = (bytes: number) => {
    const at = charsWithinBytes(text, bytes);
    if (at >= text.length && !body.truncated) return text.length;
    return cutBoundary(text, at, spans, redaction.edgeChars);
  };
  const start = offset === 0 && !windowed ? 0 : boundary(offset);
  const end = Math.max(start, boundary(offset + size));
  const inside = spans
    .filter(([from, to]) => from >= start && to <= end)
    .map(([from, to]) => [from - start, to - start] as const);
  const shown = text.slice(start, end);
  return {
    text: redactSpans(shown, inside),
    offset: Buffer.byteLength(text.slice(0, start)),
    bytes: Buffer.byteLength(shown),
    more: end < text.length || body.truncated,
  };
}

/** A UTF-8 character is at most 4 bytes: one cut at a page's end is read whole within 3 bytes more. */
const UTF8_MAX_CONTINUATION = 3;

export async function responseToResult(res: UpstreamResponse, opts: ResponseOptions): Promise<ToolResult> {
  const isError = res.status >= 400;
  const redaction = opts.redaction ?? NO_SECRETS;
  const limit = isError ? Math.min(opts.maxBytes, ERROR_READ_BYTES) : opts.maxBytes;
  // Read past the limit by the longest secret form, so that one across the limit is found whole (see cut.ts).
  const read = await res.readCapped(limit + redaction.lookaheadBytes);
  const body: ReadBody = { ...read, truncated: read.truncated || read.bytes.byteLength > limit, limit, redaction };
  const contentType = res.header('content-type') ?? '';
  if (isError) return errorResponseResult(res, body, contentType, errorHeading(res, opts));
  if (body.bytes.byteLength === 0 && !body.truncated) return textResult(`${statusLine(res)} (empty body)`);
  return successResult(res, body, contentType, opts.maxBytes);
}

/**
 * A body as read: `bytes` may run past `limit` (the lookahead); `truncated` says whether the body goes on past
 * the limit, and then only `limit` bytes of it are shown.
 */
interface ReadBody extends CappedBody {
  limit: number;
  redaction: Redaction;
}

/** The body's text cut at its limit (cut.ts), and how many bytes of the body that shows. */
function cutBody(
  text: string,
  body: ReadBody,
  contentType: string,
  maxChars = Infinity,
): { text: string; bytes: number } {
  const withinLimit = decodeText(body.bytes.subarray(0, body.limit), contentType, true).length;
  const cut = cutEnd(text, Math.min(withinLimit, maxChars), body.redaction, true);
  return { text: cut.text, bytes: Buffer.byteLength(text.slice(0, cut.end)) };
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
function errorResponseResult(res: UpstreamResponse, body: ReadBody, contentType: string, heading: string): ToolResult {
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
  if (text.length <= ERROR_EXCERPT_CHARS && !body.truncated)
    return errorResult(`${heading}\n\n${redactText(text, body.redaction)}`);
  const excerpt = cutBody(text, body, contentType, ERROR_EXCERPT_CHARS);
  return errorResult(`${heading}\n\n${excerpt.text}\n${truncationNote(res, excerpt.bytes)}`);
}

function describeSize(res: UpstreamResponse, body: ReadBody): string {
  const declared = declaredLength(res);
  if (declared !== undefined) return `${declared} bytes`;
  return body.truncated ? `more than ${body.limit} bytes` : `${body.bytes.byteLength} bytes`;
}

function successResult(res: UpstreamResponse, body: ReadBody, contentType: string, maxBytes: number): ToolResult {
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
function textualResult(res: UpstreamResponse, body: ReadBody, contentType: string): ToolResult {
  const whole = decodeText(body.bytes, contentType, body.truncated);
  if (body.truncated) {
    const shown = cutBody(whole, body, contentType);
    return {
      ...textResult(`${shown.text}\n${truncationNote(res, shownBytes(shown.bytes, body, contentType))}`),
      cut: bodyCut(res, essenceOf(contentType) || 'text/plain', false),
    };
  }
  const text = redactText(whole, body.redaction);
  const essence = essenceOf(contentType);
  const result = textResult(text);
  if (isJsonType(essence) || essence === '') {
    const parsed = parseJson(text);
    if (isPlainObject(parsed)) result.structuredContent = parsed;
  }
  return result;
}

/**
 * Images, audio and other binary data, base64-encoded, every secret's bytes masked (cut.ts). A truncated binary
 * body would be corrupt, so it is described in text instead of being sent.
 */
function mediaResult(
  res: UpstreamResponse,
  body: ReadBody,
  kind: 'image' | 'audio' | 'resource',
  mimeType: string,
  maxBytes: number,
): ToolResult {
  if (body.truncated) {
    return {
      ...textResult(
        `${statusLine(res)}: the ${mimeType} body is larger than the ${maxBytes}-byte limit and was not included. ` +
          truncationNote(res, body.limit),
      ),
      cut: bodyCut(res, mimeType, true),
    };
  }
  const data = toBase64(maskSecretBytes(body.bytes, body.redaction));
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

/** Bytes of the body shown: counted from the text in UTF-8; in another charset, the limit. */
function shownBytes(utf8Bytes: number, body: ReadBody, contentType: string): number {
  const charset = charsetOf(contentType).toLowerCase();
  return charset === 'utf-8' || charset === 'utf8' ? utf8Bytes : body.limit;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
