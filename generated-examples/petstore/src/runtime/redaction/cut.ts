/**
 * Cuts that tell nothing. Wherever a text is cut before a caller sees it (the response cap, an error excerpt,
 * a response link's page, a program's result, a log field), the cut is made so that no piece of a secret is
 * left at the edge:
 * - secrets are found in the whole text read (which reaches past the cut by the longest secret form), and a
 *   cut that would fall inside one moves back to its start, so every secret shown is whole and then redacted;
 * - the partial word at the edge is dropped *whatever it is*: the run of non-delimiter characters before the
 *   cut. This masks the prefix of a credential in a form the server does not know (an upstream that itself
 *   truncated or re-encoded a token) without depending on the secret: a rule that dropped only real pieces of a
 *   credential would be an oracle, since a caller can place a guess such as `ghp_a` at the edge and see whether
 *   it comes back.
 */
import { Buffer } from 'node:buffer';

/** Whitespace, quotes, brackets, commas and semicolons end a word; anything else may be part of a credential. */
const DELIMITER = /[\s"'`()[\]{}<>,;]/;

export const REDACTED = '[redacted]';

/** The least a cut's edge drops: a word up to this long is dropped whole. */
const MIN_EDGE_CHARS = 512;

/** What a cut needs to know of the secrets: their forms, and how far past a cut to read and drop. */
export interface Redaction {
  /** Longest first. */
  readonly forms: readonly string[];
  /** UTF-8 bytes of the longest form: read this far past a cut, a secret that starts before it is read whole. */
  readonly lookaheadBytes: number;
  /** How much of a partial word a cut's edge drops: max(512, the longest form). */
  readonly edgeChars: number;
}

export function redactionOf(forms: readonly string[]): Redaction {
  let redaction = redactions.get(forms);
  if (!redaction) redactions.set(forms, (redaction = measured(forms)));
  return redaction;
}

/** Worked out once per list of forms: the server's own list is the same array on every call. */
const redactions = new WeakMap<readonly string[], Redaction>();

function measured(forms: readonly string[]): Redaction {
  const longest = forms.reduce((max, form) => Math.max(max, form.length), 0);
  const longestBytes = forms.reduce((max, form) => Math.max(max, Buffer.byteLength(form)), 0);
  // A form written with escapes takes up to 10 bytes (`&#1114111;`) a UTF-16 unit: read that far past a cut.
  return {
    forms,
    lookaheadBytes: Math.max(longestBytes, ESCAPE_MAX * longest),
    edgeChars: Math.max(MIN_EDGE_CHARS, longest),
  };
}

/** The longest an escape (secretSpans) writes one character: `&#1114111;`, `&#x10FFFF;`. */
const ESCAPE_MAX = 10;

/** No secrets to find: a cut still drops the partial word at its edge. */
export const NO_SECRETS: Redaction = redactionOf([]);

/**
 * Where the secrets are in a text: the [start, end) spans of their occurrences, overlapping ones merged, in order.
 * An occurrence is a form as written, or a form written with escapes: JSON may write any character as `\uXXXX`
 * (in either case) and `/` as `\/`, and encoders do (PHP's json_encode escapes every `/`, .NET's
 * System.Text.Json escapes `+`); HTML as a numeric or named character reference (Go's html/template writes `+`
 * as `&#43;`, OWASP's encoders `/` as `&#x2F;`); and percent-encoding in other hands than encodeURIComponent's
 * (.NET's HttpUtility.UrlEncode writes `%2f` and `%c3%a4`, some encoders every byte, `escape()` `%E4`), and
 * `\x2F` in string literals and their dumps. So a form is also looked for in the text with those undone. Undone
 * by hand (escapeAt): a span must point back into the text as written, and the decoders at hand (JSON.parse,
 * entities, decodeURIComponent) give only the decoded text, with no map from its characters to where they were
 * written.
 */
export function secretSpans(text: string, forms: readonly string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const form of forms) {
    for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + 1)) spans.push([at, at + form.length]);
  }
  if (forms.length > 0 && mayBeEscaped(text)) spans.push(...escapedSpans(text, forms));
  if (spans.length < 2) return spans;
  spans.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [spans[0]!];
  for (const [start, end] of spans.slice(1)) {
    const last = merged[merged.length - 1]!;
    if (start < last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

/** Whether a secret occurs in the text, as written or JSON-escaped (see secretSpans). */
export function holdsSecret(text: string, forms: readonly string[]): boolean {
  if (forms.some((form) => text.includes(form))) return true;
  return forms.length > 0 && mayBeEscaped(text) && escapedSpans(text, forms).length > 0;
}

/**
 * Whether the text may have an escape the forms (secretForms) do not already cover: `\/`, `\uXXXX`, an HTML
 * character reference or percent-encoding. Text with none (most JSON, whose only escapes are `\n` and `\"`) is
 * not read again unescaped.
 */
function mayBeEscaped(text: string): boolean {
  return text.includes('\\u') || text.includes('\\/') || text.includes('\\x') || MAY_BE_ESCAPED.test(text);
}

/** An HTML character reference, or a percent-encoded character (a byte, or JavaScript's `escape()`'s `%uXXXX`). */
const MAY_BE_ESCAPED = /&(?:#|[A-Za-z]{2,6};)|%(?:[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})/;

/** HTML character references: decimal, hexadecimal, and the named ones encoders write for URL and base64 text. */
const HTML_REFERENCE = /^&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,6}));/;
const NAMED_REFERENCES: ReadonlyMap<string, string> = new Map([
  ['amp', '&'],
  ['lt', '<'],
  ['gt', '>'],
  ['quot', '"'],
  ['apos', "'"],
  ['sol', '/'],
  ['plus', '+'],
  ['equals', '='],
  ['percnt', '%'],
  ['colon', ':'],
  ['grave', '`'],
]);

/** The character an escape at `text[i]` stands for and the escape's length, or undefined when none starts there. */
function escapeAt(text: string, i: number): { chars: string; width: number } | undefined {
  const first = text[i];
  if (first === '\\') {
    const next = text[i + 1];
    const short = next === undefined ? undefined : SHORT_ESCAPES[next];
    if (short !== undefined) return { chars: short, width: 2 };
    if (next === 'u') return codeUnitAt(text, i + 2, 4);
    // `\x2F`: the escape of JavaScript, Python, C and PHP string literals and of their debug dumps.
    if (next === 'x') return codeUnitAt(text, i + 2, 2);
    return undefined;
  }
  if (first === '%') return text[i + 1] === 'u' ? codeUnitAt(text, i + 2, 4) : percentAt(text, i);
  if (first !== '&') return undefined;
  const match = HTML_REFERENCE.exec(text.slice(i, i + ESCAPE_MAX));
  if (!match) return undefined;
  const [whole, decimal, hex, name] = match;
  const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? parseInt(hex, 16) : undefined;
  if (code !== undefined)
    return code <= 0x10ffff ? { chars: String.fromCodePoint(code), width: whole.length } : undefined;
  const named = NAMED_REFERENCES.get(name!);
  return named === undefined ? undefined : { chars: named, width: whole.length };
}

/** The UTF-16 unit written as `digits` hex digits at `at` (the escape starting `at - 2`), if they are hex. */
function codeUnitAt(text: string, at: number, digits: number): { chars: string; width: number } | undefined {
  const hex = text.slice(at, at + digits);
  return hex.length === digits && /^[0-9a-fA-F]+$/.test(hex)
    ? { chars: String.fromCharCode(parseInt(hex, 16)), width: digits + 2 }
    : undefined;
}

/**
 * A percent-encoded character at `i`: an ASCII byte; a UTF-8 sequence of 2 to 4 encoded bytes, as every URL
 * encoder writes a character past ASCII (in upper or lower case: .NET writes `%c3%a4`); else one byte past
 * ASCII as Latin-1 (JavaScript's `escape()` writes `ä` as `%E4`).
 */
function percentAt(text: string, i: number): { chars: string; width: number } | undefined {
  const lead = byteAt(text, i);
  if (lead === undefined) return undefined;
  if (lead < 0x80) return { chars: String.fromCharCode(lead), width: 3 };
  const length = lead >= 0xf0 && lead <= 0xf4 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc2 && lead < 0xe0 ? 2 : 0;
  const bytes = [lead];
  while (bytes.length < length) {
    const next = byteAt(text, i + 3 * bytes.length);
    if (next === undefined || (next & 0xc0) !== 0x80) break;
    bytes.push(next);
  }
  if (length > 0 && bytes.length === length) {
    const chars = utf8Decoded(text.slice(i, i + 3 * length));
    if (chars !== undefined) return { chars, width: 3 * length };
  }
  return { chars: String.fromCharCode(lead), width: 3 };
}

/** The character a percent-encoded UTF-8 sequence stands for; undefined when it is not a valid one (an overlong form). */
function utf8Decoded(escaped: string): string | undefined {
  try {
    return decodeURIComponent(escaped);
  } catch {
    return undefined;
  }
}

/** The byte written `%HH` at `i`, in either case. */
function byteAt(text: string, i: number): number | undefined {
  if (text[i] !== '%') return undefined;
  const hex = text.slice(i + 1, i + 3);
  return /^[0-9a-fA-F]{2}$/.test(hex) ? parseInt(hex, 16) : undefined;
}

/** What JSON's one-letter escapes stand for. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/**
 * The occurrences of the forms in the text read with its escapes undone (escapeAt), as spans of the text itself.
 * Only those that take in an escape: the others were found as written.
 */
function escapedSpans(text: string, forms: readonly string[]): Array<[number, number]> {
  // The unescaped text, and for each of its UTF-16 units where it starts and ends in the text.
  const pieces: string[] = [];
  const starts = new Uint32Array(text.length);
  const ends = new Uint32Array(text.length);
  let units = 0;
  let escapes = 0;
  const plain = (from: number, to: number) => {
    pieces.push(text.slice(from, to));
    for (let at = from; at < to; at++) {
      starts[units] = at;
      ends[units++] = at + 1;
    }
  };
  let i = 0;
  for (const candidate of text.matchAll(/[\\&%]/g)) {
    if (candidate.index < i) continue; // inside the escape just read
    const escape = escapeAt(text, candidate.index);
    if (!escape) continue;
    plain(i, candidate.index);
    escapes++;
    pieces.push(escape.chars);
    // A reference to a character past U+FFFF stands for two units, both of them the whole reference.
    for (let unit = 0; unit < escape.chars.length; unit++) {
      starts[units] = candidate.index;
      ends[units++] = candidate.index + escape.width;
    }
    i = candidate.index + escape.width;
  }
  plain(i, text.length);
  const view = pieces.join('');
  if (escapes === 0) return [];
  const spans: Array<[number, number]> = [];
  for (const form of forms) {
    for (let at = view.indexOf(form); at !== -1; at = view.indexOf(form, at + 1)) {
      const start = starts[at]!;
      const end = ends[at + form.length - 1]!;
      if (end - start !== form.length) spans.push([start, end]);
    }
  }
  return spans;
}

/** The text with each span replaced by `[redacted]`. */
export function redactSpans(text: string, spans: ReadonlyArray<readonly [number, number]>): string {
  if (spans.length === 0) return text;
  let out = '';
  let from = 0;
  for (const [start, end] of spans) {
    out += text.slice(from, start) + REDACTED;
    from = end;
  }
  return out + text.slice(from);
}

/** Every secret in the text replaced whole. */
export function redactText(text: string, redaction: Redaction): string {
  return redaction.forms.length === 0 ? text : redactSpans(text, secretSpans(text, redaction.forms));
}

/**
 * Where a cut at `at` (a character index) really falls: back to the start of the word it would split (at most
 * `edgeChars` back), and out of any secret. The same for every text with the same content before `at`, so pages
 * cut this way still follow on from each other.
 */
export function cutBoundary(
  text: string,
  at: number,
  spans: ReadonlyArray<readonly [number, number]>,
  edgeChars: number,
): number {
  let cut = Math.min(Math.max(0, at), text.length);
  const limit = Math.max(0, cut - edgeChars);
  while (cut > limit && !DELIMITER.test(text[cut - 1]!)) cut--;
  // Moving back out of one secret can land inside another that overlaps it: spans are merged, so once is enough.
  for (const [start, end] of spans) if (start < cut && cut < end) cut = start;
  return cut;
}

/**
 * The text cut at `at` characters as the rules above say, its secrets redacted, and where in `text` the cut
 * fell. `at` past the end: the whole text, redacted, unless `more` says the text itself was cut short (then its
 * last word is dropped too).
 */
export function cutEnd(text: string, at: number, redaction: Redaction, more = false): { text: string; end: number } {
  const spans = redaction.forms.length === 0 ? [] : secretSpans(text, redaction.forms);
  const end = at >= text.length && !more ? text.length : cutBoundary(text, at, spans, redaction.edgeChars);
  return {
    text: redactSpans(
      text.slice(0, end),
      spans.filter(([, to]) => to <= end),
    ),
    end,
  };
}

/** What overwrites each byte of a secret in binary content: `*`. */
const MASK_BYTE = 0x2a;

/**
 * Binary content (an image, a download, a body with no text type) cannot be cut or have `[redacted]` put in: every
 * secret form found in its bytes (as UTF-8 or UTF-16) is overwritten by as many `*`, so the content keeps its size and
 * every byte but the secret's. Without this, a caller who makes an echo look binary (one control character in an
 * echoed argument, for a body without a content type) would read the credential back in base64. A copy when a
 * secret is found; the bytes themselves otherwise.
 */
export function maskSecretBytes(bytes: Uint8Array, redaction: Redaction): Uint8Array {
  if (redaction.forms.length === 0 || bytes.byteLength === 0) return bytes;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let masked: Buffer | undefined;
  for (const needle of formBytesOf(redaction)) {
    // Searched in the bytes as received, so overlapping occurrences are all found.
    for (let at = view.indexOf(needle); at !== -1; at = view.indexOf(needle, at + 1)) {
      masked ??= Buffer.from(view);
      masked.fill(MASK_BYTE, at, at + needle.byteLength);
    }
  }
  return masked ?? bytes;
}

const formBytes = new WeakMap<Redaction, Buffer[]>();

function formBytesOf(redaction: Redaction): Buffer[] {
  let bytes = formBytes.get(redaction);
  if (!bytes) formBytes.set(redaction, (bytes = redaction.forms.flatMap(encodedForms)));
  return bytes;
}

/**
 * A text's bytes as UTF-8, and as UTF-16 little- and big-endian, in that order: Windows APIs, Java's and .NET's
 * serializers and many file formats (a PDF's strings, an Office document's properties) write text as UTF-16
 * (`*` stands for one byte, so a UTF-16 form is masked as two `*` a character).
 */
export function encodedForms(form: string): Buffer[] {
  const utf16le = Buffer.from(form, 'utf16le');
  return [Buffer.from(form), utf16le, Buffer.from(utf16le).swap16()];
}

/** How many characters of `text` fit in `maxBytes` of UTF-8 (a character is never split). */
export function charsWithinBytes(text: string, maxBytes: number): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const high = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : high ? 4 : 3;
    if (bytes + size > maxBytes) return i;
    bytes += size;
    if (high) i++;
  }
  return text.length;
}
