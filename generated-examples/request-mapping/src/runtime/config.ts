/** Everything the server reads from its environment, in one place (the README and .env.example list the same). */
import { readEndpointAuthConfig, type EndpointAuthConfig } from './endpoint-auth-config.js';

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

export const DEFAULT_TIMEOUT_MS = 30_000;
/** About 25k tokens of JSON: enough for a page of results, small enough to leave a model room to think. */
export const DEFAULT_MAX_RESPONSE_BYTES = 100_000;
export const DEFAULT_PORT = 3000;
/** Two retries ride out a brief overload or a deploy without making a failing call take long. */
export const DEFAULT_MAX_RETRIES = 2;
/** No single wait between attempts is longer; a Retry-After asking for more is reported, not obeyed. */
export const DEFAULT_MAX_RETRY_WAIT_MS = 10_000;
/** First backoff step when the upstream gives no Retry-After; it doubles per retry. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 250;
export const DEFAULT_SHUTDOWN_TIMEOUT_MS = 10_000;

export function readConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const baseUrl = env['API_BASE_URL']?.trim();
  return {
    ...(baseUrl ? { baseUrl } : {}),
    timeoutMs: positiveInt(env['API_TIMEOUT_MS'], DEFAULT_TIMEOUT_MS),
    maxResponseBytes: positiveInt(env['API_MAX_RESPONSE_BYTES'], DEFAULT_MAX_RESPONSE_BYTES),
    maxRetries: nonNegativeInt(env['API_MAX_RETRIES'], DEFAULT_MAX_RETRIES),
    logLevel: logLevel(env['LOG_LEVEL']),
    http: {
      host: env['HOST']?.trim() || '127.0.0.1',
      port: positiveInt(env['PORT'], DEFAULT_PORT),
      allowedHosts: list(env['MCP_ALLOWED_HOSTS']),
      allowedOrigins: list(env['MCP_ALLOWED_ORIGINS']),
      corsOrigins: list(env['MCP_CORS_ORIGINS']),
      shutdownTimeoutMs: positiveInt(env['MCP_SHUTDOWN_TIMEOUT_MS'], DEFAULT_SHUTDOWN_TIMEOUT_MS),
      auth: readEndpointAuthConfig(env),
    },
  };
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

/** Like positiveInt, but 0 is meaningful (e.g. API_MAX_RETRIES=0 turns retries off). */
function nonNegativeInt(raw: string | undefined, fallback: number): number {
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

function logLevel(raw: string | undefined): RuntimeConfig['logLevel'] {
  return raw === 'debug' || raw === 'warn' || raw === 'error' ? raw : 'info';
}

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
