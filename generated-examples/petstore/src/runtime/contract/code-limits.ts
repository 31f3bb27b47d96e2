/**
 * Code mode's defaults and the settings one `execute` runs under. Free of other imports: the environment
 * table (environment.ts) documents these defaults, and the generator writes that table into the README.
 */
import type { CodeAllow } from './catalog.js';

export interface CodeSettings {
  /** Which operations `api.*` may call (code-policy.ts). */
  allow: CodeAllow;
  /** Wall time of one program, its API calls included. */
  timeoutMs: number;
  /** Memory the program's sandbox may allocate. */
  memoryMb: number;
  /** `api.*` calls one program may make. */
  maxCalls: number;
  /** Bytes of the program's result (and of its logs) returned to the model. */
  maxResultBytes: number;
  /** Bytes of a program's text: a longer one is refused before it is parsed. */
  maxProgramBytes: number;
  /** Programs running at once in this server process; one more is refused (the caller may retry). */
  maxPrograms: number;
}

/**
 * The longest stretch a program may compute without waiting on a call that went upstream (compute-clock.ts).
 * Reshaping API answers takes milliseconds; this cuts off a loop that runs on. Where threads exist, programs
 * run off the server's event loop (program-runner.ts); on Workers they share the request's thread.
 */
export const MAX_COMPUTE_MS = 2_000;

/**
 * Reads only, unless the owner allows more: a program runs many calls the client never sees one by one.
 * 60 s leaves room for a few dozen upstream calls; 64 MiB is far more than a program that reshapes API
 * answers needs, and little for a server; 50 calls covers paging through a few hundred items; the result
 * cap matches API_MAX_RESPONSE_BYTES (about 25k tokens); 200 kB of program is a few thousand lines, far past
 * what a model writes, and stripping its types takes well under a second; four programs at once bound the
 * process's memory to about four times the memory cap plus the workers' own (sandbox-thread.ts).
 */
export const CODE_MODE_DEFAULTS: CodeSettings = {
  allow: 'read',
  timeoutMs: 60_000,
  memoryMb: 64,
  maxCalls: 50,
  maxResultBytes: 100_000,
  maxProgramBytes: 200_000,
  maxPrograms: 4,
};
