/**
 * One program's confirmation rounds (templates/runtime/code-mode/code-confirm.ts), driven by hand: which calls are
 * sent, replayed or stopped at, what the signed state records, and the re-runs it refuses to continue.
 * The whole flow with real clients is test/e2e/code-mode/code-confirm.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { InputResponseView } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import {
  MAX_STATE_BYTES,
  ProgramConfirmation,
  type CallStep,
  type ProgramState,
} from '../../../templates/runtime/code-mode/code-confirm.js';
import { programsMayAsk } from '../../../templates/runtime/contract/code-policy.js';
import type { StateUse } from '../../../templates/runtime/confirm/one-time-state.js';
import type { ApiAnswer } from '../../../templates/runtime/code-mode/sandbox.js';

const tool = (name: string, method: string, annotations: CatalogTool['annotations']) =>
  ({ name, annotations, request: { method, path: `/${name}` } }) as unknown as CatalogTool;
const getPet = tool('getPet', 'get', { readOnlyHint: true });
const addPet = tool('addPet', 'post', { readOnlyHint: false, destructiveHint: false });
const deletePet = tool('deletePet', 'delete', { destructiveHint: true });

const NO_ANSWER = { kind: 'none' } as unknown as InputResponseView;
const YES = { kind: 'elicit', action: 'accept', content: { confirm: true } } as unknown as InputResponseView;
const NO = { kind: 'elicit', action: 'decline' } as unknown as InputResponseView;
const PROGRAM = 'the program';

/**
 * A run; `minted` receives the state it signs when it stops to ask. `use`: what the gate's verify recorded of
 * the state it hands over (one-time-state.ts), its first use unless said.
 */
function run(
  state: unknown,
  answer: InputResponseView,
  options: { canAsk?: boolean; confirmed?: boolean; use?: StateUse } = {},
) {
  const minted: ProgramState[] = [];
  const confirmation = new ProgramConfirmation({
    policy: 'destructive',
    program: PROGRAM,
    canAsk: options.canAsk ?? true,
    confirmedByArgument: options.confirmed ?? false,
    state: state === undefined ? undefined : { ...(state as object), use: options.use ?? 'first' },
    answer,
    mint: async (s) => (minted.push(structuredClone(s)), 'signed'),
  });
  return { confirmation, minted };
}

/** Sends a step's call with this answer (as the server would), returning what the program gets. */
function settle(step: CallStep, answer: ApiAnswer): ApiAnswer | 'stop' {
  if (step.kind === 'stop') return 'stop';
  if (step.kind === 'answer') return step.answer;
  step.settle(answer);
  return answer;
}

const created: ApiAnswer = { ok: true, json: '{"id":99}' };

describe('ProgramConfirmation', () => {
  it('stops at a destructive call, recording the write before it; the accepted re-run replays the write and sends the call', async () => {
    const first = run(undefined, NO_ANSWER);
    expect(first.confirmation.step(getPet, { id: 1 }).kind).toBe('send');
    settle(first.confirmation.step(addPet, { name: 'n' }), created);
    expect(first.confirmation.step(deletePet, { id: 99 })).toEqual({ kind: 'stop' });
    expect(await first.confirmation.result()).toMatchObject({ resultType: 'input_required', requestState: 'signed' });
    const [state] = first.minted;
    expect(state!.settled).toEqual([{ call: expect.any(String), answer: created }, { call: expect.any(String) }]);

    const second = run(state, YES);
    expect(second.confirmation.step(getPet, { id: 1 }).kind).toBe('send'); // reads are made again
    expect(second.confirmation.step(addPet, { name: 'n' })).toEqual({ kind: 'answer', answer: created });
    expect(second.confirmation.step(deletePet, { id: 99 }).kind).toBe('send');
    // The approval was for that one call: the same call again is asked about again.
    expect(second.confirmation.step(deletePet, { id: 99 })).toEqual({ kind: 'stop' });
  });

  it('a state used before, or that the store could not check, stops the re-run at its first call: nothing is sent', async () => {
    const first = run(undefined, NO_ANSWER);
    settle(first.confirmation.step(addPet, { name: 'n' }), created);
    first.confirmation.step(deletePet, { id: 99 });
    await first.confirmation.result();
    const [state] = first.minted;
    for (const [use, says] of [
      ['replayed', 'was already used'],
      ['unavailable', 'shared state store (MCP_STATE_URL) cannot be reached'],
    ] as const) {
      const replay = run(state, YES, { use });
      expect(replay.confirmation.step(getPet, { id: 1 })).toEqual({ kind: 'stop' });
      expect(replay.confirmation.step(addPet, { name: 'n' }).kind).toBe('answer');
      expect(replay.confirmation.step(deletePet, { id: 99 }).kind).toBe('answer');
      const result = JSON.stringify(await replay.confirmation.result());
      expect(result).toContain(says);
      expect(result).toContain('Nothing was sent to the API');
      expect(replay.minted).toEqual([]);
    }
  });

  it('a declined call answers the refusal on the re-run, which the next question carries on', async () => {
    const first = run(undefined, NO_ANSWER);
    first.confirmation.step(deletePet, { id: 1 });
    await first.confirmation.result();
    const second = run(first.minted[0], NO);
    const refused = second.confirmation.step(deletePet, { id: 1 });
    expect(refused).toMatchObject({ kind: 'answer', answer: { ok: false } });
    expect((refused as { answer: { message: string } }).answer.message).toMatch(/^Not sent: the user did not allow/);
    expect(second.confirmation.step(deletePet, { id: 2 })).toEqual({ kind: 'stop' });
    await second.confirmation.result();
    expect(second.minted[0]!.settled).toHaveLength(2);
    expect(second.minted[0]!.settled[0]!.answer).toMatchObject({ ok: false });
  });

  it('stops a re-run whose calls with side effects differ from the recorded ones, sending nothing more', async () => {
    const first = run(undefined, NO_ANSWER);
    settle(first.confirmation.step(addPet, { name: 'n' }), created);
    first.confirmation.step(deletePet, { id: 99 });
    await first.confirmation.result();
    const second = run(first.minted[0], YES);
    expect(second.confirmation.step(addPet, { name: 'other' })).toEqual({ kind: 'stop' });
    expect(second.confirmation.step(getPet, { id: 1 }).kind).toBe('answer');
    const result = await second.confirmation.result();
    expect(result).toMatchObject({ isError: true });
    expect(JSON.stringify(result)).toContain('made other calls with side effects than before the question');
  });

  it('ignores a state of another program, or an answer without a state', () => {
    const first = run({ program: 'another digest', settled: [{ call: 'x' }] }, YES);
    expect(first.confirmation.step(deletePet, { id: 1 })).toEqual({ kind: 'stop' });
    const second = run(undefined, YES);
    expect(second.confirmation.step(deletePet, { id: 1 })).toEqual({ kind: 'stop' });
  });

  it('refuses to carry more than MAX_STATE_BYTES of recorded answers through a question', async () => {
    const { confirmation, minted } = run(undefined, NO_ANSWER);
    settle(confirmation.step(addPet, { name: 'n' }), { ok: true, json: JSON.stringify('x'.repeat(MAX_STATE_BYTES)) });
    confirmation.step(deletePet, { id: 1 });
    expect(JSON.stringify(await confirmation.result())).toContain('too much to carry through the question');
    expect(minted).toEqual([]);
  });

  it('without elicitation: refuses the call with the fallback, or sends it once the program is confirmed', () => {
    const refused = run(undefined, NO_ANSWER, { canAsk: false }).confirmation.step(deletePet, { id: 1 });
    expect(JSON.stringify(refused)).toContain(`run the same program again with execute's \\"confirm\\": true`);
    const confirmed = run(undefined, NO_ANSWER, { canAsk: false, confirmed: true });
    expect(confirmed.confirmation.step(deletePet, { id: 1 }).kind).toBe('send');
  });
});

describe('programsMayAsk', () => {
  it('is true only when a call the write policy allows is one the confirmation policy asks about', () => {
    const tools = [getPet, addPet, deletePet];
    expect(programsMayAsk('destructive', 'read', tools)).toBe(false);
    expect(programsMayAsk('destructive', 'write', tools)).toBe(false);
    expect(programsMayAsk('writes', 'write', tools)).toBe(true);
    expect(programsMayAsk('destructive', 'destructive', tools)).toBe(true);
    expect(programsMayAsk('never', 'destructive', tools)).toBe(false);
  });
});
