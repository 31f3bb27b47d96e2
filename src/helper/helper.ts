/**
 * The helper thread: a worker that loads the heaviest modules of a generation, prettier and the o200k_base
 * tokenizer, while the main thread reads and maps the spec, then builds the search index, formats the
 * generated files and counts the tools/list tokens when asked (the main thread emits and validates the spec
 * meanwhile). It also builds the structure of
 * src/tools.ts with ts-morph when the build's prebuilt one is missing (src/emit/code.ts). The main thread never
 * loads any of them.
 *
 * A generation holds a lease on it (`leaseHelper`) from its start, so the modules load at once; the worker
 * outlives a lease by a few seconds, so back-to-back generations in one process reuse it, and never keeps the
 * process alive. Without the compiled worker (running from the TypeScript sources) there is no helper, and
 * callers do the work on their own thread, as they also do when a request fails.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export type HelperTask = 'toolNamesSkeleton' | 'countTokens' | 'format' | 'searchIndexFile';

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

/** Runs a task on the helper; undefined when there is no leased helper or the task failed there. */
export async function onHelper<T>(task: HelperTask, input: unknown): Promise<T | undefined> {
  if (!helper || !helper.leased) return undefined;
  try {
    return (await helper.call(task, input)) as T;
  } catch {
    return undefined;
  }
}

/** With OTM_DEBUG set, says why there is no helper (the work then runs on the main thread, slower). */
function debug(error: unknown): void {
  if (process.env['OTM_DEBUG']) process.stderr.write(`[openapi-to-mcp] helper thread unavailable: ${String(error)}\n`);
}

class Helper {
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private nextId = 1;
  private leases = 0;
  private idleTimer: NodeJS.Timeout | undefined;
  private dead = false;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (response: HelperResponse) => this.settle(response));
    worker.on('error', (error) => {
      debug(error);
      this.fail();
    });
    worker.on('exit', () => this.fail());
    worker.unref();
  }

  static start(): Helper | undefined {
    if (!existsSync(fileURLToPath(WORKER_ENTRY))) return undefined;
    try {
      // Not the parent's options: they may be for an eval'd script (`--input-type`) or a loader our plain JS
      // modules do not need.
      return new Helper(new Worker(WORKER_ENTRY, { execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: HELPER_YOUNG_GENERATION_MB } }));
    } catch (error) {
      debug(error);
      return undefined;
    }
  }

  get leased(): boolean {
    return this.leases > 0 && !this.dead;
  }

  acquire(): void {
    this.leases++;
    clearTimeout(this.idleTimer);
    this.worker.ref();
  }

  releaseOne(): void {
    this.leases--;
    if (this.leases > 0) return;
    this.worker.unref();
    this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
  }

  call(task: HelperTask, input: unknown): Promise<unknown> {
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

  private fail(): void {
    this.dead = true;
    if (helper === this) helper = undefined;
    for (const waiting of this.pending.values()) waiting.reject(new Error('the helper thread stopped'));
    this.pending.clear();
  }

  private async stop(): Promise<void> {
    if (this.leases > 0) return;
    this.fail();
    await this.worker.terminate();
  }
}
