/**
 * When and how long to wait before repeating an upstream request. Pure functions plus one abortable
 * sleep, so the policy can be tested without a network.
 */

/** Statuses that say "not now" rather than "no": overload, rate limits, a gateway that lost its backend. */
const RETRYABLE_STATUSES = new Set([429, 502, 503, 504]);

/**
 * Methods that may be repeated without changing the outcome (RFC 9110 §9.2.2). A POST or PATCH that got
 * a 503 may still have done its work before the upstream gave up, so repeating it could do it twice.
 */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

/**
 * `Retry-After` as a delay in milliseconds: either delta-seconds (`120`) or an HTTP-date. A date in the
 * past means "now" (0). Anything unparseable is ignored (undefined), so the caller falls back to backoff.
 */
export function parseRetryAfter(header: string | null, now: number = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Date.parse also accepts odd things like "1"; only a real HTTP-date has a weekday comma or a GMT zone.
  if (!/[a-z]/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Exponential backoff with "equal jitter": half of the step is fixed, half random, so concurrent callers
 * that failed together do not all come back at the same instant. `retry` counts from 0.
 */
export function backoffDelay(retry: number, baseMs: number, random: () => number = Math.random): number {
  const step = baseMs * 2 ** retry;
  return Math.round(step / 2 + random() * (step / 2));
}

export type RetryDecision = { retry: true; waitMs: number } | { retry: false; reason: string };

export interface RetryPolicy {
  maxRetries: number;
  /** Longest single wait; a Retry-After asking for more ends the retries. */
  maxWaitMs: number;
  baseDelayMs: number;
}

export interface FailedAttempt {
  method: string;
  status: number;
  retryAfter: string | null;
  /** Retries already made before this attempt failed. */
  retriesMade: number;
  /** Time left in the call's overall budget. */
  remainingMs: number;
}

/**
 * Whether to try again after a retryable status, and after how long. The reasons name why not, so the
 * final error can tell the model what happened (and what the upstream asked for).
 */
export function decideRetry(attempt: FailedAttempt, policy: RetryPolicy, random?: () => number): RetryDecision {
  if (!isIdempotentMethod(attempt.method)) {
    return { retry: false, reason: `not retried: ${attempt.method.toUpperCase()} is not idempotent` };
  }
  if (policy.maxRetries === 0) return { retry: false, reason: 'retries are turned off (API_MAX_RETRIES=0)' };
  if (attempt.retriesMade >= policy.maxRetries) return { retry: false, reason: stoppedAfter(attempt.retriesMade) };
  const asked = parseRetryAfter(attempt.retryAfter);
  if (asked !== undefined && asked > policy.maxWaitMs) {
    return {
      retry: false,
      reason: `${stoppedAfter(attempt.retriesMade)}: the upstream asked to retry after ${formatSeconds(asked)}, longer than the ${formatSeconds(policy.maxWaitMs)} this server waits`,
    };
  }
  const waitMs = Math.min(asked ?? backoffDelay(attempt.retriesMade, policy.baseDelayMs, random), policy.maxWaitMs);
  if (waitMs >= attempt.remainingMs) {
    return {
      retry: false,
      reason: `${stoppedAfter(attempt.retriesMade)}: waiting ${formatSeconds(waitMs)} for another attempt would exceed the time limit`,
    };
  }
  return { retry: true, waitMs };
}

/** `not retried`, `gave up after 1 retry`, `gave up after 2 retries`. */
function stoppedAfter(retriesMade: number): string {
  if (retriesMade === 0) return 'not retried';
  return retriesMade === 1 ? 'gave up after 1 retry' : `gave up after ${retriesMade} retries`;
}

function formatSeconds(ms: number): string {
  const seconds = ms / 1000;
  return `${Number.isInteger(seconds) ? seconds : seconds.toFixed(1)} s`;
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts (client cancel, timeout). */
/**
 * The promise's outcome, or a rejection with the signal's reason as soon as it aborts (the work itself goes on:
 * a token being fetched is still cached for the next call).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
