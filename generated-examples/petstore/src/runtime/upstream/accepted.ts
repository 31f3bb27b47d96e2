/**
 * Long-running operations: an API that answers `202 Accepted` with a status link (`Operation-Location`, as
 * Azure and others name it, else `Location`) is polled with GET until it answers something else, waiting
 * what its `Retry-After` asks (1 s without one, at least 250 ms, at most 10 s), all within the call's time
 * budget. When the budget would run out first, the call answers with the 202's body and how to poll: the status
 * URL and, when an operation of the API reads it, that tool and its arguments (call-tool.ts adds them).
 */
import type { CatalogTool } from '../contract/catalog.js';
import type { UpstreamResponse } from './http-client.js';
import { parseRetryAfter } from './retry.js';

const DEFAULT_POLL_MS = 1_000;
const MAX_POLL_MS = 10_000;
/**
 * The least wait between polls, whatever Retry-After says: `0` (or a past date) would have the server send status
 * requests back to back for the whole budget, thousands of them with the owner's credentials for one tool call.
 */
const MIN_POLL_MS = 250;

/** The status URL of a 202, resolved and on the request's own origin (credentials go along); else undefined. */
export function statusLink(response: UpstreamResponse, requestUrl: string): string | undefined {
  const link = response.header('operation-location') ?? response.header('location');
  if (link === null) return undefined;
  try {
    const url = new URL(link, requestUrl);
    return url.origin === new URL(requestUrl).origin ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function pollWaitMs(response: UpstreamResponse): number {
  const asked = parseRetryAfter(response.header('retry-after')) ?? DEFAULT_POLL_MS;
  return Math.min(Math.max(asked, MIN_POLL_MS), MAX_POLL_MS);
}

/**
 * Whether one more poll fits: its wait, and time left for the status request itself (a quarter of the
 * budget, at most a second).
 */
export function pollFits(waitMs: number, deadline: number, timeoutMs: number, now = Date.now()): boolean {
  return now + waitMs + Math.min(1_000, timeoutMs / 4) < deadline;
}

/** What the result says when the operation outlived the call. */
export function stillRunningNote(label: string, url: string, waitMs: number, polls: number, elapsedMs: number): string {
  const polled = polls === 0 ? '' : `, polled ${polls} time${polls === 1 ? '' : 's'}`;
  return `HTTP 202 Accepted from ${label}: the API is still working on it after ${elapsedMs} ms${polled}. Poll GET ${url} for the outcome (the API asks to wait ${Math.round(waitMs / 1000)} s between polls).`;
}

/**
 * The API's own GET operation that reads a status URL, and its arguments: one whose path template matches the
 * URL's path below the base URL and whose required arguments are all path parameters.
 */
export function statusOperation(
  tools: Iterable<CatalogTool>,
  baseUrl: string,
  url: string,
): { tool: string; args: Record<string, string> } | undefined {
  const base = new URL(baseUrl).pathname.replace(/\/$/, '');
  const path = new URL(url).pathname;
  if (!path.startsWith(base)) return undefined;
  const relative = path.slice(base.length);
  for (const tool of tools) {
    if (tool.request.method.toUpperCase() !== 'GET') continue;
    const names: string[] = [];
    const pattern = tool.request.path
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      })
      .join('');
    const match = new RegExp(`^${pattern}$`).exec(relative);
    if (!match) continue;
    const args: Record<string, string> = {};
    names.forEach((name, i) => {
      const plan = tool.request.params.find((p) => p.in === 'path' && p.name === name);
      if (plan) args[plan.arg] = decodedSegment(match[i + 1]!);
    });
    const required = (tool.inputSchema['required'] ?? []) as string[];
    if (required.every((arg) => arg in args)) return { tool: tool.name, args };
  }
  return undefined;
}

/** A path segment of the API's status URL, decoded; as it is when it is not valid percent-encoding (URIError). */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
