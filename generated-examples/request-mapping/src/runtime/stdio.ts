/** MCP over stdio (2026-07-28 and 2025-11-25 clients): one process, one client. */
import type { Readable, Writable } from 'node:stream';
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { spliceSerializedTools } from './listing-bytes.js';
import type { Logger } from './log.js';

export function startStdio(factory: () => Server, log: Logger): void {
  const handle = serveStdio(factory, { transport: new SerializedPagesTransport(), onerror: (e) => log.error('stdio error', { error: e.message }) });
  const stop = () => void handle.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  log.info('serving MCP on stdio');
}

/**
 * The SDK's stdio transport, except that a tools/list answer whose page is pre-serialized (listing-bytes.ts)
 * is written with the page's bytes in place: everything else goes through the SDK's own send.
 */
export class SerializedPagesTransport extends StdioServerTransport {
  private closed = false;

  constructor(
    stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {
    super(stdin, stdout);
  }

  override async close(): Promise<void> {
    this.closed = true;
    return super.close();
  }

  override send(...args: Parameters<StdioServerTransport['send']>): Promise<void> {
    const parts = this.closed ? undefined : spliceSerializedTools(args[0]);
    return parts ? writeAll(this.stdout, parts) : super.send(...args);
  }
}

/**
 * Writes the parts in one go (corked: one writev) and resolves once the stream took them, after a drain when
 * its buffer was full; rejects on its error.
 */
function writeAll(stream: Writable, parts: readonly Buffer[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (error?: Error | null) => {
      stream.off('error', settle);
      stream.off('drain', settle);
      if (error) reject(error);
      else resolve();
    };
    stream.once('error', settle);
    stream.cork();
    let accepted = true;
    for (const part of parts) accepted = stream.write(part);
    stream.uncork();
    if (accepted) settle();
    else stream.once('drain', settle);
  });
}
