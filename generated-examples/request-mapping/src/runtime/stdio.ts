/** MCP over stdio (2026-07-28 and 2025-11-25 clients): one process, one client. */
import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Logger } from './log.js';

export function startStdio(factory: () => Server, log: Logger): void {
  const handle = serveStdio(factory, { onerror: (e) => log.error('stdio error', { error: e.message }) });
  const stop = () => void handle.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  log.info('serving MCP on stdio');
}
