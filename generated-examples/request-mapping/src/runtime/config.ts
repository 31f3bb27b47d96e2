/** Everything the server reads from its environment, in one place (the README and .env.example list the same). */

export interface RuntimeConfig {
  /** Overrides the spec's server URL for every operation. */
  baseUrl?: string;
  timeoutMs: number;
  maxResponseBytes: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  http: { host: string; port: number; allowedHosts: string[]; allowedOrigins: string[] };
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** About 25k tokens of JSON: enough for a page of results, small enough to leave a model room to think. */
export const DEFAULT_MAX_RESPONSE_BYTES = 100_000;
export const DEFAULT_PORT = 3000;

export function readConfig(env: NodeJS.ProcessEnv = process.env): RuntimeConfig {
  const baseUrl = env['API_BASE_URL']?.trim();
  return {
    ...(baseUrl ? { baseUrl } : {}),
    timeoutMs: positiveInt(env['API_TIMEOUT_MS'], DEFAULT_TIMEOUT_MS),
    maxResponseBytes: positiveInt(env['API_MAX_RESPONSE_BYTES'], DEFAULT_MAX_RESPONSE_BYTES),
    logLevel: logLevel(env['LOG_LEVEL']),
    http: {
      host: env['HOST']?.trim() || '127.0.0.1',
      port: positiveInt(env['PORT'], DEFAULT_PORT),
      allowedHosts: list(env['MCP_ALLOWED_HOSTS']),
      allowedOrigins: list(env['MCP_ALLOWED_ORIGINS']),
    },
  };
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}

function logLevel(raw: string | undefined): RuntimeConfig['logLevel'] {
  return raw === 'debug' || raw === 'warn' || raw === 'error' ? raw : 'info';
}

function list(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}
