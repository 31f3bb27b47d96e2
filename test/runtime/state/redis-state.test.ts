/**
 * The Redis store and event bus (templates/runtime/state/redis-state.ts) against a real redis-server started here:
 * usable as soon as it is opened, the epoch, events between two servers' buses, commands that fail instead of
 * queueing while Redis is down, and recovery when it is back.
 */
import type { ServerEvent } from '@modelcontextprotocol/server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { openRedisState } from '../../../templates/runtime/state/redis-state.js';
import type { SharedState } from '../../../templates/runtime/state/state-store.js';
import { startRedis, type RedisServer } from '../../helpers/redis-server.js';

const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
/** A bound on waiting for what comes in milliseconds, on a busy machine; never an assertion on time. */
const WAIT_MS = 20_000;

let redis: RedisServer;
const opened: SharedState[] = [];

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await redis?.stop();
});

async function open(prefix = 'test'): Promise<SharedState> {
  const state = await openRedisState({ url: redis.url, prefix, log: quiet });
  opened.push(state);
  return state;
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('openRedisState', () => {
  it('answers its first command at once: opening waits for the connection', async () => {
    const { store } = await open();
    expect(await store.setIfAbsent('first', '1', 60_000)).toBe(true);
    expect(await store.setIfAbsent('first', '2', 60_000)).toBe(false);
  });

  it('keeps keys under its prefix, so servers sharing a Redis do not see each other', async () => {
    const [a, b] = [await open('server-a'), await open('server-b')];
    expect(await a.store.setIfAbsent('k', 'a', 60_000)).toBe(true);
    expect(await b.store.setIfAbsent('k', 'b', 60_000)).toBe(true);
    const raw = new Redis(redis.url);
    try {
      expect(await raw.get('server-a:k')).toBe('a');
      expect(await raw.get('server-b:k')).toBe('b');
      const epoch = await a.store.epoch();
      expect(await a.store.epoch()).toBe(epoch);
      await raw.flushall();
      expect(await a.store.epoch()).not.toBe(epoch);
    } finally {
      raw.disconnect();
    }
  });

  it("delivers one replica's events to the other's listeners, and its own once", async () => {
    const [a, b] = [await open('bus'), await open('bus')];
    const seenByA: ServerEvent[] = [];
    const seenByB: ServerEvent[] = [];
    a.bus!.subscribe((e) => seenByA.push(e));
    b.bus!.subscribe((e) => seenByB.push(e));
    const raw = new Redis(redis.url);
    try {
      // Both subscribed before publishing: a message published before a SUBSCRIBE is not delivered.
      await until(async () => (await raw.pubsub('NUMSUB', 'bus:events'))[1] === 2);
      await raw.publish('bus:events', 'not json');
      await raw.publish('bus:events', JSON.stringify({ origin: 'x', event: { kind: 'something_else' } }));
      a.bus!.publish({ kind: 'tools_list_changed' });
      a.bus!.publish({ kind: 'resource_updated', uri: 'openapi://x' });
      await until(() => seenByB.length === 2);
      expect(seenByB).toEqual([{ kind: 'tools_list_changed' }, { kind: 'resource_updated', uri: 'openapi://x' }]);
      // A's listeners got A's events at once, and not again from the channel.
      b.bus!.publish({ kind: 'prompts_list_changed' });
      await until(() => seenByA.length === 3);
      expect(seenByA).toEqual([
        { kind: 'tools_list_changed' },
        { kind: 'resource_updated', uri: 'openapi://x' },
        { kind: 'prompts_list_changed' },
      ]);
    } finally {
      raw.disconnect();
    }
  });

  it('fails commands while Redis is down instead of queueing them, and works again once it is back', async () => {
    const { store } = await open('outage');
    await redis.stop();
    await expect(store.setIfAbsent('during', '1', 60_000)).rejects.toThrow();
    await expect(store.get('during')).rejects.toThrow();
    await redis.start();
    await until(() => store.setIfAbsent('after', '1', 60_000).catch(() => false));
    expect(await store.get('after')).toBe('1');
  });
});
