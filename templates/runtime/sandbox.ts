/**
 * Runs a program a model wrote in QuickJS compiled to WebAssembly (quickjs-emscripten, the release-sync
 * build): a JavaScript engine with its own heap, which has no fetch, no timers, no module loader, no file
 * system and no object of this process. The one way out is `api.<operation>(args)`: the sandbox hands the
 * operation's name and its arguments as JSON text to `call`, and gets JSON text back. Nothing else crosses,
 * so no host object, prototype or credential can be reached from inside.
 *
 * Limits: wall time (an interrupt handler stops JavaScript that runs on; a timer ends a program waiting on
 * the API), memory (the runtime's allocator refuses past the limit), stack depth, and the number of calls.
 * Every program gets a fresh runtime, freed when it ends; should freeing it ever fail, the WebAssembly
 * module is dropped and the next program loads a new one, so one program cannot break the next.
 */
import type {
  QuickJSContext,
  QuickJSDeferredPromise,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { cutEnd, NO_SECRETS } from './cut.js';
import { newQuickJs, type QuickJsWasm } from './quickjs-wasm.js';

import { PRELUDE, PROGRAM_FILE, PROGRAM_LINE_OFFSET } from './sandbox-prelude.js';

export interface SandboxLimits {
  timeoutMs: number;
  /**
   * Longest stretch of computation between two waits on the API. The program runs on the server's own
   * thread (that is what lets it run wherever the server runs), so this bounds how long other requests wait.
   */
  maxComputeMs: number;
  memoryBytes: number;
  maxCalls: number;
}

/**
 * What one `api.*` call answers inside the program: a value (as JSON text, passed in as it came from the
 * API), or an error the program can catch.
 */
export type ApiAnswer = { ok: true; json: string } | { ok: false; message: string; status?: number; body?: string };

export interface SandboxRun {
  /** Plain JavaScript: the body of an async function (`await` and `return` work at its top level). */
  code: string;
  limits: SandboxLimits;
  /** What `Date.now()` and `new Date()` say inside: the only clock the program has. */
  now: number;
  /** One `api.<name>(args)` call; `signal` aborts when the program is stopped. */
  call: (name: string, args: unknown, signal: AbortSignal) => Promise<ApiAnswer>;
  /** Stops the program (the client cancelled). */
  signal?: AbortSignal;
  /** The compiled QuickJS module, where the runtime cannot load it itself (Workers; quickjs-wasm.ts). */
  wasm?: QuickJsWasm;
}

export type SandboxErrorKind = 'syntax' | 'runtime' | 'timeout' | 'memory' | 'cancelled';

export interface SandboxError {
  kind: SandboxErrorKind;
  name: string;
  message: string;
  /** Line in the program, when the error points at one. */
  line?: number;
  /** An `api.*` call that failed and was not caught: its HTTP status and the start of its body. */
  status?: number;
  body?: string;
}

export type SandboxOutcome = (
  | { ok: true; /** JSON text of the returned value; undefined when the program returned nothing. */ json?: string }
  | { ok: false; error: SandboxError }
) & { logs: string[]; calls: number };

/** QuickJS's own stack limit, well inside the WebAssembly stack, so deep recursion is a RangeError, not a crash. */
const MAX_STACK_BYTES = 256 * 1024;
/** Logs kept per program (console.log and friends), each line cut to LOG_LINE_CHARS. */
const MAX_LOG_LINES = 200;
const LOG_LINE_CHARS = 2_000;

let quickJs: Promise<QuickJSWASMModule> | undefined;

/** Loads the WebAssembly module once (about 25 ms); later programs start in well under a millisecond. */
export function loadQuickJs(wasm?: QuickJsWasm): Promise<QuickJSWASMModule> {
  quickJs ??= newQuickJs(wasm);
  quickJs.catch(() => (quickJs = undefined));
  return quickJs;
}

export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  const module = await loadQuickJs(run.wasm);
  const runtime = module.newRuntime();
  const execution = new Execution(runtime, run);
  try {
    return await execution.outcome();
  } finally {
    execution.stop();
    try {
      runtime.dispose();
    } catch {
      // A runtime that cannot be freed leaves the module in an unknown state: the next program loads a new one.
      quickJs = undefined;
    }
  }
}

class Execution {
  private readonly context: QuickJSContext;
  private readonly pending = new Set<QuickJSDeferredPromise>();
  private readonly aborter = new AbortController();
  private readonly logs: string[] = [];
  private readonly deadline: number;
  private calls = 0;
  private settle!: (outcome: SandboxOutcome) => void;
  private readonly settled: Promise<SandboxOutcome>;
  private ended = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the current stretch of computation inside began. */
  private computing = 0;
  /** Why the interrupt handler stopped the program, in the words of the error the model gets. */
  private interrupted: SandboxError | undefined;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly run: SandboxRun,
  ) {
    this.settled = new Promise((resolve) => (this.settle = resolve));
    this.deadline = Date.now() + run.limits.timeoutMs;
    runtime.setMemoryLimit(run.limits.memoryBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(() => this.shouldInterrupt());
    this.context = runtime.newContext();
  }

  async outcome(): Promise<SandboxOutcome> {
    if (this.run.signal?.aborted) return this.failed({ kind: 'cancelled', name: 'Cancelled', message: 'cancelled' });
    this.timer = setTimeout(() => this.timedOut(), Math.max(this.deadline - Date.now(), 0));
    this.run.signal?.addEventListener('abort', this.onAbort);
    if (!this.start()) return this.settled;
    this.pump();
    return this.settled;
  }

  private shouldInterrupt(): boolean {
    if (this.ended) return true;
    const now = Date.now();
    if (now > this.deadline) this.interrupted = this.timeLimit();
    else if (now - this.computing > this.run.limits.maxComputeMs)
      this.interrupted = {
        kind: 'timeout',
        name: 'TimeoutError',
        message: `the program computed for more than ${this.run.limits.maxComputeMs} ms without waiting on an API call`,
      };
    return this.interrupted !== undefined;
  }

  private timeLimit(): SandboxError {
    return {
      kind: 'timeout',
      name: 'TimeoutError',
      message: `the program ran past its time limit of ${this.run.limits.timeoutMs} ms`,
    };
  }

  /** Ends the program: in-flight calls are aborted and their promises inside are rejected (never left held). */
  stop(): void {
    this.ended = true;
    clearTimeout(this.timer);
    this.run.signal?.removeEventListener('abort', this.onAbort);
    this.aborter.abort();
    for (const deferred of this.pending) this.rejectQuietly(deferred);
    this.pending.clear();
    this.context.dispose();
  }

  private readonly onAbort = () =>
    this.finish(this.failed({ kind: 'cancelled', name: 'Cancelled', message: 'the client cancelled the call' }));

  private timedOut(): void {
    this.finish(this.failed(this.timeLimit()));
  }

  /** Installs the host functions and the prelude, then evaluates the program. False when it did not start. */
  private start(): boolean {
    const ctx = this.context;
    const host = ctx.newObject();
    const functions: Array<[string, QuickJSHandle]> = [
      ['call', ctx.newFunction('call', (name, args) => this.apiCall(ctx.getString(name), ctx.getString(args)))],
      [
        'done',
        ctx.newFunction(
          'done',
          (json) => void this.done(ctx.typeof(json) === 'string' ? ctx.getString(json) : undefined),
        ),
      ],
      ['fail', ctx.newFunction('fail', (error) => void this.programFailed(ctx.getString(error)))],
      ['log', ctx.newFunction('log', (line) => void this.log(ctx.getString(line)))],
    ];
    for (const [name, fn] of functions) {
      ctx.setProp(host, name, fn);
      fn.dispose();
    }
    const now = ctx.newNumber(this.run.now);
    this.computing = Date.now();
    const prelude = ctx.evalCode(PRELUDE, 'prelude.js');
    const installed = prelude.error ? prelude : ctx.callFunction(prelude.value, ctx.undefined, host, now);
    if (!prelude.error) prelude.value.dispose();
    host.dispose();
    now.dispose();
    if (installed.error) {
      const error = this.errorOf(installed.error, 'runtime');
      installed.error.dispose();
      this.finish(this.failed(error));
      return false;
    }
    installed.value.dispose();
    const program = ctx.evalCode(`__run(async function () {\n${this.run.code}\n});`, PROGRAM_FILE);
    if (program.error) {
      const error = this.errorOf(program.error, 'syntax');
      program.error.dispose();
      this.finish(this.failed(error));
      return false;
    }
    program.value.dispose();
    return true;
  }

  /** `api.<name>(args)`: a promise inside, settled when the server answers. */
  private apiCall(name: string, argsJson: string): QuickJSHandle {
    const deferred = this.context.newPromise();
    this.pending.add(deferred);
    this.calls += 1;
    const answer: Promise<ApiAnswer> =
      this.calls > this.run.limits.maxCalls
        ? Promise.resolve({
            ok: false,
            message: `the program made more than ${this.run.limits.maxCalls} API calls, the limit of one program`,
          })
        : this.run
            .call(name, JSON.parse(argsJson) as unknown, this.aborter.signal)
            .catch((error: unknown): ApiAnswer => ({
              ok: false,
              message: error instanceof Error ? error.message : String(error),
            }));
    void answer.then((settled) => {
      if (this.ended || !this.pending.delete(deferred)) return;
      const text = this.context.newString(answerText(settled));
      deferred.resolve(text);
      text.dispose();
      this.pump();
    });
    return deferred.handle;
  }

  /**
   * Runs what became ready inside; a program that can no longer make progress has ended without a result.
   * Called from the settling of an API call, so nothing may escape it: a failure of the engine itself ends the
   * program, and the module is loaded again for the next one.
   */
  private pump(): void {
    try {
      this.runJobs();
    } catch (error) {
      quickJs = undefined;
      this.finish(
        this.failed({
          kind: 'runtime',
          name: 'InternalError',
          message: `the sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
        }),
      );
    }
  }

  private runJobs(): void {
    if (this.ended) return;
    this.computing = Date.now();
    const jobs = this.runtime.executePendingJobs(-1);
    if (jobs.error) {
      const error = this.errorOf(jobs.error, 'runtime');
      jobs.error.dispose();
      this.finish(this.failed(error));
      return;
    }
    if (!this.ended && this.pending.size === 0 && !this.runtime.hasPendingJob()) {
      this.finish(
        this.failed({
          kind: 'runtime',
          name: 'Error',
          message: 'the program stopped without returning: it awaited something that never settles',
        }),
      );
    }
  }

  private done(json: string | undefined): void {
    this.finish({ ok: true, ...(json !== undefined ? { json } : {}), logs: this.logs, calls: this.calls });
  }

  private programFailed(errorJson: string): void {
    const thrown = JSON.parse(errorJson) as ThrownError;
    const line = programLine(thrown.stack ?? '');
    this.finish(
      this.failed({
        kind: this.kindOf(thrown.message),
        name: thrown.name,
        message: thrown.message,
        ...(line !== undefined ? { line } : {}),
        ...(thrown.status !== undefined ? { status: thrown.status } : {}),
        ...(thrown.body !== undefined ? { body: thrown.body } : {}),
      }),
    );
  }

  private log(line: string): void {
    if (this.logs.length < MAX_LOG_LINES) this.logs.push(cutEnd(line, LOG_LINE_CHARS, NO_SECRETS).text);
  }

  private finish(outcome: SandboxOutcome): void {
    if (this.ended) return;
    this.ended = true;
    this.settle(outcome);
  }

  private failed(error: SandboxError): SandboxOutcome {
    const reported =
      error.message === 'interrupted' && this.interrupted ? { ...this.interrupted, ...lineOf(error) } : error;
    return { ok: false, error: reported, logs: this.logs, calls: this.calls };
  }

  /** An error value inside (a syntax error, an uncaught throw in a job), read as plain data. */
  private errorOf(handle: QuickJSHandle, kind: SandboxErrorKind): SandboxError {
    const dumped = this.context.dump(handle) as { name?: unknown; message?: unknown; stack?: unknown } | unknown;
    const fields = typeof dumped === 'object' && dumped !== null ? (dumped as Record<string, unknown>) : {};
    const message = typeof fields['message'] === 'string' ? fields['message'] : String(dumped);
    const line = programLine(typeof fields['stack'] === 'string' ? fields['stack'] : '');
    return {
      kind: kind === 'syntax' ? 'syntax' : this.kindOf(message),
      name: typeof fields['name'] === 'string' ? fields['name'] : 'Error',
      message,
      ...(line !== undefined ? { line } : {}),
    };
  }

  /** QuickJS says why it stopped a program only in the message of the error it raised. */
  private kindOf(message: string): SandboxErrorKind {
    if (message === 'interrupted') return this.interrupted?.kind ?? 'cancelled';
    if (message === 'out of memory') return 'memory';
    return 'runtime';
  }

  private rejectQuietly(deferred: QuickJSDeferredPromise): void {
    try {
      const reason = this.context.newString('stopped');
      deferred.reject(reason);
      reason.dispose();
    } catch {
      deferred.dispose();
    }
  }
}

function lineOf(error: SandboxError): { line?: number } {
  return error.line !== undefined ? { line: error.line } : {};
}

/** The answer as the prelude reads it: `{ ok, value }` or `{ ok, message, status, body }`. */
function answerText(answer: ApiAnswer): string {
  return answer.ok ? `{"ok":true,"value":${answer.json}}` : JSON.stringify(answer);
}

/** What the prelude reports of an error the program did not catch. */
interface ThrownError {
  name: string;
  message: string;
  /** For an `api.*` error, the stack where the program made the call. */
  stack?: string;
  status?: number;
  body?: string;
}

/** The first line of the program a stack trace names (`at … (program.js:LINE:COL)`), in the program's numbering. */
function programLine(stack: string): number | undefined {
  const match = new RegExp(`${PROGRAM_FILE.replace('.', '\\.')}:(\\d+)`).exec(stack);
  if (!match) return undefined;
  const line = Number(match[1]) - PROGRAM_LINE_OFFSET;
  return line >= 1 ? line : undefined;
}
