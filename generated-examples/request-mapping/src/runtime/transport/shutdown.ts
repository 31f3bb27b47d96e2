/**
 * Graceful shutdown: count the requests in flight, wait (bounded) until they are done, and run that on the
 * first SIGTERM/SIGINT. A second signal means "now": the process exits at once.
 */
import type { Logger } from '../server/log.js';

/** Counts unfinished requests and tells a waiter when the count reaches zero. */
export class InflightRequests {
  private count = 0;
  private waiters: Array<() => void> = [];

  get size(): number {
    return this.count;
  }

  /** Counts `work` until it settles (whether it succeeds or fails). */
  track(work: Promise<unknown>): void {
    this.count++;
    void work.then(
      () => this.finishOne(),
      () => this.finishOne(),
    );
  }

  /** Resolves true once nothing is in flight, or false when `timeoutMs` passes first. */
  waitUntilIdle(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter !== done);
        resolve(false);
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve(true);
      };
      this.waiters.push(done);
    });
  }

  private finishOne(): void {
    this.count--;
    if (this.count > 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }
}

const SHUTDOWN_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `shutdown` on the first SIGTERM or SIGINT, then exits 0 (1 if it failed). Exiting is explicit
 * because timers and keep-alive sockets elsewhere could otherwise keep the process alive.
 */
export function exitGracefullyOnSignals(shutdown: () => Promise<void>, log: Logger): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      log.warn('second shutdown signal: exiting without waiting', { signal });
      process.exit(1);
    }
    started = true;
    log.info('shutting down', { signal });
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error('shutdown failed', { error: error instanceof Error ? error.message : String(error) });
        process.exit(1);
      },
    );
  };
  for (const signal of SHUTDOWN_SIGNALS) process.on(signal, onSignal);
}
