/**
 * Runs a code-mode program in a worker thread (sandbox-worker.ts), where the platform has them (Node, Deno,
 * Bun, Lambda), so that no program holds up the server's event loop. This thread answers the program's
 * `api.*` calls and keeps its time limits from outside the engine: at the wall-clock deadline, or when the
 * program has computed for longer than its limit without waiting on a call that went upstream
 * (compute-clock.ts), the worker is terminated, however the program is spending its time (a loop inside a
 * slow built-in never reaches QuickJS's interrupt check). The worker also runs under V8 resource limits, for
 * the little JavaScript of its own (type stripping, messages); the program's heap is its WebAssembly memory,
 * capped by its maximum (quickjs-wasm.ts).
 */
import { Worker } from 'node:worker_threads';
import { ComputeClock } from './compute-clock.js';
import {
  computeLimitError,
  timeLimitError,
  type ApiCall,
  type SandboxError,
  type SandboxLimits,
  type SandboxOutcome,
} from './sandbox.js';
import { QUICKJS_MIN_MEMORY_BYTES } from './quickjs-wasm.js';
import type { FromWorker, ToWorker } from './sandbox-worker.js';

export interface ThreadRun {
  /** The program as the model wrote it (TypeScript or JavaScript): its types are stripped in the worker. */
  program: string;
  limits: SandboxLimits;
  now: number;
  call: ApiCall;
  signal?: AbortSignal;
  /** The worker's file; by default sandbox-worker.js beside this module (in a bundle too: see rolldown.config.mjs). */
  workerUrl?: URL;
}

/** V8 heap of a worker, for its own JavaScript: a program's data lives in its WebAssembly memory instead. */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };
/**
 * Workers kept ready (each about 10 MB), so that a program rarely waits for one to start (on Deno, creating
 * a worker also holds this thread for some 50–200 ms, which only ready workers avoid): when a program
 * ends and none is left, one is started (then, rather than as the next program starts, so that starting it
 * never delays the requests served meanwhile), and up to two are kept between programs.
 */
const IDLE_WORKERS = 2;

const idle = new Map<string, Worker[]>();

export function runInThread(run: ThreadRun): Promise<SandboxOutcome> {
  const url = run.workerUrl ?? new URL('./sandbox-worker.js', import.meta.url);
  const worker = idle.get(url.href)?.pop() ?? startWorker(url);
  return new ThreadExecution(worker, run, (ended) => {
    if (ended) keepWorker(url, ended);
    if (!idle.get(url.href)?.length) keepWorker(url, startWorker(url));
  }).outcome;
}

function startWorker(url: URL): Worker {
  const worker = new Worker(url, { resourceLimits: WORKER_LIMITS });
  // An idle worker never keeps the process alive (a stdio server exits when its client goes).
  worker.unref();
  // A worker that fails while idle is only dropped; while it runs a program, that program reports it.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    const kept = idle.get(url.href);
    if (kept?.includes(worker)) kept.splice(kept.indexOf(worker), 1);
  });
  return worker;
}

function keepWorker(url: URL, worker: Worker): void {
  const kept = idle.get(url.href) ?? [];
  idle.set(url.href, kept);
  if (kept.length < IDLE_WORKERS) kept.push(worker);
  else void worker.terminate();
}

class ThreadExecution {
  readonly outcome: Promise<SandboxOutcome>;
  private settle!: (outcome: SandboxOutcome) => void;
  private readonly clock: ComputeClock;
  private readonly aborter = new AbortController();
  private readonly logs: string[] = [];
  private calls = 0;
  private answered = 0;
  private ended = false;
  private readonly deadline: ReturnType<typeof setTimeout>;
  private computeTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly worker: Worker,
    private readonly run: ThreadRun,
    /** Called once the program ended, with its worker when that can run another program. */
    private readonly release: (worker: Worker | undefined) => void,
  ) {
    this.outcome = new Promise((resolve) => (this.settle = resolve));
    this.clock = new ComputeClock(run.limits.maxComputeMs);
    worker.on('message', this.onMessage);
    worker.on('error', this.onError);
    worker.on('exit', this.onExit);
    run.signal?.addEventListener('abort', this.onAbort);
    this.deadline = setTimeout(() => this.stop(timeLimitError(run.limits)), run.limits.timeoutMs);
    if (run.signal?.aborted) {
      this.onAbort();
      return;
    }
    const start: ToWorker = { type: 'run', program: run.program, limits: run.limits, now: run.now };
    worker.postMessage(start);
  }

  private readonly onMessage = (message: FromWorker) => {
    if (this.ended) return;
    switch (message.type) {
      case 'started':
        // A worker that had to start first does so on the server's time, not the program's.
        this.clock.start();
        return this.armComputeLimit();
      case 'call':
        return this.call(message.id, message.name, message.args);
      case 'idle':
        // An idle report older than the last answer sent says nothing of now: the worker has work again.
        if (message.answered === this.answered) this.clock.idle();
        return this.armComputeLimit();
      case 'log':
        this.logs.push(message.line);
        return;
      case 'outcome':
        return this.finish(message.outcome, message.outcome.heapBytes === QUICKJS_MIN_MEMORY_BYTES);
    }
  };

  private call(id: number, name: string, args: unknown): void {
    this.calls += 1;
    let upstream = false;
    const sending = () => {
      upstream = true;
      this.clock.sent();
    };
    void this.run
      .call(name, args, this.aborter.signal, sending)
      .catch((error: unknown) => ({
        ok: false as const,
        message: error instanceof Error ? error.message : String(error),
      }))
      .then((answer) => {
        if (this.ended) return;
        this.answered += 1;
        this.clock.answered(upstream);
        this.armComputeLimit();
        const message: ToWorker = { type: 'answer', id, answer };
        this.worker.postMessage(message);
      });
  }

  /** The compute limit as a timer, set again whenever the clock changes (none while the program waits). */
  private armComputeLimit(): void {
    clearTimeout(this.computeTimer);
    const remaining = this.clock.remaining();
    if (remaining === Infinity) return;
    this.computeTimer = setTimeout(
      () => {
        if (this.clock.remaining() <= 0) this.stop(computeLimitError(this.run.limits));
        else this.armComputeLimit();
      },
      Math.max(remaining, 0) + 1,
    );
  }

  private readonly onAbort = () =>
    this.stop({ kind: 'cancelled', name: 'Cancelled', message: 'the client cancelled the call' });

  private readonly onError = (error: Error & { code?: string }) =>
    this.stop(
      error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? { kind: 'memory', name: 'InternalError', message: 'out of memory' }
        : { kind: 'runtime', name: 'InternalError', message: `the sandbox failed: ${error.message}` },
    );

  private readonly onExit = () =>
    this.stop({ kind: 'runtime', name: 'InternalError', message: 'the sandbox stopped unexpectedly' });

  /** Ends the program from outside: the worker is terminated, and the calls in flight are aborted. */
  private stop(error: SandboxError): void {
    if (this.ended) return;
    this.finish({ ok: false, error, logs: this.logs, calls: this.calls }, false);
  }

  /** A worker whose program ended on its own, in the memory it started with, is kept for the next program. */
  private finish(outcome: SandboxOutcome, reusable: boolean): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.deadline);
    clearTimeout(this.computeTimer);
    this.run.signal?.removeEventListener('abort', this.onAbort);
    this.aborter.abort();
    this.worker.off('message', this.onMessage);
    this.worker.off('error', this.onError);
    this.worker.off('exit', this.onExit);
    if (!reusable) void this.worker.terminate();
    this.settle(outcome);
    this.release(reusable ? this.worker : undefined);
  }
}
