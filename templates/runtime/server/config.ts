/** The server's configuration, read from its environment through the one table of variables (environment.ts). */
import { readEndpointAuthConfig, type EndpointAuthConfig } from '../endpoint-auth/endpoint-auth-config.js';
import { ENV, readEnv, type EnvName } from '../contract/environment.js';
import type { UpstreamTls } from '../upstream/http-client.js';

export interface RuntimeConfig {
  /** Overrides the spec's server URL for every operation. */
  baseUrl?: string;
  /** The whole budget of one tool call's upstream exchange: every attempt, redirect and retry wait. */
  timeoutMs: number;
  maxResponseBytes: number;
  /** Retries after 429/502/503/504 for idempotent methods; 0 turns retrying off. */
  maxRetries: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  http: {
    host: string;
    port: number;
    allowedHosts: string[];
    allowedOrigins: string[];
    /** Browser origins answered with CORS headers: full origins, bare host names, or `*`. Empty: no CORS. */
    corsOrigins: string[];
    /** How long a SIGTERM/SIGINT waits for in-flight requests before exiting anyway. */
    shutdownTimeoutMs: number;
    /** Protection of the /mcp endpoint (MCP_AUTH_TOKENS, MCP_OAUTH_*); none by default. */
    auth: EndpointAuthConfig;
  };
  /** Client certificate and extra CAs for upstream TLS, read at start by the Node server (upstream-tls.ts). */
  upstreamTls?: UpstreamTls;
}

/** Two retries ride out a brief overload or a deploy without making a failing call take long. */
export const DEFAULT_MAX_RETRIES = ENV.API_MAX_RETRIES.default;
/** No single wait between attempts is longer; a Retry-After asking for more is reported, not obeyed. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;
/** First backoff step when the upstream gives no Retry-After; it doubles per retry. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 250;

const UPSTREAM_TLS_VARIABLES: readonly EnvName[] = [
  'API_TLS_CA_FILE',
  'API_TLS_CERT_FILE',
  'API_TLS_PRIVATE_FILE',
  'API_TLS_PASSPHRASE',
];

/**
 * A client certificate or CA that is set must be used, or the start stops: ignored, the API would refuse every
 * call (or, with a CA, the server would trust less than it was told to) with nothing saying why. Only the Node
 * server's own client applies them; fetch (the web targets, or a fetch given to createServer) has no standard
 * way to present a client certificate or to trust another CA.
 */
export function assertUpstreamTlsApplies(env: NodeJS.ProcessEnv, applied: boolean): void {
  const set = UPSTREAM_TLS_VARIABLES.filter((name) => env[name]?.trim());
  if (set.length === 0 || applied) return;
  throw new Error(
    `${set.join(', ')} ${set.length === 1 ? 'is' : 'are'} set, but this server sends upstream requests through fetch, which cannot present a client certificate or trust another CA: run the Node server (npm start, without a custom fetch), or unset ${set.length === 1 ? 'it' : 'them'}`,
  );
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const baseUrl = readEnv(env, 'API_BASE_URL');
  return {
    ...(baseUrl ? { baseUrl } : {}),
    timeoutMs: readEnv(env, 'API_TIMEOUT_MS'),
    maxResponseBytes: readEnv(env, 'API_MAX_RESPONSE_BYTES'),
    maxRetries: readEnv(env, 'API_MAX_RETRIES'),
    logLevel: readEnv(env, 'LOG_LEVEL'),
    http: {
      host: readEnv(env, 'HOST'),
      port: readEnv(env, 'PORT'),
      allowedHosts: readEnv(env, 'MCP_ALLOWED_HOSTS'),
      allowedOrigins: readEnv(env, 'MCP_ALLOWED_ORIGINS'),
      corsOrigins: readEnv(env, 'MCP_CORS_ORIGINS'),
      shutdownTimeoutMs: readEnv(env, 'MCP_SHUTDOWN_TIMEOUT_MS'),
      auth: readEndpointAuthConfig(env),
    },
  };
}
