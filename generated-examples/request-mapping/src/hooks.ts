/**
 * Your hooks: code that runs around every call to the API. This file is yours: openapi-to-mcp created it once
 * and never overwrites it when it regenerates the project. Every export is optional.
 *
 *   beforeRequest(ctx)  runs before each request: return a changed request, a ToolResult to answer without
 *                       calling the API, or nothing to send the request as it is.
 *   afterResponse(ctx)  runs on each result: return a changed result, or nothing to keep it.
 *   tools               the same per tool: { getSomething: { beforeRequest, afterResponse } }. Keys are checked
 *                       against the tool names in src/tools.ts, so a tool renamed by a regeneration is a
 *                       compile error here rather than a hook that silently stops running.
 *
 * For example (the types are imported below):
 *
 *   export const beforeRequest: BeforeRequest = ({ request }) => ({
 *     ...request,
 *     headers: { ...request.headers, 'x-request-source': 'mcp' },
 *   });
 */
import type { AfterResponse, BeforeRequest, ToolHooksByName } from './runtime/extend/hooks.js';
import type { ToolName } from './tools.js';

export const tools: ToolHooksByName<ToolName> = {};
