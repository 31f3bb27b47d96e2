/**
 * The upstream HTTP exchange as the tool result needs it: `UpstreamResponse` is the little a result takes
 * from a response, and `sendWithFetch` gives that shape over any fetch (the web targets' own fetch, an
 * injected one in tests, or a custom one a project wires in). On Node the default is node:http instead
 * (node-http-client.ts, loaded by upstream.ts only when no fetch is given).
 */
import { Buffer } from 'node:buffer';

export interface OutgoingRequest {
  method: string;
  url: string;
  /** Lowercase header names. */
  headers: Record<string, string>;
  body?: string | Uint8Array | undefined;
  signal: AbortSignal;
}

export interface CappedBody {
  bytes: Uint8Array;
  /** More bytes were available than the cap allowed; the rest was never read. */
  truncated: boolean;
  /** Bytes of the body before `bytes`, read and dropped: `skipBytes`, fewer when the body ended first (absent: 0). */
  skipped?: number;
}

export interface UpstreamResponse {
  readonly status: number;
  /** The reason phrase, '' when there is none. */
  readonly statusText: string;
  /** A header's value (repeated headers joined with ', '), or null. `name` is lowercase. */
  header(name: string): string | null;
  /**
   * The body, decoded per Content-Encoding, at most maxBytes of it. With `skipBytes`, the body's first
   * `skipBytes` bytes are read and dropped as they arrive, never held, and maxBytes count from there.
   */
  readCapped(maxBytes: number, skipBytes?: number): Promise<CappedBody>;
  /** Drops the body unread, so the connection can be released. */
  discard(): Promise<void>;
}

export type SendRequest = (request: OutgoingRequest) => Promise<UpstreamResponse>;

/** Client certificate and extra CAs for every upstream TLS connection (PEM text; upstream-tls.ts reads them). */
export interface UpstreamTls {
  ca?: string[];
  cert?: string;
  key?: string;
  passphrase?: string;
}

export interface SenderOptions {
  /** Sends through this fetch instead of node:http (every web target passes its own; tests inject one). */
  fetch?: typeof fetch;
  /** The User-Agent header when the request sets none. */
  userAgent?: string;
  /** Node's client only: a given fetch cannot take it (config.ts refuses to start with both). */
  tls?: UpstreamTls;
}

/**
 * The one seam between the targets: a given fetch, else node:http, which on Node costs less per call than fetch
 * (node-http-client.ts) and is loaded only then.
 */
export async function senderFor(opts: SenderOptions): Promise<SendRequest> {
  if (opts.fetch) return sendWithFetch(opts.fetch, opts.userAgent);
  return (await loadNodeHttp()).sendWithNodeHttp(opts.userAgent, opts.tls);
}

let nodeHttp: Promise<typeof import('./node-http-client.js')> | undefined;

function loadNodeHttp(): NonNullable<typeof nodeHttp> {
  return (nodeHttp ??= import('./node-http-client.js'));
}

/** Who calls, when the request names no User-Agent. */
export const DEFAULT_USER_AGENT = 'openapi-to-mcp';

/** A body whose Content-Encoding says it is compressed, and whose bytes do not decompress. */
export class BodyDecodingError extends Error {
  constructor(
    readonly encoding: string,
    cause: Error,
  ) {
    super(`the body is labelled Content-Encoding: ${encoding} but does not decode as such (${cause.message})`, {
      cause,
    });
  }
}

/**
 * Requests through `fetchImpl` (redirects are left to the caller, as with node:http). With a `userAgent`,
 * a request that names none carries it, as over node:http.
 */
export function sendWithFetch(fetchImpl: typeof fetch, userAgent?: string): SendRequest {
  return async (request) => {
    const init: RequestInit = {
      method: request.method,
      headers:
        userAgent && !('user-agent' in request.headers)
          ? { ...request.headers, 'user-agent': userAgent }
          : request.headers,
      redirect: 'manual',
      signal: request.signal,
    };
    // With the DOM lib, fetch's types only accept byte views over a plain ArrayBuffer; the runtime only builds
    // bodies on plain ArrayBuffers, so this is a type-level conversion only.
    if (request.body !== undefined) init.body = request.body as NonNullable<RequestInit['body']>;
    return fromFetchResponse(await fetchImpl(request.url, init));
  };
}

export function fromFetchResponse(res: Response): UpstreamResponse {
  return {
    status: res.status,
    statusText: res.statusText,
    header: (name) => res.headers.get(name),
    readCapped: (maxBytes, skipBytes) => readFetchBody(res, maxBytes, skipBytes),
    discard: async () => {
      await res.body?.cancel().catch(() => undefined);
    },
  };
}

async function readFetchBody(res: Response, maxBytes: number, skipBytes = 0): Promise<CappedBody> {
  if (res.body === null) return { bytes: new Uint8Array(0), truncated: false, skipped: 0 };
  const reader = res.body.getReader();
  const chunks: Buffer[] = [];
  let size = 0;
  let toSkip = skipBytes;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: joined(chunks, size), truncated: false, skipped: skipBytes - toSkip };
    let chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    if (toSkip > 0) {
      // Dropped as it comes: a far page of a large body costs its reading, not its size in memory.
      const dropped = Math.min(toSkip, chunk.byteLength);
      toSkip -= dropped;
      if (dropped === chunk.byteLength) continue;
      chunk = chunk.subarray(dropped);
    }
    if (size + chunk.byteLength > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      await reader.cancel().catch(() => undefined);
      return { bytes: joined(chunks, maxBytes), truncated: true, skipped: skipBytes };
    }
    chunks.push(chunk);
    size += chunk.byteLength;
  }
}

export function joined(chunks: Buffer[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  return Buffer.concat(chunks, size);
}
