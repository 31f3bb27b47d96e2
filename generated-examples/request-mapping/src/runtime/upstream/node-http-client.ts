/**
 * The upstream HTTP exchange on node:http/node:https, the Node server's default. fetch would do the same
 * job, but in Node 20 each fetch costs about 0.2 ms of CPU more than the request itself (WHATWG Request,
 * Headers, Response and web streams around every call), which on a busy server is more than all the rest of
 * a tool call. The web targets (Workers, Deno, Bun, Lambda) send through fetch (http-client.ts).
 *
 * The figure it holds: per-call overhead over stdio (line 1 ms; GitHub server, default mode, a parameterless
 * GET, bench/large-apis.mjs). Measured in one run of interleaved blocks (2,000 calls each): 0.68 ms through
 * this client, 1.08 ms with every request sent through fetch, which also took 0.52 ms more CPU per call.
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { Buffer } from 'node:buffer';
import { constants as zlib, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

import {
  BodyDecodingError,
  DEFAULT_USER_AGENT,
  joined,
  type CappedBody,
  type OutgoingRequest,
  type SendRequest,
  type UpstreamResponse,
  type UpstreamTls,
} from './http-client.js';

/** Compression this client decodes, when the request names none. */
const DEFAULT_ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * Keep-alive connections, as fetch keeps them. An idle connection is closed after 4 s (fetch's default too):
 * servers close idle connections on their own schedule, and reusing one they just closed fails the request.
 */
const IDLE_SOCKET_MS = 4_000;
const agents = {
  'http:': new HttpAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
  'https:': new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS }),
};

/** Redirect and retry bodies up to this size are drained so the connection is reused; larger ones are dropped. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

/** A keep-alive https agent per set of TLS material (one per server: it is read once, at start). */
const tlsAgents = new WeakMap<UpstreamTls, HttpsAgent>();

function httpsAgentFor(tls: UpstreamTls | undefined): HttpsAgent {
  if (!tls) return agents['https:'];
  let agent = tlsAgents.get(tls);
  if (!agent) {
    agent = new HttpsAgent({ keepAlive: true, timeout: IDLE_SOCKET_MS, ...tls });
    tlsAgents.set(tls, agent);
  }
  return agent;
}

/** `tls`: the client certificate and extra CAs every https request presents and trusts (upstream-tls.ts). */
export function sendWithNodeHttp(userAgent = DEFAULT_USER_AGENT, tls?: UpstreamTls): SendRequest {
  const httpsAgent = httpsAgentFor(tls);
  return (request) => sendOnce(request, { userAgent, httpsAgent }, true);
}

interface Connection {
  userAgent: string;
  httpsAgent: HttpsAgent;
}

/**
 * One request. A request that fails on a kept-alive connection before any response came (the server had
 * closed it as it was reused) is sent once more on a fresh one when repeating it is harmless.
 */
function sendOnce(request: OutgoingRequest, connection: Connection, mayRepeat: boolean): Promise<UpstreamResponse> {
  const { signal } = request;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<UpstreamResponse>((resolve, reject) => {
    let req: ClientRequest;
    let response: IncomingMessage | undefined;
    const onAbort = () => {
      req.destroy(signal.reason as Error);
      response?.destroy(signal.reason as Error);
    };
    const release = () => signal.removeEventListener('abort', onAbort);
    try {
      req = requestFor(request, connection);
    } catch (error) {
      reject(error);
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res: IncomingMessage) => {
      response = res;
      resolve(upstreamResponse(res, release));
    });
    req.on('error', (error) => {
      if (response) return; // the response's own reader reports it
      release();
      if (mayRepeat && req.reusedSocket && !signal.aborted && isRepeatable(request) && isConnectionReset(error)) {
        resolve(sendOnce(request, connection, false));
        return;
      }
      reject(error);
    });
    req.end(request.body);
  });
}

function requestFor(request: OutgoingRequest, { userAgent, httpsAgent }: Connection): ClientRequest {
  const url = new URL(request.url);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:')
    throw new TypeError(`Unsupported protocol ${url.protocol} in ${request.url}`);
  const headers: Record<string, string> = { ...request.headers };
  headers['accept-encoding'] ??= DEFAULT_ACCEPT_ENCODING;
  headers['user-agent'] ??= userAgent;
  if (request.body !== undefined) headers['content-length'] = String(byteLengthOf(request.body));
  else if (request.method === 'POST' || request.method === 'PUT' || request.method === 'PATCH')
    headers['content-length'] = '0';
  const send = secure ? httpsRequest : httpRequest;
  return send(url, { method: request.method, headers, agent: secure ? httpsAgent : agents['http:'] });
}

function byteLengthOf(body: string | Uint8Array): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/** Methods a server must tolerate receiving twice (RFC 9110 §9.2.2). */
function isRepeatable(request: OutgoingRequest): boolean {
  return ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(request.method);
}

function isConnectionReset(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'ECONNRESET' || code === 'EPIPE';
}

function upstreamResponse(res: IncomingMessage, release: () => void): UpstreamResponse {
  let consumed = false;
  const claim = () => {
    if (consumed) throw new Error('the response body was already read');
    consumed = true;
  };
  return {
    status: res.statusCode ?? 0,
    statusText: res.statusMessage ?? '',
    header: (name) => headerValue(res, name),
    readCapped: (maxBytes, skipBytes) => {
      claim();
      return readCapped(res, maxBytes, skipBytes).finally(release);
    },
    discard: () => {
      claim();
      dropBody(res);
      release();
      return Promise.resolve();
    },
  };
}

function headerValue(res: IncomingMessage, name: string): string | null {
  const value = res.headers[name];
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** A connection goes back to the pool only once its response was read to the end. */
function dropBody(res: IncomingMessage): void {
  const length = Number(res.headers['content-length']);
  if (res.complete || (Number.isInteger(length) && length <= DRAIN_LIMIT_BYTES)) {
    res.on('error', () => undefined);
    res.resume();
  } else res.destroy();
}

/**
 * Reads at most maxBytes of the decoded body, after dropping its first skipBytes as they arrive (never held),
 * then closes the connection so the rest is never downloaded.
 */
function readCapped(res: IncomingMessage, maxBytes: number, skipBytes = 0): Promise<CappedBody> {
  const { body: source, readError } = decodedBody(res);
  return new Promise<CappedBody>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let toSkip = skipBytes;
    const finish = (truncated: boolean) => {
      source.off('data', onData);
      resolve({ bytes: joined(chunks, size), truncated, skipped: skipBytes - toSkip });
    };
    const onData = (data: Buffer) => {
      let chunk = data;
      if (toSkip > 0) {
        const dropped = Math.min(toSkip, chunk.byteLength);
        toSkip -= dropped;
        if (dropped === chunk.byteLength) return;
        chunk = chunk.subarray(dropped);
      }
      if (size + chunk.byteLength > maxBytes) {
        chunks.push(chunk.subarray(0, maxBytes - size));
        size = maxBytes;
        res.destroy();
        if (source !== res) source.destroy();
        finish(true);
        return;
      }
      chunks.push(chunk);
      size += chunk.byteLength;
    };
    source.on('data', onData);
    source.once('end', () => finish(false));
    source.once('error', (error: Error) => reject(readError(error)));
  });
}

/**
 * The body as sent, or through a decompressor for the encodings requested (and unknown ones as they are), and
 * how to report a failure while reading it: the decompressor's own errors become BodyDecodingError, the
 * connection's stay as they are.
 */
function decodedBody(res: IncomingMessage): { body: Readable; readError(error: Error): Error } {
  const encoding = res.headers['content-encoding']?.trim() ?? '';
  const decoder = decompressorFor(encoding);
  if (decoder === undefined) return { body: res, readError: (error) => error };
  let connectionError: Error | undefined;
  // Lenient about a truncated stream, as browsers and fetch are: what arrived is still shown.
  res.on('error', (error) => {
    connectionError = error;
    decoder.destroy(error);
  });
  return {
    body: res.pipe(decoder),
    readError: (error) => (error === connectionError ? error : new BodyDecodingError(encoding, error)),
  };
}

function decompressorFor(encoding: string): Transform | undefined {
  switch (encoding.toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH });
    case 'deflate':
      return createInflate({ flush: zlib.Z_SYNC_FLUSH, finishFlush: zlib.Z_SYNC_FLUSH });
    case 'br':
      return createBrotliDecompress({ flush: zlib.BROTLI_OPERATION_FLUSH, finishFlush: zlib.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
}
