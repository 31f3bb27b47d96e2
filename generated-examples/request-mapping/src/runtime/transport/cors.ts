/**
 * CORS for browser-based MCP clients, off unless MCP_CORS_ORIGINS lists origins. The SDK answers an
 * OPTIONS preflight with 405 and sets no CORS headers, so without this a browser cannot call /mcp.
 * Web-standard (Request and Response), so every deployment target shares it.
 */

/** Request headers an MCP client sends (2026-07-28 and 2025-11-25) beyond the CORS-safelisted ones. */
const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'mcp-session-id',
  'last-event-id',
];
/** `Mcp-Param-<name>` headers carry tool arguments; their names are open-ended, so requested ones are echoed. */
const PARAM_HEADER_PREFIX = 'mcp-param-';
const EXPOSED_HEADERS = 'mcp-session-id, mcp-protocol-version';
/** Seconds a browser may cache a preflight answer (browsers cap this themselves: Chrome at 2 h). */
const PREFLIGHT_MAX_AGE_S = 3600;

export interface Cors {
  /** Whether a request from this Origin may be served (it then also passes the Origin guard). */
  allows(origin: string): boolean;
  /** True for an OPTIONS request carrying Access-Control-Request-Method, i.e. a browser preflight. */
  isPreflight(request: Request): boolean;
  /** Answers a preflight: 204 with the CORS headers, or 403 for an origin not on the list. */
  answerPreflight(request: Request): Response;
  /** Adds Allow-Origin and Expose-Headers to a normal response when its Origin is allowed. */
  decorate(request: Request, response: Response): Response;
}

/**
 * `entries`: `*`, full origins (`https://app.example.com`, matched exactly, port included) or bare host
 * names (`app.example.com`, any scheme and port, like MCP_ALLOWED_ORIGINS). Empty: CORS stays off.
 */
export function createCors(entries: readonly string[]): Cors | undefined {
  if (entries.length === 0) return undefined;
  const anyOrigin = entries.includes('*');
  const origins = new Set(
    entries
      .filter((e) => e.includes('://'))
      .map(normalizedOrigin)
      .filter(isString),
  );
  const hostnames = new Set(entries.filter((e) => e !== '*' && !e.includes('://')).map((e) => e.toLowerCase()));

  const allows = (origin: string): boolean => {
    if (anyOrigin) return true;
    const normalized = normalizedOrigin(origin);
    if (normalized === undefined) return false;
    return origins.has(normalized) || hostnames.has(new URL(normalized).hostname);
  };
  // With `*` the answer is the literal `*`: nothing varies, and it is valid for requests without cookies,
  // which MCP clients do not use (they send Authorization).
  const allowOriginValue = (origin: string): string => (anyOrigin ? '*' : origin);
  const allowedOriginOf = (request: Request): string | undefined => {
    const origin = request.headers.get('origin');
    return origin !== null && allows(origin) ? origin : undefined;
  };

  return {
    allows,
    isPreflight: (request) => request.method === 'OPTIONS' && request.headers.has('access-control-request-method'),
    answerPreflight(request) {
      const origin = allowedOriginOf(request);
      if (origin === undefined) {
        return Response.json(
          { error: 'origin not allowed by MCP_CORS_ORIGINS' },
          { status: 403, headers: { vary: 'Origin' } },
        );
      }
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': allowOriginValue(origin),
          'access-control-allow-methods': 'POST',
          'access-control-allow-headers': allowedHeadersFor(request),
          'access-control-expose-headers': EXPOSED_HEADERS,
          'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
          vary: 'Origin, Access-Control-Request-Headers',
        },
      });
    },
    decorate(request, response) {
      const origin = allowedOriginOf(request);
      if (origin === undefined) return response;
      // A fresh Response: the one the SDK returns may have immutable headers; the body streams through.
      const decorated = new Response(response.body, response);
      decorated.headers.set('access-control-allow-origin', allowOriginValue(origin));
      decorated.headers.set('access-control-expose-headers', EXPOSED_HEADERS);
      if (!anyOrigin) decorated.headers.set('vary', 'Origin');
      return decorated;
    },
  };
}

/** The fixed list plus any `Mcp-Param-*` headers the browser asked for; other unknown headers stay out. */
function allowedHeadersFor(request: Request): string {
  const requested = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name.startsWith(PARAM_HEADER_PREFIX) && /^[a-z0-9-]+$/.test(name));
  return [...new Set([...ALLOWED_HEADERS, ...requested])].join(', ');
}

function normalizedOrigin(value: string): string | undefined {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}
