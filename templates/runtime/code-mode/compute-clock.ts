/**
 * How long a code-mode program has computed: the time it has not spent waiting on an API call that went
 * upstream. Calls that are answered without I/O (an unknown operation, one the policy refuses, one over the
 * call cap, a recorded confirmation) are the program's own work, so waiting on them does not end a stretch;
 * only resuming after a wait on a real request starts a new one. The same clock is read by the in-process
 * sandbox's interrupt handler and by the host thread that terminates a worker (sandbox-thread.ts).
 */
export class ComputeClock {
  /** Compute time of the current stretch before `since`. */
  private spent = 0;
  /** Calls sent upstream and not yet answered. */
  private upstream = 0;
  /** When the program last started computing; undefined while it waits on a request upstream. */
  private since: number | undefined;

  constructor(readonly limitMs: number) {}

  start(now = Date.now()): void {
    this.spent = 0;
    this.since = now;
  }

  private pause(now = Date.now()): void {
    if (this.since === undefined) return;
    this.spent += now - this.since;
    this.since = undefined;
  }

  /** After a wait on a request upstream, a new stretch begins. */
  private resume(afterUpstream: boolean, now = Date.now()): void {
    if (this.since !== undefined) return;
    if (afterUpstream) this.spent = 0;
    this.since = now;
  }

  /** A call of the program went upstream. */
  sent(): void {
    this.upstream += 1;
  }

  /** The program got the answer to a call (`upstream`: one that went upstream) and runs again. */
  answered(upstream: boolean, now = Date.now()): void {
    if (upstream) this.upstream -= 1;
    this.resume(upstream, now);
  }

  /** The engine ran out of work: when a call upstream is pending, the program waits on it. */
  idle(now = Date.now()): void {
    if (this.upstream > 0) this.pause(now);
  }

  get waiting(): boolean {
    return this.since === undefined;
  }

  /** Milliseconds left in this stretch (Infinity while waiting). */
  remaining(now = Date.now()): number {
    if (this.since === undefined) return Infinity;
    return this.limitMs - this.spent - (now - this.since);
  }
}
