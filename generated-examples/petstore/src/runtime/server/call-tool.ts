/** One tools/call: validate, resolve base URL and credentials, build the request, call upstream. */
import { ArgumentShield } from '../redaction/argument-shield.js';
import type { AppliedCredentials } from '../upstream-auth/schemes.js';
import type { CatalogHeader, CatalogTool } from '../contract/catalog.js';
import type { RuntimeConfig } from './config.js';
import { runAfterResponse, runBeforeRequest, type Hooks } from '../extend/hooks.js';
import { DEFAULT_USER_AGENT } from '../upstream/http-client.js';
import type { Logger } from './log.js';
import { argumentsTooDeep } from '../contract/message-limits.js';
import { buildRequest, RequestBuildError, type BuiltRequest } from '../upstream/request.js';
import { errorResult, type ToolResult } from '../upstream/response.js';
import type { ResponseLinker } from '../primitives/response-links.js';
import { statusOperation } from '../upstream/accepted.js';
import { callRedaction, redactCallResult, secretForms, serverRedactionForms } from '../redaction/redact.js';
import { callUpstream } from '../upstream/upstream.js';
import {
  credentialsForCall,
  upstreamAuthOf,
  type CallContext,
  type UpstreamAuth,
} from '../upstream-auth/call-credentials.js';
import type { ToolRegistry } from './tool-registry.js';

export interface CallDeps {
  registry: ToolRegistry;
  config: RuntimeConfig;
  env: NodeJS.ProcessEnv;
  log: Logger;
  fetch?: typeof fetch;
  /** The project's src/hooks.ts exports (see hooks.ts). */
  hooks?: Hooks;
  /** Caller-credentials mapping and token cache (built on first use when absent). */
  upstreamAuth?: UpstreamAuth;
  /** Links to the whole body of large and binary GET responses (absent: such bodies are only truncated). */
  links?: ResponseLinker;
}

/**
 * `requestHeaders`: the incoming MCP request's headers over HTTP, for per-caller credentials. Whatever the
 * call returns is redacted: no credential it sent, and none the server is configured with, reaches the model,
 * whole or in part (the body is redacted before it is cut, response.ts), and the server's own secrets in the
 * arguments are sent as stand-ins (argument-shield.ts), so no result tells a right guess of one from a wrong one.
 */
export async function callTool(
  deps: CallDeps,
  tool: CatalogTool,
  args: Record<string, unknown>,
  signal?: AbortSignal,
  requestHeaders?: Headers,
  page?: { index: number; size: number },
): Promise<ToolResult> {
  const sent: string[] = [];
  const shield = new ArgumentShield();
  let result: ToolResult;
  try {
    result = await callToolUnredacted(deps, tool, args, shield, signal, requestHeaders, sent, page);
  } catch (error) {
    throw shield.restoreError(error);
  }
  return shield.restore(redactCallResult(result, sent, deps.registry.catalog, deps.env));
}

/**
 * `args` as the caller gave them: validated and linked as such (a link holds what the caller sent); the request
 * and the hooks get them covered by `shield`. `page`: replaying the call for one page of its body (a response
 * link's read, response-links.ts).
 */
async function callToolUnredacted(
  deps: CallDeps,
  tool: CatalogTool,
  args: Record<string, unknown>,
  shield: ArgumentShield,
  signal: AbortSignal | undefined,
  requestHeaders: Headers | undefined,
  sent: string[],
  page: { index: number; size: number } | undefined,
): Promise<ToolResult> {
  // Calls that come from no tools/call (a program's api.* calls) are checked for depth here, before anything
  // recurses into the arguments (the shield below walks them).
  const tooDeep = argumentsTooDeep(args);
  if (tooDeep) return errorResult(`Invalid arguments for tool ${tool.name}: ${tooDeep}`);
  const serverForms = serverRedactionForms(deps.registry.catalog, deps.env);
  const covered = shield.cover(args, serverForms);
  // Validation depends only on the arguments and the published schema, so it tells nothing of a secret; its
  // message quotes what the caller sent, which the result's redaction must not single out.
  await deps.registry.loadValidator();
  const invalid = deps.registry.validate(tool, args);
  if (invalid) return errorResult(shield.hide(`Invalid arguments for tool ${tool.name}: ${invalid}`));
  const baseUrl = baseUrlFor(tool, deps.registry.catalog, deps.config);
  if (!baseUrl) {
    return errorResult(
      `No upstream base URL is configured for ${tool.name}: set the API_BASE_URL environment variable. ${deps.registry.catalog.baseUrlNote ?? ''}`.trim(),
    );
  }
  const catalog = deps.registry.catalog;
  const auth = upstreamAuthOf(deps, deps.upstreamAuth, () => ({
    catalog,
    env: deps.env,
    timeoutMs: deps.config.timeoutMs,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.config.upstreamTls ? { tls: deps.config.upstreamTls } : {}),
  }));
  const context = { catalog, env: deps.env, baseUrl, log: deps.log, ...(requestHeaders ? { requestHeaders } : {}) };
  const credentials = await credentialsForCall(auth, tool, context);
  if (!credentials.ok) return errorResult(credentials.message);
  sent.push(...credentials.applied.secrets);
  const forms = shieldForms(serverForms, credentials.applied);
  const sendArgs = shield.cover(covered, forms);
  let request: BuiltRequest;
  try {
    // Covered once more as built: values the request puts side by side (`/files/{dir}{name}`) can form a secret.
    const built = shield.coverRequest(buildRequest(tool.request, sendArgs, baseUrl), forms);
    request = withCredentials(built, credentials.applied);
  } catch (error) {
    if (error instanceof RequestBuildError)
      return errorResult(`Cannot build the request for ${tool.name}: ${error.message}`);
    throw error;
  }
  if (deps.hooks) {
    const before = await runBeforeRequest(deps.hooks, { tool: tool.name, args: sendArgs, request });
    if ('result' in before) return before.result;
    request = before.request;
  }
  const label = `${request.method} ${tool.request.path}`;
  const started = Date.now();
  const result = await callUpstream(request, {
    timeoutMs: deps.config.timeoutMs,
    maxBytes: deps.config.maxResponseBytes,
    maxRetries: deps.config.maxRetries,
    label,
    ...(credentials.applied.tokens.length > 0
      ? { onUnauthorized: () => freshTokenHeaders(auth, tool, context, credentials.applied, sent) }
      : {}),
    userAgent: userAgentOf(catalog),
    redaction: () => callRedaction(sent, catalog, deps.env),
    ...(page ? { page } : {}),
    ...(signal ? { signal } : {}),
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
    ...(deps.config.upstreamTls ? { tls: deps.config.upstreamTls } : {}),
  });
  deps.log.debug('upstream call', {
    tool: tool.name,
    request: label,
    ms: Date.now() - started,
    isError: result.isError === true,
  });
  const final = page
    ? result
    : withStructuredContent(tool, withPollHint(deps, baseUrl, linkedOrCut(deps, tool, args, result)));
  return deps.hooks ? runAfterResponse(deps.hooks, { tool: tool.name, args: sendArgs, request, result: final }) : final;
}

/** The secrets arguments are covered of: the server's, and the access tokens it obtained itself for this call. */
function shieldForms(serverForms: readonly string[], applied: AppliedCredentials): readonly string[] {
  if (applied.tokens.length === 0) return serverForms;
  const tokenForms = secretForms(applied.tokens.map(({ token }) => token)).filter((form) => form.length >= 4);
  return [...new Set([...serverForms, ...tokenForms])].sort((a, b) => b.length - a.length);
}

/**
 * After a 401 to a request that carried client-credentials tokens: those tokens are forgotten (revoked, or
 * rotated before their stated expiry) and the credentials resolved again, which gets new ones. The headers
 * to send instead, or undefined when no new credentials could be had (the 401 then stands).
 */
async function freshTokenHeaders(
  auth: UpstreamAuth,
  tool: CatalogTool,
  context: CallContext,
  refused: AppliedCredentials,
  sent: string[],
): Promise<Record<string, string> | undefined> {
  for (const { request, token } of refused.tokens) auth.tokens.invalidate(request, token);
  const again = await credentialsForCall(auth, tool, context);
  if (!again.ok) return undefined;
  sent.push(...again.applied.secrets);
  return again.applied.headers;
}

/** A 202 that outlived the call names the API's own operation that reads its status, when there is one. */
function withPollHint(deps: CallDeps, baseUrl: string, result: ToolResult): ToolResult {
  const { pending, ...rest } = result;
  if (!pending) return rest;
  const registry = deps.registry;
  const tools = {
    *[Symbol.iterator]() {
      for (let i = 0; i < registry.size; i++) yield registry.at(i);
    },
  };
  const reader = statusOperation(tools, baseUrl, pending.url);
  const [first, ...others] = rest.content;
  if (!reader || first?.type !== 'text') return rest;
  const hint = `${first.text} Or call ${reader.tool} with ${JSON.stringify(reader.args)}.`;
  return { ...rest, content: [{ type: 'text', text: hint }, ...others] };
}

/** What was cut from the body becomes a link to all of it when it can (response-links.ts); the marker never leaves. */
function linkedOrCut(deps: CallDeps, tool: CatalogTool, args: Record<string, unknown>, result: ToolResult): ToolResult {
  if (deps.links) return deps.links.linked(tool, args, result);
  const { cut: _cut, ...rest } = result;
  return rest;
}

/**
 * A tool that declares an output schema must return structured content with every successful result (clients
 * reject the result otherwise). JSON objects already carry it; other roots, and bodies that are not JSON, come
 * as `{ result: <value> }`, which the lenient outline always accepts.
 */
export function withStructuredContent(tool: CatalogTool, result: ToolResult): ToolResult {
  if (!tool.outputSchema || result.isError) return result;
  if (result.structuredContent !== undefined && !tool.wrapOutput) return result;
  const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
  return { ...result, structuredContent: { result: parseJsonOr(text) } };
}

function parseJsonOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** `<server name>/<version> openapi-to-mcp`: some APIs (GitHub's among them) refuse requests without one. */
function userAgentOf(catalog: CatalogHeader): string {
  return (userAgents.get(catalog) ??
    userAgents.set(catalog, `${catalog.server.name}/${catalog.server.version} ${DEFAULT_USER_AGENT}`).get(catalog))!;
}

const userAgents = new WeakMap<CatalogHeader, string>();

/** API_BASE_URL wins; then the operation's own server; then the spec's default server. */
export function baseUrlFor(tool: CatalogTool, catalog: CatalogHeader, config: RuntimeConfig): string | undefined {
  if (config.baseUrl) return config.baseUrl;
  const own = tool.request.server;
  if (own && /^https?:\/\//i.test(own)) return own;
  if (own && catalog.baseUrl) return new URL(own, catalog.baseUrl).toString();
  return catalog.baseUrl;
}

function withCredentials(request: BuiltRequest, credentials: AppliedCredentials): BuiltRequest {
  if (
    credentials.query.length === 0 &&
    credentials.cookies.length === 0 &&
    Object.keys(credentials.headers).length === 0
  )
    return request;
  // Appended as text: going through URLSearchParams would re-encode the operation's own query string
  // (spaces as `+`, reserved characters escaped), undoing its serialization style.
  const query = credentials.query
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const url = query ? `${request.url}${request.url.includes('?') ? '&' : '?'}${query}` : request.url;
  const headers = { ...request.headers, ...credentials.headers };
  if (credentials.cookies.length > 0) {
    const added = credentials.cookies.map(([n, v]) => `${n}=${encodeURIComponent(v)}`).join('; ');
    headers['cookie'] = headers['cookie'] ? `${headers['cookie']}; ${added}` : added;
  }
  return { ...request, url, headers };
}
