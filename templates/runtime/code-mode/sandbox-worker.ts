/**
 * The worker thread one code-mode program runs in at a time (Node, Deno, Bun, Lambda): it strips the
 * program's types and runs it in a QuickJS instance of its own (sandbox.ts), off the server's event loop.
 * Each `api.*` call crosses to the host thread as a message and is run there (code-mode.ts), so credentials,
 * policies and confirmation never enter this thread. The host thread keeps the time limits and terminates
 * this worker when one is reached (sandbox-thread.ts); a worker whose program ended on its own may be given
 * the next program, which gets a fresh instance in a fresh memory.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { compileQuickJs, newQuickJsInstance, type QuickJsInstance } from './quickjs-wasm.js';
import { runInSandbox, unparsed, type ApiAnswer, type SandboxLimits, type SandboxOutcome } from './sandbox.js';

/** What the host thread sends. */
export type ToWorker =
  | { type: 'run'; program: string; limits: SandboxLimits; now: number }
  | { type: 'answer'; id: number; answer: ApiAnswer };

/** What this worker sends. */
export type FromWorker =
  /** The program starts: its engine is loaded, and its time counts from here. */
  | { type: 'started' }
  | { type: 'call'; id: number; name: string; args: unknown }
  | { type: 'idle'; answered: number }
  | { type: 'log'; line: string }
  | { type: 'outcome'; outcome: SandboxOutcome };

const port = parentPort;
if (!port) throw new Error('sandbox-worker.js runs as a worker thread (sandbox-thread.ts starts it)');

const post = (message: FromWorker) => port.postMessage(message);
const answers = new Map<number, (answer: ApiAnswer) => void>();
let nextCall = 0;
/**
 * The next program's instance, made while this worker waits (a few milliseconds that would otherwise delay
 * the program's start), for the memory cap of the last program; each is used once.
 */
let ahead: { memoryBytes: number; instance: Promise<QuickJsInstance> } | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'answer') {
    answers.get(message.id)?.(message.answer);
    answers.delete(message.id);
  } else {
    void run(message).then((outcome) => {
      // Calls the program left unanswered die with it: a waiting answer holds the program's whole instance,
      // and this worker runs many programs, each of which would keep its memory for the worker's life.
      answers.clear();
      post({ type: 'outcome', outcome });
      void compileQuickJs().then((wasm) => makeAhead(wasm, message.limits.memoryBytes));
    });
  }
});

async function run({ program, limits, now }: Extract<ToWorker, { type: 'run' }>): Promise<SandboxOutcome> {
  const [wasm, { stripTypes }] = await Promise.all([compileQuickJs(), stripper]);
  const made = ahead?.memoryBytes === limits.memoryBytes ? ahead.instance : undefined;
  ahead = undefined;
  post({ type: 'started' });
  const stripped = stripTypes(program);
  if (!stripped.ok) return unparsed(stripped);
  return runInSandbox({
    code: stripped.code,
    limits,
    now,
    wasm,
    ...(made ? { instance: made } : {}),
    call: (name, args) =>
      new Promise<ApiAnswer>((resolve) => {
        const id = nextCall++;
        answers.set(id, resolve);
        post({ type: 'call', id, name, args });
      }),
    timedOutside: { idle: (answered) => post({ type: 'idle', answered }) },
    onLog: (line) => post({ type: 'log', line }),
  });
}

/**
 * On Linux a thread has its own nice value (setpriority(2), NOTES): this one takes the lowest, so that when
 * cores are short the server's own thread, which answers every other request, is the one that runs.
 * Elsewhere programs run at the server's priority.
 */
function yieldToServer(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 19);
  } catch {
    // not Linux, or not allowed: nothing to do
  }
}

function makeAhead(wasm: Awaited<ReturnType<typeof compileQuickJs>>, memoryBytes: number): void {
  const instance = newQuickJsInstance(wasm, memoryBytes);
  instance.catch(() => undefined); // a failure shows when a program takes it
  ahead = { memoryBytes, instance };
}

yieldToServer();
// Loaded once the thread has yielded, before its first program arrives: the type stripper and the engine.
const stripper = import('./strip-types.js');
void compileQuickJs().catch(() => undefined);
