/**
 * stdin, read line by line before the SDK's stdio transport sees it. The transport buffers a message until its
 * newline and closes the connection when that passes 10 MiB: one long line, and the server answers no one
 * again. It drops a line that is not JSON without a word, and one that is not JSON-RPC with a log line only:
 * the client waits for an answer that never comes. So every line is checked here first:
 * - a line longer than the limit is skipped as it streams, never held whole (only its first and last bytes
 *   are kept, to find its id), and answered with an invalid-request error (-32600);
 * - a line that is not JSON is answered with a parse error (-32700, id null);
 * - JSON that is not a JSON-RPC message is answered with an invalid-request error (with its id, if it has one).
 * Only the lines that pass reach the transport, which parses them again: a line is at most the limit, and
 * parsing it costs little next to serving the message.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { parseJSONRPCMessage, ProtocolErrorCode } from '@modelcontextprotocol/server';

export interface RefusedLine {
  /** The request's id, when it could be read; null otherwise (JSON-RPC's answer to an unreadable request). */
  id: string | number | null;
  code: ProtocolErrorCode.ParseError | ProtocolErrorCode.InvalidRequest;
  message: string;
  /** The line's length in bytes. */
  bytes: number;
}

const NEWLINE = 0x0a;
const NEWLINE_BYTES = Buffer.from('\n');
/** Bytes kept of each end of a line too long to read: enough for the members before `params`, or after it. */
const KEPT_BYTES = 256;

/** Passes on the lines (with their newline) that are JSON-RPC messages within `maxBytes`; `refuse` hears of the others. */
export class BoundedLines extends Transform {
  private parts: Buffer[] = [];
  private bytes = 0;
  /** The first and last bytes of the line being skipped, once it passed the limit. */
  private skipping: { head: Buffer; tail: Buffer } | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly refuse: (refused: RefusedLine) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    for (let start = 0; start < chunk.length;) {
      const newline = chunk.indexOf(NEWLINE, start);
      this.collect(chunk.subarray(start, newline < 0 ? chunk.length : newline));
      if (newline < 0) break;
      this.endLine();
      start = newline + 1;
    }
    done();
  }

  private collect(part: Buffer): void {
    if (part.length === 0) return;
    this.bytes += part.length;
    if (this.skipping) {
      this.skipping.tail = lastBytes([this.skipping.tail, part]);
    } else if (this.bytes <= this.maxBytes) {
      this.parts.push(part);
    } else {
      const read = [...this.parts, part];
      this.skipping = { head: firstBytes(read), tail: lastBytes(read) };
      this.parts = [];
    }
  }

  private endLine(): void {
    const { parts, bytes, skipping } = this;
    this.parts = [];
    this.bytes = 0;
    this.skipping = undefined;
    if (skipping) {
      this.refuse({
        id: idAtEnds(skipping.head.toString('utf8'), skipping.tail.toString('utf8')),
        code: ProtocolErrorCode.InvalidRequest,
        message: `The message (${bytes} bytes) is over the limit of ${this.maxBytes} bytes this server reads (MCP_STDIO_MAX_MESSAGE_BYTES); it was not read.`,
        bytes,
      });
      return;
    }
    const line = Buffer.concat([...parts, NEWLINE_BYTES], bytes + 1);
    const text = line.toString('utf8', 0, bytes);
    // Blank lines carry nothing to answer.
    if (text.trim() === '') return;
    const refusal = refusalOf(text);
    if (refusal) this.refuse({ ...refusal, bytes });
    else this.push(line);
  }
}

function refusalOf(text: string): Omit<RefusedLine, 'bytes'> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { id: null, code: ProtocolErrorCode.ParseError, message: 'Parse error: the message is not JSON.' };
  }
  try {
    parseJSONRPCMessage(value);
    return undefined;
  } catch {
    return {
      id: idOf(value),
      code: ProtocolErrorCode.InvalidRequest,
      message: 'Invalid request: the message is not a JSON-RPC 2.0 request, notification or response.',
    };
  }
}

function idOf(value: unknown): string | number | null {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

const ID_VALUE = String.raw`(-?\d{1,15}|"(?:[^"\\]|\\.){0,200}")`;
/** The id among the first members, before any object or array: `{"jsonrpc":"2.0","id":7,"method":…`. */
const LEADING_ID = new RegExp(
  String.raw`^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*${ID_VALUE}\s*[,}]`,
);
/**
 * The id as the last member, where the SDK's client writes it: `…},"jsonrpc":"2.0","id":7}`. An `id` of a
 * nested object would be followed by two closing braces, and one inside a string by an escaped quote.
 */
const TRAILING_ID = new RegExp(String.raw`[{,]\s*"id"\s*:\s*${ID_VALUE}\s*\}\s*$`);

/** The id of a message read only at its two ends; null when neither end shows it. */
export function idAtEnds(head: string, tail: string): string | number | null {
  const found = LEADING_ID.exec(head)?.[1] ?? TRAILING_ID.exec(tail)?.[1];
  return found === undefined ? null : (JSON.parse(found) as string | number);
}

/** A copy of the first KEPT_BYTES of these buffers. */
function firstBytes(buffers: readonly Buffer[]): Buffer {
  const kept: Buffer[] = [];
  let length = 0;
  for (const buffer of buffers) {
    if (length >= KEPT_BYTES) break;
    kept.push(buffer.subarray(0, KEPT_BYTES - length));
    length += kept.at(-1)!.length;
  }
  return Buffer.concat(kept);
}

/** A copy of the last KEPT_BYTES of these buffers (not a view: the chunks they come from are let go). */
function lastBytes(buffers: readonly Buffer[]): Buffer {
  const kept: Buffer[] = [];
  let length = 0;
  for (let i = buffers.length - 1; i >= 0 && length < KEPT_BYTES; i--) {
    const buffer = buffers[i]!;
    kept.unshift(buffer.subarray(Math.max(0, buffer.length - (KEPT_BYTES - length))));
    length += kept[0]!.length;
  }
  return Buffer.concat(kept);
}
