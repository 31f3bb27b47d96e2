/**
 * The whole HTTP server as one web-standard handler, `Request → Response`: /health, the OAuth metadata,
 * Host/Origin guards, CORS, endpoint auth and the stateless MCP endpoint (the SDK's createMcpHandler). Every
 * deployment target serves this one handler: Node through node:http (http.ts), and Cloudflare Workers, Deno,
 * Bun and AWS Lambda through their entries in src/. It uses no Node-only API.
 */
import {
  createMcpHandler,
  localhostAllowedHostnames,
  localhostAllowedOrigins,
  originValidationResponse,
  validateHostHeader,
  type Server,
  type ServerEventBus,
} from '@modelcontextprotocol/server';
import { publishChanges, type OnCatalogChange } from '../reload/catalog-changes.js';
import type { RuntimeConfig } from '../server/config.js';
import { createCors, type Cors } from './cors.js';
import { createEndpointAuth } from '../endpoint-auth/endpoint-auth.js';
import type { Logger } from '../server/log.js';
import { MAX_MESSAGE_BYTES } from '../contract/message-limits.js';

export interface WebHandler {
  /** Answers one HTTP request to any path of the server. */
  fetch(request: Request): Promise<Response>;
  /** From now on every request is answered 503 with `Connection: close`: the start of a drain. */
  stopAccepting(): void;
  /** Ends the MCP exchanges still open (subscriptions/listen streams). */
  close(): Promise<void>;
}

export interface WebHandlerOptions {
  /** The endpoint's public URL when MCP_OAUTH_RESOURCE_URL is not set (the OAuth resource). */
  defaultResourceUrl: () => string;
  /** Each reload of the catalog is published to the subscriptions/listen streams (Node, with a catalog watch). */
  onCatalogChange?: OnCatalogChange;
  /** Carries the events to the listen streams of every replica (MCP_STATE_URL); absent: this process's only. */
  bus?: ServerEventBus;
}

/** Builds the handler; a bad MCP_OAUTH_* / MCP_AUTH_TOKENS configuration throws here, before serving. */
export function createWebHandler(
  factory: () => Server,
  config: RuntimeConfig,
  log: Logger,
  options: WebHandlerOptions,
): WebHandler {
  const onerror = (e: unknown) => log.error('mcp error', { error: e instanceof Error ? e.message : String(e) });
  const mcp = createMcpHandler(factory, {
    maxRequestBodySize: MAX_MESSAGE_BYTES,
    onerror,
    ...(options.bus ? { bus: options.bus } : {}),
  });
  const unsubscribe = options.onCatalogChange?.((changes) => publishChanges(mcp.notify, changes));
  const cors = createCors(config.http.corsOrigins);
  const { hostRefusal, originRefusal } = guards(config, cors);
  const endpointAuth = createEndpointAuth(config.http.auth, { log, defaultResourceUrl: options.defaultResourceUrl });
  let accepting = true;

  const serveMcp = async (request: Request): Promise<Response> => {
    if (!endpointAuth) return mcp.fetch(request);
    const verdict = await endpointAuth.authorize(request);
    if ('challenge' in verdict) return verdict.challenge;
    return mcp.fetch(request, { authInfo: verdict.authInfo });
  };

  return {
    fetch: async (request) => {
      if (!accepting) return refusalWhileDraining(request);
      const path = pathOf(request);
      if (path === '/health' || path === '/healthz') return Response.json({ status: 'ok' });
      if (endpointAuth?.isMetadataPath(path)) return endpointAuth.answerMetadata(request);
      if (path !== '/mcp') return Response.json({ error: 'not found; the MCP endpoint is /mcp' }, { status: 404 });
      const refused = hostRefusal(request);
      if (refused) return refused;
      if (cors?.isPreflight(request)) return cors.answerPreflight(request);
      const refusedOrigin = originRefusal(request);
      if (refusedOrigin) return refusedOrigin;
      const response = await serveMcp(request);
      return cors ? cors.decorate(request, response) : response;
    },
    stopAccepting: () => {
      accepting = false;
    },
    close: () => {
      unsubscribe?.();
      return mcp.close();
    },
  };
}

/** During a drain every new request gets 503, and the connection is closed after it. */
function refusalWhileDraining(request: Request): Response {
  const headers = { connection: 'close', 'retry-after': '1' };
  if (pathOf(request) === '/mcp') {
    return Response.json(
      { jsonrpc: '2.0', error: { code: -32000, message: 'Server is shutting down' }, id: null },
      { status: 503, headers },
    );
  }
  return Response.json({ status: 'shutting down' }, { status: 503, headers });
}

/** The SDK's answer to a refused Host or Origin, as JSON-RPC. */
function forbidden(message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status: 403 });
}

export function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}

type Guard = (request: Request) => Response | undefined;

/**
 * DNS-rebinding protection: localhost only, unless the deployment lists its own host names. Origins
 * allowed for CORS pass the Origin check too: listing them is the operator saying browsers there may call.
 */
function guards(config: RuntimeConfig, cors: Cors | undefined): { hostRefusal: Guard; originRefusal: Guard } {
  const hosts = config.http.allowedHosts.length > 0 ? config.http.allowedHosts : localhostAllowedHostnames();
  const configuredOrigins =
    config.http.allowedOrigins.length > 0 ? config.http.allowedOrigins : config.http.allowedHosts;
  const origins = configuredOrigins.length > 0 ? configuredOrigins : localhostAllowedOrigins();
  return {
    hostRefusal: (request) => {
      // A Request built in-process (a test, an app calling the handler) has no Host header: its URL names the host.
      const result = validateHostHeader(request.headers.get('host') ?? new URL(request.url).host, hosts);
      return result.ok ? undefined : forbidden(result.message);
    },
    originRefusal: (request) => {
      const origin = request.headers.get('origin');
      if (cors !== undefined && origin !== null && cors.allows(origin)) return undefined;
      return originValidationResponse(request, origins);
    },
  };
}
