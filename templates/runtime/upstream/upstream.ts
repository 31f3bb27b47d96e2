/**
 * Sends a built request upstream and turns whatever happens into a tool result. Upstream problems
 * (HTTP errors, timeouts, unreachable hosts, refused redirects) become isError results; only the
 * client's own cancellation is rethrown, so the MCP SDK can handle it as a cancellation.
 *
 * 429/502/503/504 answers to idempotent requests are retried (see retry.ts), honouring Retry-After, all
 * within the one `timeoutMs` budget, so a retried call never takes longer than an unretried one may.
 */
import { DEFAULT_MAX_RETRIES, DEFAULT_MAX_RETRY_WAIT_MS, DEFAULT_RETRY_BASE_DELAY_MS } from '../server/config.js';
import {
  BodyDecodingError,
  senderFor,
  type SendRequest,
  type UpstreamResponse,
  type UpstreamTls,
} from './http-client.js';
import type { Redaction } from '../redaction/cut.js';
import type { BuiltRequest } from './request.js';
import { errorResult, pageResult, responseToResult, type ToolResult } from './response.js';
import { decideRetry, isRetryableStatus, sleep, untilAborted, type RetryPolicy } from './retry.js';
import { pollFits, pollWaitMs, statusLink, stillRunningNote } from './accepted.js';
import { tlsFailure } from './tls-failure.js';

export interface UpstreamOptions {
  /** Sends through this fetch instead of node:http (tests inject one; so may a project's own code). */
  fetch?: typeof fetch;
  /** The User-Agent header when the request sets none. */
  userAgent?: string;
  /** Client certificate and extra CAs (Node's client only: upstream-tls.ts). */
  tls?: UpstreamTls;
  /** Budget for the whole exchange: every attempt, redirect and wait between retries. */
  timeoutMs: number;
  /** The MCP request's cancellation signal. */
  signal?: AbortSignal;
  maxBytes: number;
  /** Read this page of the body instead of the body up to maxBytes (a response link's page: response-links.ts). */
  page?: { index: number; size: number };
  /** Names the request in messages, e.g. `GET /pets/{petId}`. */
  label: string;
  /** Retries after 429/502/503/504 (idempotent methods only). Default DEFAULT_MAX_RETRIES; 0 turns them off. */
  maxRetries?: number;
  /** Longest wait before one retry. Default DEFAULT_MAX_RETRY_WAIT_MS. */
  maxRetryWaitMs?: number;
  /** First backoff step without Retry-After; doubles per retry. Default DEFAULT_RETRY_BASE_DELAY_MS. */
  retryBaseDelayMs?: number;
  /**
   * Called once when the API answers 401, for credentials to send instead (a fresh client-credentials token):
   * the headers it returns replace the request's, and the request is sent once more. Undefined: no new ones.
   */
  onUnauthorized?: () => Promise<Record<string, string> | undefined>;
  /** The secrets the body is redacted of before any cut (response.ts), asked for when the body is read. */
  redaction?: () => Redaction;
}

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function callUpstream(request: BuiltRequest, opts: UpstreamOptions): Promise<ToolResult> {
  const { signal, timedOut, release } = callSignal(opts.signal, opts.timeoutMs);
  const deadline = Date.now() + opts.timeoutMs;
  const policy = retryPolicyOf(opts);
  const history: AttemptHistory = { retriesMade: 0, statuses: [], reauthorized: false };
  const started = Date.now();
  let polls = 0;
  let req = request;
  let askedForCredentials = false;
  let phase: Phase = 'send';
  try {
    for (;;) {
      phase = 'send';
      const outcome = await sendFollowingSameOrigin(await senderFor(opts), req, signal);
      if (outcome.kind === 'refused') return errorResult(withHistory(outcome.message, history));
      const { response } = outcome;
      if (response.status === 401 && opts.onUnauthorized && !askedForCredentials) {
        askedForCredentials = true;
        // Within the call's own time budget and cancellation, however long the token endpoint takes.
        phase = 'token';
        const headers = await untilAborted(opts.onUnauthorized(), signal);
        if (headers !== undefined) {
          await response.discard();
          history.reauthorized = true;
          req = { ...req, headers: { ...req.headers, ...headers } };
          continue;
        }
      }
      // A long-running operation: poll its status link with GET while the budget allows (accepted.ts).
      // A status endpoint that answers 202 again without a new link is polled where it is.
      const status =
        response.status === 202 ? (statusLink(response, req.url) ?? (polls > 0 ? req.url : undefined)) : undefined;
      if (status !== undefined) {
        const waitMs = pollWaitMs(response);
        if (pollFits(waitMs, deadline, opts.timeoutMs)) {
          await response.discard();
          await sleep(waitMs, signal);
          polls++;
          req = { method: 'GET', url: status, headers: withoutHeader(req.headers, 'content-type') };
          continue;
        }
        phase = 'read';
        const body = await responseToResult(response, {
          maxBytes: opts.maxBytes,
          requestLabel: opts.label,
          ...(opts.redaction ? { redaction: opts.redaction() } : {}),
        });
        const note = stillRunningNote(opts.label, status, waitMs, polls, Date.now() - started);
        return { ...body, content: [{ type: 'text', text: note }, ...body.content], pending: { url: status } };
      }
      let note = historyNote(history);
      if (isRetryableStatus(response.status)) {
        const decision = decideRetry(
          {
            method: req.method,
            status: response.status,
            retryAfter: response.header('retry-after'),
            retriesMade: history.retriesMade,
            remainingMs: deadline - Date.now(),
          },
          policy,
        );
        if (decision.retry) {
          await response.discard();
          history.statuses.push(response.status);
          await sleep(decision.waitMs, signal);
          history.retriesMade++;
          continue;
        }
        note = decision.reason;
      }
      phase = 'read';
      const reading = {
        maxBytes: opts.maxBytes,
        requestLabel: opts.label,
        ...(note === undefined ? {} : { errorNote: note }),
        ...(opts.redaction ? { redaction: opts.redaction() } : {}),
      };
      return await (opts.page ? pageResult(response, opts.page, reading) : responseToResult(response, reading));
    }
  } catch (error) {
    // Cancellation by the client is not an upstream problem: let it propagate.
    if (opts.signal?.aborted) throw error;
    if (timedOut()) {
      const waitingFor = phase === 'token' ? ' while getting a fresh access token after HTTP 401' : '';
      return errorResult(
        withHistory(`Request to ${opts.label} timed out after ${opts.timeoutMs} ms${waitingFor}`, history),
      );
    }
    return errorResult(withHistory(describeFailure(error, phase, originOf(req.url), opts.label), history));
  } finally {
    release();
  }
}

/**
 * One signal for the whole exchange: aborted by the client's cancellation or by the time budget. Built by
 * hand and released when the call ends, rather than with AbortSignal.timeout/any: those leave a timer and
 * listeners alive for the full budget after every call.
 */
function callSignal(
  clientSignal: AbortSignal | undefined,
  timeoutMs: number,
): { signal: AbortSignal; timedOut: () => boolean; release: () => void } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort(new DOMException(`The operation timed out after ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const onClientAbort = () => controller.abort(clientSignal!.reason);
  if (clientSignal?.aborted) onClientAbort();
  else clientSignal?.addEventListener('abort', onClientAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    release: () => {
      clearTimeout(timer);
      clientSignal?.removeEventListener('abort', onClientAbort);
    },
  };
}

function retryPolicyOf(opts: UpstreamOptions): RetryPolicy {
  return {
    maxRetries: opts.maxRetries ?? DEFAULT_MAX_RETRIES,
    maxWaitMs: opts.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
    baseDelayMs: opts.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS,
  };
}

/** What earlier attempts got, so a failure after retries says so. */
interface AttemptHistory {
  retriesMade: number;
  statuses: number[];
  /** A 401 was answered by sending the request again with fresh credentials. */
  reauthorized: boolean;
}

/**
 * `after 2 retries; earlier attempts got HTTP 503, 503`, `sent again with a fresh access token after HTTP 401`,
 * or undefined when the request went out once.
 */
function historyNote(history: AttemptHistory): string | undefined {
  const notes: string[] = [];
  if (history.reauthorized) notes.push('sent again with a fresh access token after HTTP 401');
  if (history.retriesMade > 0) {
    const retries = history.retriesMade === 1 ? '1 retry' : `${history.retriesMade} retries`;
    const earlier = history.statuses.length === 1 ? 'the earlier attempt' : 'earlier attempts';
    notes.push(`after ${retries}; ${earlier} got HTTP ${history.statuses.join(', ')}`);
  }
  return notes.length === 0 ? undefined : notes.join('; ');
}

function withHistory(message: string, history: AttemptHistory): string {
  const note = historyNote(history);
  return note === undefined ? message : `${message} (${note})`;
}

/** What the exchange was doing: sending (and waiting for the status), asking for new credentials, reading the body. */
type Phase = 'send' | 'token' | 'read';

type SendOutcome = { kind: 'response'; response: UpstreamResponse } | { kind: 'refused'; message: string };

/**
 * Redirects are followed by hand, and only within the request's origin: following one anywhere (as fetch
 * would) takes the credential headers along.
 */
async function sendFollowingSameOrigin(
  send: SendRequest,
  req: BuiltRequest,
  signal: AbortSignal,
): Promise<SendOutcome> {
  let url = req.url;
  let method = req.method;
  let body = req.body;
  let headers = req.headers;
  for (let followed = 0; ; followed++) {
    const response = await send({ method, url, headers, body, signal });
    const location = REDIRECT_STATUSES.has(response.status) ? response.header('location') : null;
    if (location === null) return { kind: 'response', response };
    await response.discard();

    // Worked out only here: most calls are never redirected.
    const origin = originOf(req.url);
    const target = resolveLocation(location, url);
    if (target === undefined) {
      return { kind: 'refused', message: `Upstream sent an invalid redirect location "${location}" for ${url}` };
    }
    if (target.origin !== origin) {
      return {
        kind: 'refused',
        message: `Refused to follow a redirect from ${origin} to a different origin: ${target.origin}`,
      };
    }
    if (followed >= MAX_REDIRECTS) {
      return { kind: 'refused', message: `Too many redirects (more than ${MAX_REDIRECTS}) for ${url}` };
    }
    if (switchesToGet(response.status, method)) {
      // As fetch does: 303 (and 301/302 after POST) repeat the request as a GET without a body.
      method = 'GET';
      body = undefined;
      headers = withoutHeader(headers, 'content-type');
    }
    url = target.href;
  }
}

function switchesToGet(status: number, method: string): boolean {
  return (
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST')
  );
}

function resolveLocation(location: string, currentUrl: string): URL | undefined {
  try {
    return new URL(location, currentUrl);
  } catch {
    return undefined;
  }
}

function withoutHeader(headers: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([key]) => key.toLowerCase() !== name));
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

// ---------------------------------------------------------------------------------------------------
// Error messages
// ---------------------------------------------------------------------------------------------------

/**
 * node:http reports network failures with the system error code (ECONNREFUSED, ENOTFOUND, ECONNRESET, …);
 * fetch, as `TypeError: fetch failed` with that error somewhere in its `cause` chain. undici's own socket
 * errors carry codes like UND_ERR_SOCKET that mean little to a reader, so for those the innermost message
 * ("other side closed") is shown instead. Node's ERR_* codes describe a request it refused to send.
 */
function describeFailure(error: unknown, phase: Phase, origin: string, label: string): string {
  if (error instanceof BodyDecodingError)
    return `The response to ${label} from ${origin} could not be read: ${error.message}`;
  const tls = tlsFailure(error);
  if (tls !== undefined) return `TLS with ${origin} failed for ${label}: ${tls}`;
  const code = systemErrorCode(error);
  const reason = code ?? innermostMessage(error);
  if (phase === 'read') return `Connection to ${origin} failed while reading the response to ${label}: ${reason}`;
  if (code !== undefined || isFetchFailure(error)) return `Could not reach ${origin}: ${reason}`;
  return `Could not send the request to ${label}: ${reason}`;
}

/** The first system error code (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, …) in the cause chain. */
function systemErrorCode(error: unknown): string | undefined {
  for (const candidate of causeChain(error)) {
    const code = candidate.code;
    if (typeof code === 'string' && /^E[A-Z0-9_]+$/.test(code) && !code.startsWith('ERR_')) return code;
  }
  return undefined;
}

function isFetchFailure(error: unknown): boolean {
  return error instanceof TypeError && error.message === 'fetch failed';
}

function innermostMessage(error: unknown): string {
  const chain = causeChain(error);
  for (let index = chain.length - 1; index >= 0; index--) {
    const message = chain[index]?.message;
    if (typeof message === 'string' && message !== '') return message;
  }
  return String(error);
}

/** The error, its causes, and the first member of any AggregateError (happy-eyeballs connects). */
function causeChain(error: unknown): Array<Record<string, unknown>> {
  const chain: Array<Record<string, unknown>> = [];
  let current: unknown = error;
  while (
    typeof current === 'object' &&
    current !== null &&
    chain.length < 8 &&
    !chain.includes(current as Record<string, unknown>)
  ) {
    const record = current as Record<string, unknown>;
    chain.push(record);
    const errors = record.errors;
    current = record.cause ?? (Array.isArray(errors) ? errors[0] : undefined);
  }
  return chain;
}
