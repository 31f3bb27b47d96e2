/** stdio and stateless Streamable HTTP, both serving the same factory (2026-07-28 and 2025-11-25 clients). */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  hostHeaderValidation,
  localhostHostValidation,
  localhostOriginValidation,
  originValidation,
  toNodeHandler,
} from '@modelcontextprotocol/node';
import { createMcpHandler, type Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { RuntimeConfig } from './config.js';
import type { Logger } from './log.js';

const MAX_REQUEST_BODY = 4 * 1024 * 1024;

export function startStdio(factory: () => Server, log: Logger): void {
  const handle = serveStdio(factory, { onerror: (e) => log.error('stdio error', { error: e.message }) });
  const stop = () => void handle.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  log.info('serving MCP on stdio');
}

export function startHttp(factory: () => Server, config: RuntimeConfig, log: Logger): Promise<{ port: number; close: () => Promise<void> }> {
  const handler = createMcpHandler(factory, { maxRequestBodySize: MAX_REQUEST_BODY, onerror: (e) => log.error('mcp error', { error: e.message }) });
  const toNode = toNodeHandler(handler, { maxRequestBodySize: MAX_REQUEST_BODY, onerror: (e) => log.error('http error', { error: String(e) }) });
  const { validHost, validOrigin } = guards(config);
  const server = createHttpServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/health' || path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path !== '/mcp') return sendJson(res, 404, { error: 'not found; the MCP endpoint is /mcp' });
    if (!validHost(req, res) || !validOrigin(req, res)) return;
    void toNode(req, res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http.port, config.http.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.http.port;
      log.info('serving MCP over Streamable HTTP', { url: `http://${config.http.host}:${port}/mcp` });
      const close = async () => {
        await handler.close();
        await new Promise<void>((done) => server.close(() => done()));
      };
      const stop = () => void close().then(() => process.exit(0));
      process.on('SIGTERM', stop);
      process.on('SIGINT', stop);
      resolve({ port, close });
    });
  });
}

type Guard = (req: IncomingMessage, res: ServerResponse) => boolean;

/** DNS-rebinding protection: localhost only, unless the deployment lists its own host names. */
function guards(config: RuntimeConfig): { validHost: Guard; validOrigin: Guard } {
  const hosts = config.http.allowedHosts;
  const origins = config.http.allowedOrigins.length > 0 ? config.http.allowedOrigins : hosts;
  return {
    validHost: hosts.length > 0 ? hostHeaderValidation(hosts) : localhostHostValidation(),
    validOrigin: origins.length > 0 ? originValidation(origins) : localhostOriginValidation(),
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
