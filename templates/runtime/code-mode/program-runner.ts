/**
 * Where a code-mode program runs, and how many run at once. Where the platform has threads (Node, Deno,
 * Bun, Lambda) each program runs in a worker thread, with its time limits enforced by terminating it
 * (sandbox-thread.ts). Cloudflare Workers have no threads: there the Worker hands in the compiled QuickJS
 * module (`wasm`), and the program runs on the request's own thread in an instance and memory of its own,
 * stopped by QuickJS's interrupt handler. What holds there besides is the platform's own per-request
 * limits: the CPU time of a request (30 s by default on the paid plan, `limits.cpu_ms` in wrangler.toml)
 * and the memory of an isolate (128 MB), which every program of that isolate counts against.
 */
import type { QuickJsWasm } from './quickjs-wasm.js';
import type { ApiCall, SandboxLimits, SandboxOutcome } from './sandbox.js';

export interface ProgramRequest {
  /** The program as the model wrote it. */
  program: string;
  limits: SandboxLimits;
  now: number;
  call: ApiCall;
  signal?: AbortSignal;
  /** The compiled QuickJS module, handed in on Workers: the program runs in-process. */
  wasm?: QuickJsWasm;
}

export async function runProgram(run: ProgramRequest): Promise<SandboxOutcome> {
  const { program, wasm, ...rest } = run;
  if (!wasm) {
    const { runInThread } = await import('./sandbox-thread.js');
    return runInThread({ program, ...rest });
  }
  const [{ stripTypes }, { runInSandbox, unparsed }] = await Promise.all([
    import('./strip-types.js'),
    import('./sandbox.js'),
  ]);
  const stripped = stripTypes(program);
  if (!stripped.ok) return unparsed(stripped);
  return runInSandbox({ code: stripped.code, wasm, ...rest });
}

let running = 0;

/** A place for one more program, or undefined when `max` run already; `release` gives it back. */
export function takeProgramSlot(max: number): { release: () => void } | undefined {
  if (running >= max) return undefined;
  running += 1;
  let released = false;
  return {
    release: () => {
      if (!released) running -= 1;
      released = true;
    },
  };
}
