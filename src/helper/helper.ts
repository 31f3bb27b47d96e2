/**
 * The helper thread: a worker that loads the heaviest modules of a generation, prettier and the o200k_base
 * tokenizer, while the main thread reads, validates and maps the spec, then builds the search index, formats
 * the generated files and counts the tools/list tokens when asked. The main thread never loads either.
 * Everything it is given is plain text or data, small next to the spec: the spec itself stays on the main
 * thread, which validates it (posting its JSON and parsing it again here cost more than checking it there).
 *
 * A generation holds a lease on it (`leaseHelper`) from its start, so the modules load at once; the worker
 * outlives a lease by a few seconds, so back-to-back generations in one process reuse it, and never keeps the
 * process alive. Without the compiled worker (running from the TypeScript sources) there is no helper and
 * `runTask` does the work on this thread. With one, a task that fails there, or a helper that stopped, fails
 * the generation with that error: the work is never quietly done again here.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export type HelperTask = 'countTokens' | 'format' | 'searchIndexFile';

export interface HelperRequest {
  id: number;
  task: HelperTask;
  input: unknown;
}

export type HelperResponse = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

export interface HelperLease {
  release(): void;
}

const WORKER_ENTRY = new URL('./helper-worker.js', import.meta.url);
/**
 * The helper's young generation, smaller than V8's default. The helper allocates in bursts (loading prettier
 * and the tokenizer, formatting), and a large young generation has it touch tens of megabytes of fresh pages,
 * each first touch a page fault (costly on a VM) that outweighs the extra scavenges: generating GitHub made
 * about 6,000 fewer page faults and ran 3–5 % faster with this limit.
 */
const HELPER_YOUNG_GENERATION_MB = 8;

/** How long an unleased helper stays, for the next generation in the same process. */
const IDLE_MS = 5_000;

let helper: Helper | undefined;

/** Starts the helper if needed and keeps it until released. */
export function leaseHelper(): HelperLease {
  helper ??= Helper.start();
  const leased = helper;
  leased?.acquire();
  let released = false;
  return {
    release: () => {
      if (released || !leased) return;
      released = true;
      leased.releaseOne();
    },
  };
}

/**
 * Runs a task on the helper when a generation leased one, else `here` (the same work, on this thread). Rejects
 * with the helper's error when the task failed there or the helper stopped.
 */
export function runTask<T>(task: HelperTask, input: unknown, here: () => T | Promise<T>): Promise<T> {
  if (!helper?.leased) return Promise.resolve().then(here);
  return helper.call(task, input) as Promise<T>;
}

class Helper {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private leases = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Why the worker stopped while leased (its error, or its exit): every later call fails with it. */
  private stopped: Error | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (response: HelperResponse) => this.settle(response));
    worker.on('error', (error) => this.fail(new Error(`the helper thread failed: ${error.message}`)));
    worker.on('exit', (code) => this.fail(new Error(`the helper thread exited (code ${code})`)));
    worker.unref();
  }

  static start(): Helper | undefined {
    if (!existsSync(fileURLToPath(WORKER_ENTRY))) return undefined;
    // Not the parent's options: they may be for an eval'd script (`--input-type`) or a loader our plain JS
    // modules do not need.
    return new Helper(
      new Worker(WORKER_ENTRY, {
        execArgv: [],
        resourceLimits: { maxYoungGenerationSizeMb: HELPER_YOUNG_GENERATION_MB },
      }),
    );
  }

  get leased(): boolean {
    return this.leases > 0;
  }

  acquire(): void {
    this.leases++;
    clearTimeout(this.idleTimer);
    this.worker.ref();
  }

  releaseOne(): void {
    this.leases--;
    if (this.leases > 0) return;
    if (this.stopped) {
      if (helper === this) helper = undefined; // the next generation starts a fresh one
      return;
    }
    this.worker.unref();
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
  }

  call(task: HelperTask, input: unknown): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, task, input } satisfies HelperRequest);
    });
  }

  private settle(response: HelperResponse): void {
    const waiting = this.pending.get(response.id);
    this.pending.delete(response.id);
    if (response.ok) waiting?.resolve(response.value);
    else waiting?.reject(new Error(response.error));
  }

  private fail(reason: Error): void {
    this.stopped ??= reason;
    if (helper === this && this.leases === 0) helper = undefined;
    for (const waiting of this.pending.values()) waiting.reject(this.stopped);
    this.pending.clear();
  }

  /** Stops an idle helper (nothing is leased, so nothing fails). */
  private async stop(): Promise<void> {
    if (this.leases > 0) return;
    this.fail(new Error('the helper thread was stopped when idle'));
    await this.worker.terminate();
  }
}
