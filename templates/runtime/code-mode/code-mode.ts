/**
 * Code mode's two tools. `search` finds operations with the same retrieval as search_operations and
 * answers with their TypeScript declarations (written at generation into code-declarations.json).
 * `execute` runs the model's program in the sandbox; each `api.*` call is checked by the write policy
 * (code-policy.ts) and the confirmation policy (code-confirm.ts), then goes through `callOperation`, the
 * path of every tool call: validation, request mapping, credentials, retries, truncation and redaction.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../contract/catalog.js';
import { CODE_EXECUTE_TOOL, CODE_SEARCH_TOOL, type DeclarationsFile } from '../contract/code-definitions.js';
import type { ProgramConfirmation } from './code-confirm.js';
import { MAX_COMPUTE_MS, type CodeSettings } from '../contract/code-limits.js';
import { decideApiCall } from '../contract/code-policy.js';
import { charsWithinBytes, cutEnd, NO_SECRETS } from '../redaction/cut.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from '../contract/meta-definitions.js';
import { searchOperations } from '../search/meta-tools.js';
import { errorResult, errorStatus, type ToolResult } from '../upstream/response.js';
import { runProgram, takeProgramSlot } from './program-runner.js';
import type { ApiAnswer, SandboxError, SandboxOutcome } from './sandbox.js';
import type { QuickJsWasm } from './quickjs-wasm.js';

import type { OperationSearch } from '../search/search.js';
import type { ToolRegistry } from '../server/tool-registry.js';

export interface CodeToolContext {
  registry: ToolRegistry;
  search: () => Promise<OperationSearch>;
  declarations: () => Promise<DeclarationsFile>;
  settings: CodeSettings;
  /** Runs one operation exactly as a direct tool call would (already redacted). */
  callOperation: (tool: CatalogTool, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;
  /** The client's cancellation of the execute call. */
  signal?: AbortSignal;
  /** The sandbox's compiled WebAssembly, on a runtime that cannot load it itself (quickjs-wasm.ts). */
  wasm?: QuickJsWasm;
  /** The user's confirmation of the program's calls, for one run of `program` (absent: nothing is asked). */
  confirmation?: (program: string) => ProgramConfirmation;
}

export async function handleCodeTool(
  name: string,
  args: Record<string, unknown>,
  ctx: CodeToolContext,
): Promise<ToolResult | InputRequiredResult> {
  if (name === CODE_SEARCH_TOOL) return searchDeclarations(ctx, args);
  if (name === CODE_EXECUTE_TOOL) return execute(ctx, String(args['code'] ?? ''));
  return errorResult(`There is no code-mode tool ${name}.`);
}

async function searchDeclarations(ctx: CodeToolContext, args: Record<string, unknown>): Promise<ToolResult> {
  const search = await ctx.search();
  const query = typeof args['query'] === 'string' ? args['query'].trim() : '';
  const groupName = typeof args['group'] === 'string' ? args['group'] : undefined;
  const limit =
    typeof args['limit'] === 'number' ? Math.min(Math.max(1, Math.trunc(args['limit'])), MAX_LIMIT) : DEFAULT_LIMIT;
  // Browsing (no query) lists groups and names, as search_operations does; a query answers with declarations.
  if (!query) return searchOperations(search, { query, group: groupName, limit });
  const group = groupName === undefined ? undefined : search.group(groupName);
  if (groupName !== undefined && !group) return searchOperations(search, { query: '', group: groupName, limit });
  const hits = search.search(query, limit, group);
  if (hits.length === 0) return searchOperations(search, { query, group: groupName, limit });
  const { declarations } = await ctx.declarations();
  const names = hits.map(({ doc }) => search.operation(doc).name);
  const members = names.map((n) => declarations[n] ?? fallbackDeclaration(ctx.registry.get(n), n));
  const text = [
    `// ${names.length} operations, best match first. In ${CODE_EXECUTE_TOOL}: const r = await api.${names[0]}({ … });`,
    'interface Api {',
    ...members,
    '}',
  ].join('\n');
  return { content: [{ type: 'text', text }] };
}

/** For a catalog without declarations (one made by hand): the name and summary, arguments untyped. */
function fallbackDeclaration(tool: CatalogTool | undefined, name: string): string {
  const summary = tool ? `${tool.request.method} ${tool.request.path}: ${tool.description.split('\n')[0]}` : '';
  return `  /** ${summary.replace(/\*\//g, '*\\/')} */\n  ${JSON.stringify(name)}(args: Record<string, unknown>): Promise<unknown>;`;
}

async function execute(ctx: CodeToolContext, program: string): Promise<ToolResult | InputRequiredResult> {
  const { settings } = ctx;
  // Measured before anything reads the program: nothing parses or strips a program over the limit.
  const bytes = Buffer.byteLength(program);
  if (bytes > settings.maxProgramBytes)
    return errorResult(
      `The program is ${bytes} bytes, over this server's limit of ${settings.maxProgramBytes} (MCP_CODE_MAX_PROGRAM_BYTES): write a shorter program, and fetch data with api.* calls instead of writing it in.`,
    );
  const slot = takeProgramSlot(settings.maxPrograms);
  if (!slot)
    return errorResult(
      `The server is running ${settings.maxPrograms} programs already (MCP_CODE_MAX_PROGRAMS): try again in a moment.`,
    );
  const run: ProgramRun = { confirmation: ctx.confirmation?.(program), stop: new AbortController() };
  const cancelled = () => run.stop.abort();
  ctx.signal?.addEventListener('abort', cancelled);
  if (ctx.signal?.aborted) cancelled();
  const outcome = await runProgram({
    program,
    limits: {
      timeoutMs: settings.timeoutMs,
      maxComputeMs: Math.min(settings.timeoutMs, MAX_COMPUTE_MS),
      memoryBytes: settings.memoryMb * 1024 * 1024,
      maxCalls: settings.maxCalls,
      maxResultBytes: settings.maxResultBytes,
    },
    now: Date.now(),
    call: (name, args, signal, sending) => apiCall(ctx, run, { name, args, signal, sending }),
    signal: run.stop.signal,
    ...(ctx.wasm ? { wasm: ctx.wasm } : {}),
  }).finally(() => {
    slot.release();
    ctx.signal?.removeEventListener('abort', cancelled);
  });
  // Stopped for a confirmation: the answer is the question (or why the re-run could not go on).
  if (run.confirmation && run.stopped) return run.confirmation.result();
  return programResult(outcome, settings.maxResultBytes);
}

/** One execute's run: its confirmation, and the stop a confirmation uses to end the program early. */
interface ProgramRun {
  confirmation: ProgramConfirmation | undefined;
  stop: AbortController;
  stopped?: true;
}

/** One `api.<name>(args)` as the sandbox hands it over; `sending()` says it goes upstream (compute-clock.ts). */
interface ProgramCall {
  name: string;
  args: unknown;
  signal: AbortSignal;
  sending: () => void;
}

/** One `api.<name>(args)`: the policies decide, then the operation runs as a tool call would. */
async function apiCall(
  ctx: CodeToolContext,
  run: ProgramRun,
  { name, args, signal, sending }: ProgramCall,
): Promise<ApiAnswer> {
  const tool = ctx.registry.get(name);
  if (!tool)
    return { ok: false, message: `There is no operation api.${name}: find operation names with ${CODE_SEARCH_TOOL}.` };
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { ok: false, message: `api.${name} takes one object of arguments.` };
  const decision = decideApiCall(tool, ctx.settings.allow);
  if (!decision.allowed) return { ok: false, message: decision.reason };
  if (!run.confirmation) {
    sending();
    return send(ctx, tool, args as Record<string, unknown>, signal);
  }
  const step = run.confirmation.step(tool, args as Record<string, unknown>);
  if (step.kind === 'answer') return step.answer;
  if (step.kind === 'send') {
    sending();
    const answer = await send(ctx, tool, args as Record<string, unknown>, signal).catch(
      (error: unknown): ApiAnswer => ({ ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
    step.settle(answer);
    return answer;
  }
  // Calls with side effects already in flight are answered (and recorded) before the program ends.
  await run.confirmation.settled();
  run.stopped = true;
  run.stop.abort();
  return { ok: false, message: 'the program was stopped' };
}

async function send(
  ctx: CodeToolContext,
  tool: CatalogTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
): Promise<ApiAnswer> {
  const result = await ctx.callOperation(tool, args, signal);
  const text = result.content.length === 1 && result.content[0]!.type === 'text' ? result.content[0]!.text : undefined;
  if (result.isError) return apiError(text ?? 'the call failed');
  if (text === undefined) return { ok: true, json: JSON.stringify(result.content) };
  return { ok: true, json: isJson(text) ? text : JSON.stringify(text) };
}

/** `HTTP 404 Not Found from GET /x` and the body excerpt after it, as the program's ApiError gets them. */
function apiError(text: string): ApiAnswer {
  const [heading = text, ...rest] = text.split('\n\n');
  const status = errorStatus(text);
  const body = rest.join('\n\n');
  return { ok: false, message: heading, ...(status !== undefined ? { status } : {}), ...(body ? { body } : {}) };
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What a program returned or logged is not redacted of secrets, only cut: everything that entered the sandbox
 * came through callOperation (callTool), redacted before any cut, with the server's secrets in the program's
 * arguments sent as stand-ins, so a program can only output a credential it wrote itself. Redacting its output
 * would be an oracle: a program returning a list of guesses would learn the right one by which came back
 * `[redacted]`. The cut drops the partial word at its edge all the same (cut.ts), as every cut does.
 */
function programResult(outcome: SandboxOutcome, maxBytes: number): ToolResult {
  const logs = outcome.logs.length > 0 ? `\n\nconsole output:\n${outcome.logs.join('\n')}` : '';
  const calls = `\n\n(${outcome.calls} API call${outcome.calls === 1 ? '' : 's'})`;
  const omitted = outcome.omittedBytes ?? 0;
  if (!outcome.ok) return errorResult(capped(`${describeError(outcome.error)}${logs}`, maxBytes, omitted) + calls);
  const value = outcome.json ?? 'undefined (the program returned nothing: end it with `return <value>`)';
  return { content: [{ type: 'text', text: capped(`${value}${logs}`, maxBytes, omitted) }] };
}

/** What a model needs to fix its program: the kind of error, the line, and for a failed call its status and body. */
function describeError(error: SandboxError): string {
  const where = error.line !== undefined ? ` at line ${error.line}` : '';
  switch (error.kind) {
    case 'timeout':
      return `The program was stopped${where}: ${error.message}. Make fewer calls, or compute less.`;
    case 'memory':
      return `The program was stopped${where}: it ran out of memory (MCP_CODE_MEMORY_MB). Keep less data: select the fields you need.`;
    case 'cancelled':
      return `The program was stopped: ${error.message}.`;
    default: {
      const status = error.status !== undefined ? `\nstatus: ${error.status}` : '';
      const body = error.body !== undefined ? `\nbody: ${error.body}` : '';
      return `${error.name}${where}: ${error.message}${status}${body}`;
    }
  }
}

/**
 * Cut to `maxBytes` of UTF-8, with a note saying so (a cut never splits a character, nor leaves part of a word).
 * `omitted`: bytes the sandbox already left out (sandbox.ts handedOut), so the text was cut short already.
 */
function capped(text: string, maxBytes: number, omitted = 0): string {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes && omitted === 0) return text;
  const cut = cutEnd(text, charsWithinBytes(text, maxBytes), NO_SECRETS, true).text;
  return `${cut}…[truncated: ${bytes + omitted - Buffer.byteLength(cut)} more bytes not shown (MCP_CODE_MAX_RESULT_BYTES); return less, e.g. only the fields you need]`;
}
