/** The server's configuration, read from its environment through the one table of variables (environment.ts). */
import { readEndpointAuthConfig, type EndpointAuthConfig } from './endpoint-auth-config.js';
import { ENV, readEnv } from './environment.js';

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
}

/** Two retries ride out a brief overload or a deploy without making a failing call take long. */
export const DEFAULT_MAX_RETRIES = ENV.API_MAX_RETRIES.default;
/** No single wait between attempts is longer; a Retry-After asking for more is reported, not obeyed. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;
/** First backoff step when the upstream gives no Retry-After; it doubles per retry. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 250;

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
