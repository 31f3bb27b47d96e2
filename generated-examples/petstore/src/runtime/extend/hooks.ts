/**
 * Hooks: the project's own code around each upstream call. The generated `src/index.ts` loads the user's
 * `src/hooks.ts` (created once by openapi-to-mcp, never overwritten) and passes its exports here; every export
 * is optional:
 * - `beforeRequest(ctx)` runs after the request is built (credentials applied) and before it is sent. Return a
 *   changed request, a ToolResult to answer without calling the API, or nothing to send it unchanged.
 * - `afterResponse(ctx)` runs on the result the client is about to receive. Return a changed result, or nothing.
 * - `tools: { [toolName]: { beforeRequest?, afterResponse? } }`: the same, for one tool.
 * Order: the all-tools `beforeRequest`, then the tool's; the tool's `afterResponse`, then the all-tools one.
 * A hook that throws becomes a tool error naming the hook; the request is not sent when `beforeRequest` throws.
 */
import type { BuiltRequest } from '../upstream/request.js';
import { errorResult, type ToolResult } from '../upstream/response.js';

export interface BeforeRequestContext {
  /** The tool being called. */
  tool: string;
  /** Its arguments, already validated against the tool's inputSchema. */
  args: Readonly<Record<string, unknown>>;
  /** The HTTP request about to be sent (header names lowercase). */
  request: BuiltRequest;
}

export interface AfterResponseContext extends BeforeRequestContext {
  /** The result the client will receive (HTTP errors are results with `isError: true`). */
  result: ToolResult;
}

type MaybePromise<T> = T | Promise<T>;

export type BeforeRequest = (ctx: BeforeRequestContext) => MaybePromise<BuiltRequest | ToolResult | undefined | void>;
export type AfterResponse = (ctx: AfterResponseContext) => MaybePromise<ToolResult | undefined | void>;

export interface ToolHooks {
  beforeRequest?: BeforeRequest;
  afterResponse?: AfterResponse;
}

/** Per-tool hooks, keyed by tool name (`ToolName` from src/tools.ts makes a renamed tool a compile error). */
export type ToolHooksByName<Name extends string = string> = { readonly [K in Name]?: ToolHooks };

export interface Hooks<Name extends string = string> extends ToolHooks {
  tools?: ToolHooksByName<Name>;
}

export type BeforeRequestOutcome = { request: BuiltRequest } | { result: ToolResult };

export async function runBeforeRequest(hooks: Hooks, ctx: BeforeRequestContext): Promise<BeforeRequestOutcome> {
  let request = ctx.request;
  for (const [label, hook] of chain(hooks, ctx.tool, 'beforeRequest')) {
    let out: BuiltRequest | ToolResult | undefined | void;
    try {
      out = await hook({ ...ctx, request });
    } catch (error) {
      return { result: errorResult(`The ${label} hook failed for ${ctx.tool}: ${messageOf(error)}`) };
    }
    if (out === undefined) continue;
    if (isToolResult(out)) return { result: out };
    request = out;
  }
  return { request };
}

export async function runAfterResponse(hooks: Hooks, ctx: AfterResponseContext): Promise<ToolResult> {
  let result = ctx.result;
  for (const [label, hook] of chain(hooks, ctx.tool, 'afterResponse').reverse()) {
    try {
      result = (await hook({ ...ctx, result })) ?? result;
    } catch (error) {
      return errorResult(`The ${label} hook failed for ${ctx.tool}: ${messageOf(error)}`);
    }
  }
  return result;
}

/** [all-tools hook, this tool's hook], whichever exist, with a label for error messages. */
function chain<K extends keyof ToolHooks>(
  hooks: Hooks,
  tool: string,
  kind: K,
): Array<[string, NonNullable<ToolHooks[K]>]> {
  const own = hooks.tools && Object.hasOwn(hooks.tools, tool) ? hooks.tools[tool] : undefined;
  const list: Array<[string, NonNullable<ToolHooks[K]>]> = [];
  if (typeof hooks[kind] === 'function') list.push([kind, hooks[kind] as NonNullable<ToolHooks[K]>]);
  if (own && typeof own[kind] === 'function')
    list.push([`tools.${tool}.${kind}`, own[kind] as NonNullable<ToolHooks[K]>]);
  return list;
}

function isToolResult(value: BuiltRequest | ToolResult): value is ToolResult {
  return Array.isArray((value as ToolResult).content);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
