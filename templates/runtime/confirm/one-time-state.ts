/**
 * A confirmation's request state is good for one retry. Signed and bound to the caller, it could otherwise be
 * sent again for its whole lifetime, to any replica, and each time the call it confirms would go through
 * again. Each state carries a random nonce; verifying it claims the nonce in the state store (SET NX: one
 * claim succeeds, on whichever replica), and the handler sees whether this use was the first.
 *
 * Fail closed: when the store cannot say (unreachable), the use counts as not the first, so the confirmation
 * is refused and nothing is sent. A claim that reached Redis but whose answer was lost is then seen as a
 * replay: the state is spent either way, never accepted twice. A state also names the store's epoch when it
 * was minted: a store that lost its claims since (Redis restarted empty) no longer knows which states were
 * used, so those states are refused too.
 */
import { randomBytes } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { StateStore } from '../state/state-store.js';

/** The payload fields this module adds: the nonce travels with the state, the use is set by verify only. */
const NONCE = 'nonce';
const EPOCH = 'epoch';
const USE = 'use';
const NONCE_BYTES = 16;
/** A claim outlives its state, whose expiry another replica's clock decides. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Whether a verified state was used for the first time, again, could not be checked, or was minted before
 * the store lost its records.
 */
export type StateUse = 'first' | 'replayed' | 'unavailable' | 'stale';

interface Codec {
  mint(payload: object, ctx: ServerContext): Promise<string>;
  verify(state: string, ctx: ServerContext): Promise<unknown>;
}

/** Wraps the signing codec: `mint` adds a nonce, `verify` claims it and records the outcome in the payload. */
export function oneTimeStates(codec: Codec, store: StateStore, ttlSeconds: number): Codec {
  const claimTtlMs = ttlSeconds * 1000 + CLOCK_SKEW_MS;
  const claim = async (nonce: unknown, epoch: unknown): Promise<StateUse> => {
    // A state without a nonce was minted before states were one-time: it cannot be claimed, so it is spent.
    if (typeof nonce !== 'string') return 'replayed';
    try {
      if (!(await store.setIfAbsent(`confirm:${nonce}`, '1', claimTtlMs))) return 'replayed';
      // Read after the claim: a store that lost its keys before or during the claim has a new epoch by now.
      return (await store.epoch()) === epoch ? 'first' : 'stale';
    } catch {
      return 'unavailable';
    }
  };
  return {
    mint: async (payload, ctx) => {
      // Unreachable now, the store cannot check the answer either: the state is minted all the same, and refused.
      const epoch = await store.epoch().catch(() => undefined);
      return codec.mint({ ...payload, [NONCE]: randomBytes(NONCE_BYTES).toString('base64url'), [EPOCH]: epoch }, ctx);
    },
    verify: async (state, ctx) => {
      const payload = (await codec.verify(state, ctx)) as Record<string, unknown>;
      return { ...payload, [USE]: await claim(payload[NONCE], payload[EPOCH]) };
    },
  };
}

/** The use `verify` recorded in a state it returned; undefined for anything else. */
export function stateUse(state: unknown): StateUse | undefined {
  const use = (state as Record<string, unknown> | undefined)?.[USE];
  return use === 'first' || use === 'replayed' || use === 'unavailable' || use === 'stale' ? use : undefined;
}

/**
 * Why a confirmation cannot be taken, or undefined when this is its first use. `subject`: what it confirmed
 * ("deletePet (DELETE /pet/{petId})"); `again`: how to be asked again.
 */
export function reuseRefusal(state: unknown, subject: string, again: string): string | undefined {
  switch (stateUse(state)) {
    case 'first':
      return undefined;
    case 'unavailable':
      return `Not sent: the confirmation of ${subject} could not be checked as unused, because the shared state store (MCP_STATE_URL) cannot be reached. Nothing was sent to the API. Try again in a moment: ${again}, and the user will be asked again.`;
    case 'stale':
      return `Not sent: the confirmation of ${subject} can no longer be checked as unused: the shared state store (MCP_STATE_URL) lost its records since the user was asked (it restarted). Nothing was sent to the API. ${capitalized(again)}: the user will be asked again.`;
    default:
      return `Not sent: this confirmation of ${subject} was already used, and a confirmation allows one call. Nothing was sent to the API. If the user wants it sent again, ${again}: the user will be asked again.`;
  }
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
