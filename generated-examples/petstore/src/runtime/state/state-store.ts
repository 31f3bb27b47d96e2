/**
 * The state a server shares with its other replicas (MCP_STATE_URL): which confirmation states were used,
 * the list_changed events, and the upstream's client-credentials tokens. Without MCP_STATE_URL the store is
 * this process's memory: confirmations are still one-time (within the process), events reach this process's
 * clients only, and each process fetches its own tokens.
 *
 * Redis is loaded only when MCP_STATE_URL is set (redis-state.ts), and only by targets that can open TCP
 * connections (Node, Lambda, Deno, Bun): Workers refuse to start rather than silently keep their state per isolate.
 */
import type { ServerEventBus } from '@modelcontextprotocol/server';
import type { Logger } from '../server/log.js';

/** A key-value store with expiry: the few operations the shared state needs, atomic each. */
export interface StateStore {
  /** Stores `value` under `key` for `ttlMs` unless the key exists; true when it stored it. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes `key` if it still holds `value` (a lock released by its holder only). */
  deleteIfEquals(key: string, value: string): Promise<void>;
  /**
   * A value that changes when the store loses its keys (Redis restarted without them): what was recorded
   * under one epoch is known only while it lasts.
   */
  epoch(): Promise<string>;
}

export interface SharedState {
  readonly store: StateStore;
  /** True when the store is shared by the replicas (Redis), false for this process's memory. */
  readonly shared: boolean;
  /** The list_changed events across replicas; absent: the SDK's in-process bus. */
  readonly bus?: ServerEventBus;
  close(): Promise<void>;
}

export interface RedisStateSettings {
  url: string;
  /** Prepended to every key and channel, so servers sharing one Redis do not see each other's state. */
  prefix: string;
  log: Logger;
}

/** redis-state.ts, loaded on demand by the targets that can run its client. */
export type RedisStateModule = { openRedisState(settings: RedisStateSettings): Promise<SharedState> };
export type RedisStateLoader = () => Promise<RedisStateModule>;

/**
 * The process's shared state: Redis when `url` is set, else `local` (this process's memory). `loadRedis` is absent on a target whose
 * runtime cannot open a TCP connection (Cloudflare Workers): there a configured URL stops the start.
 */
export async function openSharedState(
  url: string | undefined,
  prefix: string,
  log: Logger,
  loadRedis: RedisStateLoader | undefined,
  local: StateStore,
): Promise<SharedState> {
  if (url === undefined) return memoryState(local);
  if (!loadRedis) throw new Error(UNSUPPORTED_TARGET);
  const { openRedisState } = await loadRedis();
  return openRedisState({ url, prefix, log });
}

const UNSUPPORTED_TARGET =
  'MCP_STATE_URL is set, but this deployment target does not load the Redis client: Cloudflare Workers cannot open the TCP connections it needs. Unset MCP_STATE_URL to keep the state per isolate (docs/deploy.md: "Several replicas"), or serve with Node (npm run start:http, Docker, Kubernetes), Deno, Bun or AWS Lambda.';

export function memoryState(store: StateStore): SharedState {
  return { store, shared: false, close: async () => {} };
}

/** How many writes between two sweeps of the expired keys: memory stays bounded without a timer. */
const SWEEP_EVERY = 256;

/** The store of one process: a map whose entries expire. */
export class MemoryStateStore implements StateStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  private writes = 0;
  /** The memory is lost only with the process, and the process's states with it. */
  private readonly started = crypto.randomUUID();

  constructor(private readonly now: () => number = Date.now) {}

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.live(key) !== undefined) return false;
    this.write(key, value, ttlMs);
    return true;
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.write(key, value, ttlMs);
  }

  async deleteIfEquals(key: string, value: string): Promise<void> {
    if (this.live(key) === value) this.entries.delete(key);
  }

  async epoch(): Promise<string> {
    return this.started;
  }

  /** Keys held now (expired ones swept): for tests. */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  private live(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  private write(key: string, value: string, ttlMs: number): void {
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (++this.writes % SWEEP_EVERY === 0) this.sweep();
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}

/** The error's message, for a log line (a Redis error never carries the URL's password). */
export function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
