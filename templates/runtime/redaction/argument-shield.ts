/**
 * No guess oracle. Results are redacted of the server's secrets, so an argument that an upstream echoes back
 * would tell a right guess of a credential (it comes back `[redacted]`) from a wrong one (it comes back as sent).
 * So before a request is built, every occurrence of a server-held secret form in the caller's arguments (values
 * and keys, at any depth) is replaced by a random stand-in of the same length; once the result is redacted, the
 * stand-ins are mapped back to what the caller sent. A right guess and a wrong one then give the same result but
 * for the guess itself, and the server never sends its own credential where a caller chose to put it.
 *
 * Stand-ins are alphanumeric, so they are their own percent-encoded and JSON-escaped forms: an upstream echoes
 * one as it was sent, however it encodes it, and it is found again. Credentials the caller supplied itself
 * (caller-credentials.ts) are the caller's own: they are not covered here, only redacted as results are.
 */
import { Buffer } from 'node:buffer';
import type { BuiltRequest } from '../upstream/request.js';
import type { ToolContent, ToolResult } from '../upstream/response.js';
import { encodedForms, holdsSecret, secretSpans } from './cut.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export class ArgumentShield {
  /** Secret form → its stand-in, for the forms the arguments held. */
  private readonly standIns = new Map<string, string>();

  /** The value with every occurrence of the forms (longest first) replaced by its stand-in; itself when none occurs. */
  cover<T>(value: T, forms: readonly string[]): T {
    // Almost no arguments hold a secret: looking first spares a copy of every one.
    if (forms.length === 0 || !holdsAny(value, forms)) return value;
    return this.coverValue(value, forms) as T;
  }

  /** A request built from covered arguments, covered as a whole: its URL, headers and text body. */
  coverRequest(request: BuiltRequest, forms: readonly string[]): BuiltRequest {
    if (forms.length === 0) return request;
    const url = this.cover(request.url, forms);
    const headers = this.cover(request.headers, forms);
    const body = typeof request.body === 'string' ? this.cover(request.body, forms) : request.body;
    if (url === request.url && headers === request.headers && body === request.body) return request;
    return { ...request, url, headers, ...(body !== undefined ? { body } : {}) };
  }

  /** Text the caller's own arguments produced (a validation message), with the same stand-ins as the request. */
  hide(text: string): string {
    let out = text;
    for (const [form, standIn] of this.standIns) out = out.split(form).join(standIn);
    return out;
  }

  /** Text with the stand-ins, as written or JSON-escaped by the API, mapped back to what the caller sent. */
  restoreText(text: string): string {
    let out = text;
    for (const [form, standIn] of this.standIns) {
      if (!holdsSecret(out, [standIn])) continue;
      let restored = '';
      let from = 0;
      for (const [start, end] of secretSpans(out, [standIn])) {
        restored += out.slice(from, start) + form;
        from = end;
      }
      out = restored + out.slice(from);
    }
    return out;
  }

  /**
   * A thrown error whose message quotes the arguments quotes what the caller sent, as a result does. Changed only
   * then: most errors (the client's cancellation, a DOMException whose message cannot be set) pass as they are.
   */
  restoreError(error: unknown): unknown {
    if (!(error instanceof Error)) return error;
    const message = this.restoreText(error.message);
    if (message !== error.message) Object.defineProperty(error, 'message', { value: message, configurable: true });
    return error;
  }

  /** A redacted result with the stand-ins mapped back to what the caller sent. */
  restore(result: ToolResult): ToolResult {
    if (this.standIns.size === 0) return result;
    const text = (s: string) => this.restoreText(s);
    const content = result.content.map((c): ToolContent => {
      if (c.type === 'text') return { ...c, text: text(c.text) };
      // An echo in binary content too: a right guess must not come back as its stand-in there either.
      if (c.type === 'image' || c.type === 'audio') return { ...c, data: this.restoreBase64(c.data) };
      if (c.type === 'resource')
        return { ...c, resource: { ...c.resource, blob: this.restoreBase64(c.resource.blob) } };
      return c;
    });
    return {
      ...result,
      content,
      ...(result.structuredContent !== undefined
        ? { structuredContent: mapStrings(result.structuredContent, text) as Record<string, unknown> }
        : {}),
    };
  }

  /**
   * Base64 bytes with the stand-ins (ASCII) mapped back to the bytes of what the caller sent, in UTF-8 or UTF-16
   * (either byte order): binary content is masked of secrets in all three (cut.ts maskSecretBytes), so a stand-in
   * left in any of them would tell a right guess.
   */
  private restoreBase64(data: string): string {
    const bytes = Buffer.from(data, 'base64').toString('latin1');
    let out = bytes;
    for (const [form, standIn] of this.standIns)
      for (const [written, sent] of encodingsOf(standIn, form))
        if (out.includes(written)) out = out.split(written).join(sent);
    return out === bytes ? data : Buffer.from(out, 'latin1').toString('base64');
  }

  private coverValue(value: unknown, forms: readonly string[]): unknown {
    if (typeof value === 'string') return this.coverText(value, forms);
    if (Array.isArray(value)) return value.map((v) => this.coverValue(v, forms));
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [this.coverText(k, forms), this.coverValue(v, forms)]),
      );
    return value;
  }

  /**
   * Each occurrence of a form, as written or JSON-escaped (`\/`, `\u002B`: results are redacted of both, so a
   * guess written either way must be covered), replaced by the stand-in of the text it occupies.
   */
  private coverText(text: string, forms: readonly string[]): string {
    if (!holdsSecret(text, forms)) return text;
    let out = '';
    let from = 0;
    for (const [start, end] of secretSpans(text, forms)) {
      out += text.slice(from, start) + this.standInFor(text.slice(start, end));
      from = end;
    }
    return out + text.slice(from);
  }

  private standInFor(form: string): string {
    let standIn = this.standIns.get(form);
    if (standIn === undefined) this.standIns.set(form, (standIn = randomAlphanumeric(form.length)));
    return standIn;
  }
}

function holdsAny(value: unknown, forms: readonly string[]): boolean {
  if (typeof value === 'string') return holdsSecret(value, forms);
  if (Array.isArray(value)) return value.some((v) => holdsAny(v, forms));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).some(([k, v]) => holdsAny(k, forms) || holdsAny(v, forms));
  return false;
}

function randomAlphanumeric(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  // 62 letters from 256 values: 248 = 4 × 62, and values past it are drawn again so every letter is as likely.
  let out = '';
  for (const byte of bytes) out += byte < 248 ? ALPHANUMERIC[byte % 62] : randomAlphanumeric(1);
  return out;
}

function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [map(k), mapStrings(v, map)]));
  return value;
}

/** A stand-in and what the caller sent, as bytes (latin1 strings), in each encoding binary content is masked in. */
function encodingsOf(standIn: string, form: string): Array<[string, string]> {
  const sent = encodedForms(form);
  return encodedForms(standIn).map((written, i) => [written.toString('latin1'), sent[i]!.toString('latin1')]);
}
