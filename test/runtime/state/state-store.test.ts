/**
 * The state a server keeps for its confirmations and tokens (templates/runtime/state/state-store.ts,
 * one-time-state.ts, shared-tokens.ts) with the in-memory store: the same code paths Redis serves across
 * replicas (test/e2e/deploy/shared-state.test.ts).
 */
import { createRequestStateCodec, type ServerContext } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { ClientCredentialsTokens, type TokenRequest } from '../../../templates/runtime/upstream-auth/oauth-client.js';
import { oneTimeStates, reuseRefusal, stateUse } from '../../../templates/runtime/confirm/one-time-state.js';
import { sharedTokenCache } from '../../../templates/runtime/upstream-auth/shared-tokens.js';
import { MemoryStateStore, openSharedState, type StateStore } from '../../../templates/runtime/state/state-store.js';
import { startOAuthServer, type OAuthServer } from '../../helpers/oauth-server.js';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

function memoryLog() {
  const lines: Array<{ level: string; message: string }> = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  const log = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  return { log, lines };
}

/** A store that cannot be reached: every operation fails, as Redis's do while it is down. */
const downStore: StateStore = {
  setIfAbsent: () => Promise.reject(new Error('Connection is closed.')),
  get: () => Promise.reject(new Error('Connection is closed.')),
  set: () => Promise.reject(new Error('Connection is closed.')),
  deleteIfEquals: () => Promise.reject(new Error('Connection is closed.')),
  epoch: () => Promise.reject(new Error('Connection is closed.')),
};

describe('MemoryStateStore', () => {
  it('stores a key once until it expires, then again', async () => {
    const time = clock();
    const store = new MemoryStateStore(time.now);
    expect(await store.setIfAbsent('k', 'a', 1000)).toBe(true);
    expect(await store.setIfAbsent('k', 'b', 1000)).toBe(false);
    expect(await store.get('k')).toBe('a');
    time.advance(1000);
    expect(await store.get('k')).toBeUndefined();
    expect(await store.setIfAbsent('k', 'c', 1000)).toBe(true);
  });

  it('deletes a key only while it holds the value given', async () => {
    const store = new MemoryStateStore();
    await store.set('lock', 'mine', 1000);
    await store.deleteIfEquals('lock', 'theirs');
    expect(await store.get('lock')).toBe('mine');
    await store.deleteIfEquals('lock', 'mine');
    expect(await store.get('lock')).toBeUndefined();
  });

  it('forgets expired keys without being read: memory stays bounded', async () => {
    const time = clock();
    const store = new MemoryStateStore(time.now);
    for (let i = 0; i < 1000; i++) await store.setIfAbsent(`k${i}`, '1', 10);
    time.advance(10);
    for (let i = 0; i < 300; i++) await store.setIfAbsent(`n${i}`, '1', 10_000);
    expect(store.size).toBe(300);
  });
});

describe('openSharedState', () => {
  it('is this process memory without MCP_STATE_URL, and refuses a URL on a target that cannot load Redis', async () => {
    const local = new MemoryStateStore();
    const { log } = memoryLog();
    const state = await openSharedState(undefined, 'p', log, undefined, local);
    expect(state).toMatchObject({ store: local, shared: false });
    expect(state.bus).toBeUndefined();
    await expect(openSharedState('redis://127.0.0.1:1', 'p', log, undefined, local)).rejects.toThrow(
      /MCP_STATE_URL is set, but this deployment target does not load the Redis client: Cloudflare Workers cannot/,
    );
  });
});

describe('one-time request states', () => {
  const ctx = { http: { authInfo: { clientId: 'c' } } } as unknown as ServerContext;
  const codec = () => createRequestStateCodec<object>({ key: 'k'.repeat(32), ttlSeconds: 600 });

  it('a state is taken on its first verification only, here or by another server sharing the store', async () => {
    const store = new MemoryStateStore();
    const one = oneTimeStates(codec(), store, 600);
    const other = oneTimeStates(codec(), store, 600);
    const state = await one.mint({ tool: 'deletePet', args: 'x' }, ctx);
    const first = await other.verify(state, ctx);
    expect(first).toMatchObject({ tool: 'deletePet', args: 'x' });
    expect(stateUse(first)).toBe('first');
    expect(reuseRefusal(first, 'deletePet', 'call it again')).toBeUndefined();
    for (const gate of [one, other]) {
      const again = await gate.verify(state, ctx);
      expect(stateUse(again)).toBe('replayed');
      expect(reuseRefusal(again, 'deletePet (DELETE /pet/1)', 'call deletePet again')).toMatch(
        /^Not sent: this confirmation of deletePet \(DELETE \/pet\/1\) was already used.*Nothing was sent to the API/,
      );
    }
  });

  it('two states for the same call are independent', async () => {
    const gate = oneTimeStates(codec(), new MemoryStateStore(), 600);
    const [a, b] = await Promise.all([gate.mint({ tool: 't' }, ctx), gate.mint({ tool: 't' }, ctx)]);
    expect(stateUse(await gate.verify(a, ctx))).toBe('first');
    expect(stateUse(await gate.verify(b, ctx))).toBe('first');
  });

  it('fails closed: a store that cannot be reached takes no state, with an error saying so', async () => {
    const minting = oneTimeStates(codec(), new MemoryStateStore(), 600);
    const state = await minting.mint({ tool: 't' }, ctx);
    const verified = await oneTimeStates(codec(), downStore, 600).verify(state, ctx);
    expect(stateUse(verified)).toBe('unavailable');
    expect(reuseRefusal(verified, 't', 'call t again')).toMatch(
      /could not be checked as unused, because the shared state store \(MCP_STATE_URL\) cannot be reached\. Nothing was sent/,
    );
  });

  it('refuses a state minted before the store lost its records (a restarted Redis)', async () => {
    let store = new MemoryStateStore();
    const restartable: StateStore = {
      setIfAbsent: (...args) => store.setIfAbsent(...args),
      get: (key) => store.get(key),
      set: (...args) => store.set(...args),
      deleteIfEquals: (...args) => store.deleteIfEquals(...args),
      epoch: () => store.epoch(),
    };
    const gate = oneTimeStates(codec(), restartable, 600);
    const used = await gate.mint({ tool: 't' }, ctx);
    const unused = await gate.mint({ tool: 't' }, ctx);
    expect(stateUse(await gate.verify(used, ctx))).toBe('first');
    store = new MemoryStateStore();
    for (const state of [used, unused]) {
      const verified = await gate.verify(state, ctx);
      expect(stateUse(verified)).toBe('stale');
      expect(reuseRefusal(verified, 't', 'call t again')).toMatch(/lost its records.*Nothing was sent.*Call t again/);
    }
    expect(stateUse(await gate.verify(await gate.mint({ tool: 't' }, ctx), ctx))).toBe('first');
  });

  it('refuses a state signed without a nonce (minted before states were one-time), and anything verify did not see', async () => {
    const signed = codec();
    const legacy = await signed.mint({ tool: 't' }, ctx);
    expect(stateUse(await oneTimeStates(signed, new MemoryStateStore(), 600).verify(legacy, ctx))).toBe('replayed');
    expect(reuseRefusal({ tool: 't' }, 't', 'call t again')).toContain('was already used');
    expect(reuseRefusal(undefined, 't', 'call t again')).toContain('was already used');
  });

  it('leaves a forged state to the signature check', async () => {
    const gate = oneTimeStates(codec(), new MemoryStateStore(), 600);
    const state = await gate.mint({ tool: 't' }, ctx);
    await expect(gate.verify(`${state.slice(0, -2)}AA`, ctx)).rejects.toThrow();
  });
});

describe('the token cache shared by replicas', () => {
  let as: OAuthServer;
  let request: TokenRequest;
  beforeAll(async () => {
    as = await startOAuthServer();
  });
  afterAll(async () => {
    await as?.close();
  });
  beforeEach(() => {
    as.requests.length = 0;
    as.onToken((_req, n) => ({ body: { access_token: `at-${n}`, token_type: 'Bearer', expires_in: 3600 } }));
    request = { tokenUrl: `${as.url}/token`, clientId: 'client', clientSecret: 'secret', scopes: [] };
  });

  const replica = (store: StateStore, log: Logger) =>
    new ClientCredentialsTokens({ timeoutMs: 5000, shared: sharedTokenCache(store, log, { timeoutMs: 5000 }) });

  it('three replicas missing the cache at the same moment make one token request', async () => {
    const store = new MemoryStateStore();
    const { log } = memoryLog();
    const replicas = [replica(store, log), replica(store, log), replica(store, log)];
    const tokens = await Promise.all(replicas.map((r) => r.token(request)));
    expect(tokens).toEqual(['at-1', 'at-1', 'at-1']);
    expect(as.requests).toHaveLength(1);
    // A replica started later reads the stored token.
    expect(await replica(store, log).token(request)).toBe('at-1');
    expect(as.requests).toHaveLength(1);
  });

  it('a token the API refused is dropped for every replica', async () => {
    const store = new MemoryStateStore();
    const { log } = memoryLog();
    const [a, b] = [replica(store, log), replica(store, log)];
    expect(await a.token(request)).toBe('at-1');
    a.invalidate(request, 'at-1');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await b.token(request)).toBe('at-2');
  });

  it('fetches locally, with a warning, when the store cannot be reached', async () => {
    const { log, lines } = memoryLog();
    expect(await replica(downStore, log).token(request)).toBe('at-1');
    expect(as.requests).toHaveLength(1);
    expect(lines).toContainEqual({
      level: 'warn',
      message: 'shared token cache (MCP_STATE_URL) unavailable: the token is fetched by this replica',
    });
  });

  it('a replica whose token request fails lets the others fetch their own', async () => {
    const store = new MemoryStateStore();
    const { log } = memoryLog();
    as.onToken((_req, n) =>
      n === 1 ? { status: 500, body: {} } : { body: { access_token: `at-${n}`, expires_in: 60 } },
    );
    const results = await Promise.allSettled([replica(store, log).token(request), replica(store, log).token(request)]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
  });
});
