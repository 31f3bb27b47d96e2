/**
 * The Node HTTP server (`--http`), loaded by main only then: node:http around the one web-standard handler
 * (web-handler.ts), which holds the whole server. This adapter adds what only a Node process has: a port
 * to listen on, per-request log lines, and a graceful drain on SIGTERM/SIGINT.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type McpHandlerRequestOptions, type Server } from '@modelcontextprotocol/server';
import { cutEnd, NO_SECRETS } from '../redaction/cut.js';
import { publishChanges, type OnCatalogChange } from '../reload/catalog-changes.js';
import type { RuntimeConfig } from '../server/config.js';
import type { Logger } from '../server/log.js';
import type { SharedState } from '../state/state-store.js';
import { exitGracefullyOnSignals, InflightRequests } from './shutdown.js';
import { MAX_MESSAGE_BYTES } from '../contract/message-limits.js';
import { createWebHandler } from './web-handler.js';

/**
 * Request paths are logged, never query strings (they can hold tokens); this bounds a hostile path, cut without
 * leaving part of a word at the edge (cut.ts), so a token in a path is never logged in part.
 */
const MAX_LOGGED_PATH = 200;

export interface HttpServerHandle {
  port: number;
  /** Stops at once; exchanges still in flight are torn down. */
  close: () => Promise<void>;
  /**
   * Stops gracefully: refuses new connections and new requests (503), lets the requests in flight finish
   * for up to `http.shutdownTimeoutMs`, then closes. Resolves true when everything finished in time.
   */
  shutdown: () => Promise<boolean>;
}

export interface StartHttpOptions {
  /** Exit gracefully on SIGTERM/SIGINT (default true; tests running in-process turn it off). */
  handleSignals?: boolean;
}

/** What the process brings to the endpoint: the catalog's reloads, and the state shared with other replicas. */
export interface EndpointParts {
  onCatalogChange?: OnCatalogChange;
  shared?: SharedState;
}

/**
 * The stateless MCP endpoint alone, for an app that routes to it: no Host/Origin checks, CORS or endpoint
 * auth (the app applies its own, e.g. the SDK's createMcpExpressApp / createMcpHonoApp guards).
 */
export interface McpEndpoint {
  /** Web-standard: answers one request to the endpoint (Hono: `endpoint.fetch(c.req.raw, { parsedBody })`). */
  fetch(request: Request, options?: McpHandlerRequestOptions): Promise<Response>;
  /** Node: `(req, res, parsedBody?)` (Express: `endpoint.node(req, res, req.body)`; node:http). */
  node: NodeMcpRequestHandler;
  /** Ends the exchanges in flight. */
  close(): Promise<void>;
}

/**
 * `onCatalogChange`: each reload of the catalog is published to the subscriptions/listen streams, of every
 * replica when `shared` carries a bus.
 */
export function mcpEndpoint(
  factory: () => Server,
  log: Logger,
  { onCatalogChange, shared }: EndpointParts = {},
): McpEndpoint {
  const onerror = (e: unknown) => log.error('mcp error', { error: e instanceof Error ? e.message : String(e) });
  const handler = createMcpHandler(factory, {
    maxRequestBodySize: MAX_MESSAGE_BYTES,
    onerror,
    ...(shared?.bus ? { bus: shared.bus } : {}),
  });
  const unsubscribe = onCatalogChange?.((changes) => publishChanges(handler.notify, changes));
  const node = toNodeHandler(handler, { maxRequestBodySize: MAX_MESSAGE_BYTES, onerror });
  const close = async () => {
    unsubscribe?.();
    await handler.close();
    await shared?.close();
  };
  return { fetch: (request, options) => handler.fetch(request, options), node, close };
}

export function startHttp(
  factory: () => Server,
  config: RuntimeConfig,
  log: Logger,
  options: StartHttpOptions & EndpointParts = {},
): Promise<HttpServerHandle> {
  // Before listening, so a bad MCP_OAUTH_* / MCP_AUTH_TOKENS configuration stops the start.
  const web = createWebHandler(factory, config, log, {
    defaultResourceUrl: () => localUrl(config, server),
    ...(options.onCatalogChange ? { onCatalogChange: options.onCatalogChange } : {}),
    ...(options.shared?.bus ? { bus: options.shared.bus } : {}),
  });
  const onerror = (e: unknown) => log.error('mcp error', { error: e instanceof Error ? e.message : String(e) });
  const toNode = toNodeHandler(web, { maxRequestBodySize: MAX_MESSAGE_BYTES, onerror });
  const inflight = new InflightRequests();
  const unanswered = new Set<ServerResponse>();
  let draining = false;

  const server = createHttpServer((req, res) => {
    logWhenClosed(req, res, log);
    const exchange = toNode(req, res);
    // A subscriptions/listen stream lasts as long as the client wants: shutdown closes it rather than waiting.
    if (req.headers['mcp-method'] === 'subscriptions/listen') return void exchange.catch(onerror);
    unanswered.add(res);
    inflight.track(exchange.finally(() => unanswered.delete(res)));
  });

  // 'close' fires once, when the listener is closed and the last connection has ended; a close callback
  // registered after that would never run, so the event is captured up front.
  const serverClosed = new Promise<void>((done) => server.once('close', () => done()));

  const close = async () => {
    draining = true;
    web.stopAccepting();
    await web.close();
    if (server.listening) server.close();
    server.closeAllConnections();
    await serverClosed;
    await options.shared?.close();
  };

  const shutdown = async (): Promise<boolean> => {
    if (!draining) {
      draining = true;
      // New requests get 503; the listener stops (new connections are refused) and idle keep-alive
      // connections are dropped.
      web.stopAccepting();
      server.close();
      // Responses still to come end their connection, so clients do not send more on it.
      for (const res of unanswered) if (!res.headersSent) res.setHeader('connection', 'close');
      log.info('draining: waiting for requests in flight', {
        inflight: inflight.size,
        timeoutMs: config.http.shutdownTimeoutMs,
      });
    }
    const finished = await inflight.waitUntilIdle(config.http.shutdownTimeoutMs);
    if (!finished) log.warn('shutdown timeout: closing requests still in flight', { inflight: inflight.size });
    await close();
    return finished;
  };

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.http.port, config.http.host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : config.http.port;
      log.info('serving MCP over Streamable HTTP', {
        url: `http://${config.http.host}:${port}/mcp`,
        cors: config.http.corsOrigins.length > 0,
      });
      if (options.handleSignals !== false) exitGracefullyOnSignals(() => shutdown().then(() => undefined), log);
      resolve({ port, close, shutdown: () => shutdown() });
    });
  });
}

/**
 * One line per request once it is over: method, path, status, duration. Headers and bodies never appear
 * (they carry credentials and tool arguments); neither does the query string.
 */
function logWhenClosed(req: IncomingMessage, res: ServerResponse, log: Logger): void {
  const started = performance.now();
  res.once('close', () => {
    const ms = Math.round((performance.now() - started) * 10) / 10;
    const fields: Record<string, unknown> = {
      method: req.method,
      path: cutEnd(pathOf(req), MAX_LOGGED_PATH, NO_SECRETS).text,
      status: res.headersSent ? res.statusCode : null,
      ms,
    };
    // Closed before the response was complete: the client went away (or the server was torn down).
    if (!res.writableFinished) fields['aborted'] = true;
    log.info('http request', fields);
  });
}

/** This endpoint's URL as a local client reaches it (the default OAuth resource URL). */
function localUrl(config: RuntimeConfig, server: ReturnType<typeof createHttpServer>): string {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  const host = config.http.host === '0.0.0.0' || config.http.host === '::' ? 'localhost' : config.http.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/mcp`;
}

function pathOf(req: IncomingMessage): string {
  return (req.url ?? '/').split('?')[0] ?? '/';
}
