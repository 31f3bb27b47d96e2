/**
 * Runs a program a model wrote in QuickJS compiled to WebAssembly (quickjs-emscripten, the release-sync
 * build): a JavaScript engine with its own heap, which has no fetch, no timers, no module loader, no file
 * system and no object of this process. The one way out is `api.<operation>(args)`: the sandbox hands the
 * operation's name and its arguments as JSON text to `call`, and gets JSON text back. Nothing else crosses,
 * so no host object, prototype or credential can be reached from inside.
 *
 * Every program gets an instance of the WebAssembly module of its own, in a memory of its own whose maximum
 * is the memory cap (quickjs-wasm.ts): the engine cannot grow past it, and programs share nothing. Where
 * threads exist this runs in a worker (sandbox-worker.ts) and the host thread enforces the time limits by
 * terminating it (sandbox-thread.ts); in-process (Workers) the interrupt handler enforces them here. Other
 * limits: stack depth, the number of calls, and the size and depth of a call's arguments.
 */
import { Buffer } from 'node:buffer';
import type { QuickJSContext, QuickJSDeferredPromise, QuickJSHandle, QuickJSRuntime } from 'quickjs-emscripten-core';
import { ComputeClock } from './compute-clock.js';
import { cutEnd, NO_SECRETS } from '../redaction/cut.js';
import { MAX_ARGUMENT_DEPTH, MAX_MESSAGE_BYTES } from '../contract/message-limits.js';
import { newQuickJsInstance, type QuickJsInstance, type QuickJsWasm } from './quickjs-wasm.js';
import { PRELUDE, PROGRAM_FILE, PROGRAM_LINE_OFFSET } from './sandbox-prelude.js';

export interface SandboxLimits {
  timeoutMs: number;
  /** Longest stretch of computation without waiting on a call that went upstream (compute-clock.ts). */
  maxComputeMs: number;
  memoryBytes: number;
  maxCalls: number;
  /**
   * Bytes of a result that can be shown (MCP_CODE_MAX_RESULT_BYTES): what a program hands out (its result, an
   * error's name, message and body) is cut to this many characters where it leaves the sandbox.
   */
  maxResultBytes: number;
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
  /**
   * One `api.<name>(args)` call; `signal` aborts when the program is stopped. The call says `sending()` when
   * it goes upstream: waiting on it is not computation.
   */
  call: ApiCall;
  /** Stops the program (the client cancelled). */
  signal?: AbortSignal;
  /** The compiled QuickJS module (quickjs-wasm.ts). */
  wasm: QuickJsWasm;
  /** An instance of it made ahead for this program, never used before (sandbox-worker.ts); else one is made. */
  instance?: Promise<QuickJsInstance>;
  /**
   * The host thread enforces the time limits (sandbox-thread.ts terminates the worker): the engine does
   * not check them, and says when it waits instead.
   */
  timedOutside?: {
    /** The engine ran out of work while calls are pending; `answered` counts the answers it has received. */
    idle: (answered: number) => void;
  };
  /** Each console line kept (they also come with the outcome). */
  onLog?: (line: string) => void;
}

export type ApiCall = (name: string, args: unknown, signal: AbortSignal, sending: () => void) => Promise<ApiAnswer>;

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
) & {
  logs: string[];
  calls: number;
  /** Size the program's WebAssembly memory grew to. */
  heapBytes?: number;
  /** UTF-8 bytes of what the program handed out that were left out where it left the sandbox (handedOut). */
  omittedBytes?: number;
};

/** QuickJS's own stack limit, well inside the WebAssembly stack, so deep recursion is a RangeError, not a crash. */
const MAX_STACK_BYTES = 256 * 1024;
/** Logs kept per program (console.log and friends), each line cut to LOG_LINE_CHARS. */
const MAX_LOG_LINES = 200;
const LOG_LINE_CHARS = 2_000;
/**
 * Arguments of one `api.*` call, as JSON text: larger ones, or deeper than the server reads anywhere
 * (MAX_ARGUMENT_DEPTH), are refused inside the program.
 */
export const MAX_ARGUMENT_CHARS = 1024 * 1024;
/**
 * Arguments of all of a program's calls together, as JSON text: what one message to the server may carry. The
 * server's thread reads every argument before it sends anything (validation, the search for its secrets, the
 * request), at up to 0.3 s a MiB for text dense with escapes; without this a 300-byte program making 50 calls
 * of 1 MiB each held every other request of the server for 16.7 s, many times what any one message can.
 */
export const MAX_PROGRAM_ARGUMENT_CHARS = MAX_MESSAGE_BYTES;

export const MEMORY_ERROR = 'out of memory';

export async function runInSandbox(run: SandboxRun): Promise<SandboxOutcome> {
  let instance: QuickJsInstance;
  try {
    instance = await (run.instance ?? newQuickJsInstance(run.wasm, run.limits.memoryBytes));
  } catch (error) {
    // The memory itself could not be reserved: the machine is short of it, which the program did not cause.
    const message = `the sandbox could not start: ${error instanceof Error ? error.message : String(error)}`;
    return { ok: false, error: { kind: 'runtime', name: 'InternalError', message }, logs: [], calls: 0 };
  }
  const runtime = instance.quickJs.newRuntime();
  const execution = new Execution(runtime, run);
  try {
    return { ...(await execution.outcome()), heapBytes: instance.memory.buffer.byteLength };
  } finally {
    execution.stop();
    // A runtime that cannot be freed is dropped with its instance: nothing else lives in that memory.
    try {
      runtime.dispose();
    } catch {
      /* the instance and its memory are garbage now */
    }
  }
}

class Execution {
  private readonly context: QuickJSContext;
  private readonly pending = new Set<QuickJSDeferredPromise>();
  private readonly aborter = new AbortController();
  private readonly logs: string[] = [];
  private readonly deadline: number;
  private readonly clock: ComputeClock;
  private calls = 0;
  /** Characters of arguments of the calls sent to the server so far (MAX_PROGRAM_ARGUMENT_CHARS). */
  private argumentChars = 0;
  private answered = 0;
  private omittedBytes = 0;
  private settle!: (outcome: SandboxOutcome) => void;
  private readonly settled: Promise<SandboxOutcome>;
  private ended = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Why the interrupt handler stopped the program, in the words of the error the model gets. */
  private interrupted: SandboxError | undefined;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly run: SandboxRun,
  ) {
    this.settled = new Promise((resolve) => (this.settle = resolve));
    this.deadline = Date.now() + run.limits.timeoutMs;
    this.clock = new ComputeClock(run.limits.maxComputeMs);
    runtime.setMemoryLimit(run.limits.memoryBytes);
    runtime.setMaxStackSize(MAX_STACK_BYTES);
    runtime.setInterruptHandler(() => this.shouldInterrupt());
    this.context = runtime.newContext();
  }

  async outcome(): Promise<SandboxOutcome> {
    if (this.run.signal?.aborted) return this.failed({ kind: 'cancelled', name: 'Cancelled', message: 'cancelled' });
    if (!this.run.timedOutside) this.timer = setTimeout(() => this.timedOut(), Math.max(this.deadline - Date.now(), 0));
    this.run.signal?.addEventListener('abort', this.onAbort);
    if (!this.start()) return this.settled;
    this.pump();
    return this.settled;
  }

  private shouldInterrupt(): boolean {
    if (this.ended) return true;
    if (this.run.timedOutside) return false;
    const now = Date.now();
    if (now > this.deadline) this.interrupted = timeLimitError(this.run.limits);
    else if (this.clock.remaining(now) < 0) this.interrupted = computeLimitError(this.run.limits);
    return this.interrupted !== undefined;
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
    this.finish(this.failed(timeLimitError(this.run.limits)));
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
    this.clock.start();
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
    let upstream = false;
    const sending = () => {
      upstream = true;
      this.clock.sent();
    };
    const refused = this.refusal(name, argsJson);
    const answer: Promise<ApiAnswer> = refused
      ? Promise.resolve(refused)
      : this.run
          .call(name, JSON.parse(argsJson) as unknown, this.aborter.signal, sending)
          .catch((error: unknown): ApiAnswer => ({
            ok: false,
            message: error instanceof Error ? error.message : String(error),
          }));
    void answer.then((settled) => {
      if (this.ended || !this.pending.delete(deferred)) return;
      this.answered += 1;
      this.clock.answered(upstream);
      const text = this.context.newString(answerText(settled));
      deferred.resolve(text);
      text.dispose();
      this.pump();
    });
    return deferred.handle;
  }

  /** A call answered inside, without reaching the server: past the call cap, or arguments too large or deep. */
  private refusal(name: string, argsJson: string): ApiAnswer | undefined {
    const { maxCalls } = this.run.limits;
    if (this.calls > maxCalls)
      return { ok: false, message: `the program made more than ${maxCalls} API calls, the limit of one program` };
    if (argsJson.length > MAX_ARGUMENT_CHARS)
      return { ok: false, message: `api.${name}'s arguments are over ${MAX_ARGUMENT_CHARS} characters as JSON` };
    if (jsonDepth(argsJson) > MAX_ARGUMENT_DEPTH)
      return { ok: false, message: `api.${name}'s arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep` };
    if (this.argumentChars + argsJson.length > MAX_PROGRAM_ARGUMENT_CHARS)
      return {
        ok: false,
        message: `api.${name} would take the program's calls past ${MAX_PROGRAM_ARGUMENT_CHARS} characters of arguments in all, what one message to the server may carry`,
      };
    this.argumentChars += argsJson.length;
    return undefined;
  }

  /**
   * Runs what became ready inside; a program that can no longer make progress has ended without a result.
   * Called from the settling of an API call, so nothing may escape it: a failure of the engine itself ends the
   * program (its instance is not used again).
   */
  private pump(): void {
    try {
      this.runJobs();
    } catch (error) {
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
      return;
    }
    if (this.ended) return;
    this.clock.idle();
    this.run.timedOutside?.idle(this.answered);
  }

  private done(json: string | undefined): void {
    const kept = json === undefined ? undefined : this.handedOut(json);
    this.finish({ ok: true, ...(kept !== undefined ? { json: kept } : {}), logs: this.logs, calls: this.calls });
  }

  /**
   * Text the program hands out, cut to what can be shown (`maxResultBytes` characters are at least as many bytes),
   * counting what was left out. Cut here, not where it is shown: the whole text would cross to the server's thread
   * and be held there, up to the program's whole memory for every program running.
   */
  private handedOut(text: string): string {
    const max = this.run.limits.maxResultBytes;
    if (text.length <= max) return text;
    const kept = text.slice(0, max);
    this.omittedBytes += Buffer.byteLength(text) - Buffer.byteLength(kept);
    return kept;
  }

  /** What the prelude reports of an uncaught error: any values the program gave it, read as the types they should be. */
  private programFailed(errorJson: string): void {
    const thrown = JSON.parse(errorJson) as Record<keyof ThrownError, unknown>;
    const line = programLine(typeof thrown.stack === 'string' ? thrown.stack : '');
    const { status, body } = thrown;
    this.finish(
      this.failed({
        kind: this.kindOf(String(thrown.message)),
        name: this.handedOut(String(thrown.name)),
        message: this.handedOut(String(thrown.message)),
        ...(line !== undefined ? { line } : {}),
        ...(typeof status === 'number' ? { status } : {}),
        ...(typeof body === 'string' ? { body: this.handedOut(body) } : {}),
      }),
    );
  }

  private log(line: string): void {
    if (this.logs.length >= MAX_LOG_LINES) return;
    const kept = cutEnd(line, LOG_LINE_CHARS, NO_SECRETS).text;
    this.logs.push(kept);
    this.run.onLog?.(kept);
  }

  private finish(outcome: SandboxOutcome): void {
    if (this.ended) return;
    this.ended = true;
    this.settle(this.omittedBytes > 0 ? { ...outcome, omittedBytes: this.omittedBytes } : outcome);
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
      name: typeof fields['name'] === 'string' ? this.handedOut(fields['name']) : 'Error',
      message: this.handedOut(message),
      ...(line !== undefined ? { line } : {}),
    };
  }

  /** QuickJS says why it stopped a program only in the message of the error it raised. */
  private kindOf(message: string): SandboxErrorKind {
    if (message === 'interrupted') return this.interrupted?.kind ?? 'cancelled';
    if (message === MEMORY_ERROR) return 'memory';
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

/** The outcome of a program whose types could not be stripped (strip-types.ts). */
export function unparsed({ message, line }: { message: string; line?: number }): SandboxOutcome {
  const error: SandboxError = { kind: 'syntax', name: 'SyntaxError', message, ...(line !== undefined ? { line } : {}) };
  return { ok: false, error, logs: [], calls: 0 };
}

export function timeLimitError(limits: SandboxLimits): SandboxError {
  return {
    kind: 'timeout',
    name: 'TimeoutError',
    message: `the program ran past its time limit of ${limits.timeoutMs} ms`,
  };
}

export function computeLimitError(limits: SandboxLimits): SandboxError {
  return {
    kind: 'timeout',
    name: 'TimeoutError',
    message: `the program computed for more than ${limits.maxComputeMs} ms without waiting on an API call`,
  };
}

/** How deep arrays and objects nest in JSON text (brackets inside strings do not count). */
export function jsonDepth(json: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
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
