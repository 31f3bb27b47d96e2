/**
 * MCP over stdio (2026-07-28 and 2025-11-25 clients): one process, one client.
 *
 * A client that writes its requests and closes stdin (a script, a pipe, a host shutting down) still gets every
 * answer: the SDK's transport closes when its input ends and aborts what is in flight, so it reads a stream of
 * ours that ends only once the requests read so far were answered. On end of input, SIGTERM or SIGINT the
 * server stops reading, waits for those answers (bounded: a call ends by its own timeout, the bound adds a
 * margin to write its answer), logs the requests the bound cut, and exits. A second signal exits at once.
 *
 * Input never stops the server: stdin reaches the transport through a reader of bounded lines
 * (stdio-lines.ts), which answers a message too long or malformed with an error and goes on.
 */
import type { JSONRPCMessage, Server, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Logger } from '../server/log.js';
import { exitGracefullyOnSignals, InflightRequests } from './shutdown.js';
import { BoundedLines, type RefusedLine } from './stdio-lines.js';

/** Time, beyond the call timeout, for the answer of a call that timed out to be written. */
export const DRAIN_MARGIN_MS = 1_000;

export interface StdioOptions {
  /** The call timeout (API_TIMEOUT_MS): the drain waits this long, and a margin, for answers. */
  callTimeoutMs: number;
  /** The longest line read (MCP_STDIO_MAX_MESSAGE_BYTES). */
  maxMessageBytes: number;
}

export function startStdio(factory: () => Server, log: Logger, { callTimeoutMs, maxMessageBytes }: StdioOptions): void {
  const input = new BoundedLines(maxMessageBytes, (refused) => answerRefused(transport, refused, log));
  // A line and its newline: the transport's own buffer limit never closes the connection on a line passed on.
  const transport = new StdioServerTransport(input, process.stdout, { maxBufferSize: maxMessageBytes + 1 });
  process.stdin.pipe(input, { end: false });
  const wire = new AnswerTracking(transport);
  const handle = serveStdio(factory, {
    transport: wire,
    onerror: (e) => log.error('stdio error', { error: e.message }),
  });
  let draining: Promise<void> | undefined;
  const drain = (reason: string) =>
    (draining ??= (async () => {
      process.stdin.unpipe(input);
      process.stdin.pause();
      const cut = await wire.unansweredAfter(callTimeoutMs + DRAIN_MARGIN_MS);
      if (cut.length > 0)
        log.warn('stdio: exiting with requests unanswered', {
          reason,
          boundMs: callTimeoutMs + DRAIN_MARGIN_MS,
          unanswered: cut,
        });
      await handle.close();
    })());
  process.stdin.once('end', () => void drain('end of input').then(() => process.exit(0)));
  exitGracefullyOnSignals(() => drain('signal'), log);
  log.info('serving MCP on stdio');
}

/**
 * A refused line never reached the transport: its answer is written past the answer tracking, which would
 * take it for the answer of a request in flight were a client to reuse an id.
 */
function answerRefused(transport: StdioServerTransport, refused: RefusedLine, log: Logger): void {
  log.warn('stdio: message refused', { reason: refused.message, bytes: refused.bytes, id: refused.id });
  const answer: JSONRPCMessage = {
    jsonrpc: '2.0',
    id: refused.id,
    error: { code: refused.code, message: refused.message },
  } as JSONRPCMessage;
  transport
    .send(answer)
    .catch((e: unknown) => log.error('stdio error', { error: e instanceof Error ? e.message : String(e) }));
}

/**
 * The SDK's stdio transport, counting the client's requests from the moment they are read until their answer
 * was written. Long-lived `subscriptions/listen` requests are not counted: they end with the connection.
 */
export class AnswerTracking implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  private readonly inflight = new InflightRequests();
  private readonly unanswered = new Map<string, { label: string; answered: () => void }>();

  constructor(private readonly wire: Transport) {}

  start(): Promise<void> {
    this.wire.onclose = () => this.onclose?.();
    this.wire.onerror = (error) => this.onerror?.(error);
    this.wire.onmessage = (message, extra) => {
      this.noteIncoming(message);
      this.onmessage?.(message, extra);
    };
    return this.wire.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    try {
      await this.wire.send(message, options);
    } finally {
      if ('id' in message && !('method' in message)) this.settle(message.id);
    }
  }

  close(): Promise<void> {
    return this.wire.close();
  }

  /**
   * Waits until every request read so far was answered, or `boundMs` passed; what is still unanswered then.
   * Waits one turn of the event loop first: chunks already read from stdin reach the transport by then.
   */
  async unansweredAfter(boundMs: number): Promise<string[]> {
    await new Promise((resolve) => setImmediate(resolve));
    await this.inflight.waitUntilIdle(boundMs);
    return [...this.unanswered.values()].map((entry) => entry.label);
  }

  private noteIncoming(message: JSONRPCMessage): void {
    if ('method' in message && 'id' in message) {
      if (message.method === 'subscriptions/listen') return;
      const key = idKey(message.id);
      if (this.unanswered.has(key)) return;
      const tool =
        message.method === 'tools/call' ? (message.params as { name?: unknown } | undefined)?.name : undefined;
      const label = `${message.method}${typeof tool === 'string' ? ` ${tool}` : ''} (id ${JSON.stringify(message.id)})`;
      this.inflight.track(new Promise<void>((answered) => this.unanswered.set(key, { label, answered })));
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request is not answered.
      const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.settle(requestId);
    }
  }

  private settle(id: unknown): void {
    if (typeof id !== 'string' && typeof id !== 'number') return;
    const key = idKey(id);
    const entry = this.unanswered.get(key);
    this.unanswered.delete(key);
    entry?.answered();
  }
}

/** JSON-RPC ids 1 and "1" are different requests. */
function idKey(id: string | number): string {
  return `${typeof id}:${id}`;
}
