/**
 * The replicas' one cache of client-credentials tokens (MCP_STATE_URL): a replica that has no fresh token
 * reads the shared one; when there is none, the one replica that takes a short lock fetches it and stores it,
 * and the others wait for that token instead of each asking the token endpoint. The store is a help, never a
 * dependency: when it cannot be reached the token is fetched locally, as a single process does.
 *
 * The token is kept in the store until it expires: whoever can read the store can call the API with it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from '../server/log.js';
import type { CachedToken, SharedTokenCache } from './oauth-client.js';
import { reasonOf, type StateStore } from '../state/state-store.js';

export interface SharedTokenOptions {
  /** Budget of one token request: the lock lasts a little longer, and so does the wait for another's token. */
  timeoutMs: number;
  /** How often a waiting replica looks for the token (default 50 ms). */
  pollMs?: number;
  now?: () => number;
}

/** The lock outlives the token request's budget, so a replica that died holding it frees it soon after. */
const LOCK_MARGIN_MS = 1_000;

export function sharedTokenCache(store: StateStore, log: Logger, options: SharedTokenOptions): SharedTokenCache {
  const now = options.now ?? Date.now;
  const pollMs = options.pollMs ?? 50;
  const lockMs = options.timeoutMs + LOCK_MARGIN_MS;
  const unavailable = (error: unknown) =>
    log.warn('shared token cache (MCP_STATE_URL) unavailable: the token is fetched by this replica', {
      error: reasonOf(error),
    });

  const read = async (key: string): Promise<CachedToken | undefined> => {
    const entry = parseToken(await store.get(key));
    return entry && now() < entry.refreshAt ? entry : undefined;
  };

  /** Another replica holds the lock: its token, once stored, or undefined when it gave up or took too long. */
  const awaitOthers = async (key: string): Promise<CachedToken | undefined> => {
    const deadline = now() + lockMs;
    while (now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      const entry = await read(key);
      if (entry) return entry;
      if ((await store.get(lockOf(key))) === undefined) return read(key);
    }
    return undefined;
  };

  return {
    obtain: async (cacheKey, fetchToken) => {
      const key = tokenKey(cacheKey);
      const holder = randomUUID();
      let locked: boolean;
      try {
        const cached = await read(key);
        if (cached) return cached;
        locked = await store.setIfAbsent(lockOf(key), holder, lockMs);
        if (!locked) {
          const theirs = await awaitOthers(key);
          if (theirs) return theirs;
        }
      } catch (error) {
        unavailable(error);
        return fetchToken();
      }
      if (!locked) return fetchToken();
      try {
        const entry = await fetchToken();
        await store.set(key, JSON.stringify(entry), Math.max(1, entry.expiresAt - now())).catch(unavailable);
        return entry;
      } finally {
        store.deleteIfEquals(lockOf(key), holder).catch(() => {});
      }
    },
    forget: (cacheKey, token) => {
      const key = tokenKey(cacheKey);
      void (async () => {
        const stored = await store.get(key);
        if (parseToken(stored)?.token === token) await store.deleteIfEquals(key, stored!);
      })().catch(unavailable);
    },
  };
}

/** The cache key names the client and a hash of its secret: hashed again, it says nothing in the store. */
function tokenKey(cacheKey: string): string {
  return `token:${createHash('sha256').update(cacheKey).digest('base64url')}`;
}

function lockOf(key: string): string {
  return `${key}:lock`;
}

function parseToken(text: string | undefined): CachedToken | undefined {
  if (text === undefined) return undefined;
  try {
    const entry = JSON.parse(text) as Partial<CachedToken>;
    const valid =
      typeof entry.token === 'string' && typeof entry.refreshAt === 'number' && typeof entry.expiresAt === 'number';
    return valid ? (entry as CachedToken) : undefined;
  } catch {
    return undefined;
  }
}
