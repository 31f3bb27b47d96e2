/**
 * The state shared by the replicas in Redis (MCP_STATE_URL), loaded only when it is set (state-store.ts).
 *
 * Redis going away must neither stall nor crash the server: commands are not queued while the connection is
 * down (they fail at once, and a confirmation is then refused: fail closed), each command has a deadline, and
 * the client reconnects by itself, so the server recovers when Redis returns. The log says when the store is
 * lost and when it is back, once each, not once per failed command.
 */
import { randomUUID } from 'node:crypto';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import { Redis, type RedisOptions } from 'ioredis';
import type { Logger } from '../server/log.js';
import { reasonOf, type RedisStateSettings, type SharedState, type StateStore } from './state-store.js';

/** A command that gets no answer within this is failed: a confirmation waits no longer than this for Redis. */
const COMMAND_TIMEOUT_MS = 2_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnection attempts back off up to this, and never stop. */
const MAX_RECONNECT_DELAY_MS = 2_000;

const CLIENT_OPTIONS: RedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: COMMAND_TIMEOUT_MS,
  connectTimeout: CONNECT_TIMEOUT_MS,
  retryStrategy: (attempt) => Math.min(attempt * 100, MAX_RECONNECT_DELAY_MS),
};

/** Sets KEYS[1] to ARGV[1] unless it exists, and returns its value, in one step. */
const GET_OR_SET = "redis.call('set', KEYS[1], ARGV[1], 'NX') return redis.call('get', KEYS[1])";
/** Deletes KEYS[1] only if it holds ARGV[1], in one step. */
const DELETE_IF_EQUALS = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Connects, waiting for the connections up to their connect timeout: a command sent before the first
 * connection is made would fail (nothing is queued), and refuse the first confirmation of a fresh process.
 * Redis unreachable at the start does not stop it: the server starts, refusing confirmations until it is back.
 */
export async function openRedisState({ url, prefix, log }: RedisStateSettings): Promise<SharedState> {
  const commands = connect(url, CLIENT_OPTIONS, 'commands', log);
  // A subscriber sends nothing but its SUBSCRIBE, which waits for the connection and is renewed on each reconnect.
  const subscriber = connect(
    url,
    {
      ...CLIENT_OPTIONS,
      enableOfflineQueue: true,
      maxRetriesPerRequest: null,
      commandTimeout: undefined,
    },
    'events',
    log,
  );
  await Promise.all([firstConnection(commands), firstConnection(subscriber)]);
  return {
    store: new RedisStateStore(commands, prefix),
    shared: true,
    bus: new RedisEventBus(commands, subscriber, `${prefix}:events`, log),
    close: async () => {
      await Promise.allSettled([commands.quit(), subscriber.quit()]);
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

function connect(url: string, options: RedisOptions, role: string, log: Logger): Redis {
  const client = new Redis(url, options);
  let lost = false;
  client.on('error', (error: unknown) => {
    if (lost) return;
    lost = true;
    log.warn('shared state store (MCP_STATE_URL) unreachable: confirmations are refused until it is back', {
      connection: role,
      error: reasonOf(error),
    });
  });
  client.on('ready', () => {
    if (lost) log.info('shared state store (MCP_STATE_URL) reachable again', { connection: role });
    lost = false;
  });
  return client;
}

function firstConnection(client: Redis): Promise<void> {
  if (client.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

class RedisStateStore implements StateStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.key(key), value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  async get(key: string): Promise<string | undefined> {
    return (await this.redis.get(this.key(key))) ?? undefined;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    await this.redis.set(this.key(key), value, 'PX', ttlMs);
  }

  async deleteIfEquals(key: string, value: string): Promise<void> {
    await this.redis.eval(DELETE_IF_EQUALS, 1, this.key(key), value);
  }

  /** A key without expiry: it is lost only with the others (Redis restarted empty, or flushed). */
  async epoch(): Promise<string> {
    return String(await this.redis.eval(GET_OR_SET, 1, this.key('epoch'), randomUUID()));
  }

  private key(key: string): string {
    return `${this.prefix}:${key}`;
  }
}

const EVENT_KINDS = new Set([
  'tools_list_changed',
  'prompts_list_changed',
  'resources_list_changed',
  'resource_updated',
]);

/**
 * The SDK's event bus across replicas: an event is delivered to this process's listen streams at once, and
 * published on a Redis channel for the other replicas, which deliver it to theirs. Each message names the
 * process that sent it, so a replica does not deliver its own events twice. An event published while Redis
 * is unreachable reaches this replica's clients only (logged); nothing is replayed later.
 */
class RedisEventBus implements ServerEventBus {
  private readonly local: InMemoryServerEventBus;
  private readonly origin = randomUUID();

  constructor(
    private readonly publisher: Redis,
    subscriber: Redis,
    private readonly channel: string,
    private readonly log: Logger,
  ) {
    this.local = new InMemoryServerEventBus((error) =>
      log.warn('list_changed listener failed', { error: error.message }),
    );
    subscriber.subscribe(channel).catch((error: unknown) => this.warn('subscribe', error));
    subscriber.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      const event = this.foreignEvent(message);
      if (event) this.local.publish(event);
    });
  }

  publish(event: ServerEvent): void {
    this.local.publish(event);
    this.publisher
      .publish(this.channel, JSON.stringify({ origin: this.origin, event }))
      .catch((error: unknown) => this.warn('publish', error));
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    return this.local.subscribe(listener);
  }

  /** An event another replica published; anything else on the channel (this one's own, or junk) is dropped. */
  private foreignEvent(message: string): ServerEvent | undefined {
    let parsed: { origin?: unknown; event?: { kind?: unknown; uri?: unknown } };
    try {
      parsed = JSON.parse(message) as typeof parsed;
    } catch {
      return undefined;
    }
    const { origin, event } = parsed;
    if (origin === this.origin || typeof event?.kind !== 'string' || !EVENT_KINDS.has(event.kind)) return undefined;
    if (event.kind === 'resource_updated')
      return typeof event.uri === 'string' ? { kind: 'resource_updated', uri: event.uri } : undefined;
    return { kind: event.kind as Exclude<ServerEvent['kind'], 'resource_updated'> };
  }

  private warn(step: string, error: unknown): void {
    this.log.warn(`list_changed could not ${step} on the shared state store: other replicas' clients miss it`, {
      error: reasonOf(error),
    });
  }
}
