/**
 * The user confirms the calls a code-mode program makes, under the policy of tool calls (MCP_CONFIRM,
 * confirm-policy.ts) and through the same elicitation and signed request state (confirm.ts).
 *
 * A program cannot wait for the answer: on 2026-07-28 the answer comes in a retry of the whole tools/call
 * (`input_required`, then the same call with the answer and the request state), the SDK's 2025-11-25 shim
 * re-enters the handler the same way, and a stateless server (or another replica) keeps nothing of the first
 * run. So the program stops at the call that needs the user, and the retry runs it again from the start,
 * with a signed state that makes the second run safe:
 * - `program`: the digest of the program's text; the state is good for that program only;
 * - `settled`: every call with side effects (not read-only) the program made before the question, in
 *   order, as the digest of its name and arguments and the answer it got. The re-run does not send these
 *   again: each gets its recorded answer, so no write is made twice. Reads are sent again (they change
 *   nothing), so a program makes its reads once more per question;
 * - the question's call, recorded as accepted or declined with the answer. Accepted, the re-run sends exactly
 *   that call (same operation, same arguments) once; declined, that call throws inside the program, which
 *   can catch it, and nothing is sent.
 * Each state is good for one re-run (one-time-state.ts): sent again, the program is stopped at its first call
 * and nothing is sent. A re-run whose calls with side effects differ from the recorded ones (the program depends on the time, or
 * a read answered differently) is stopped before it sends anything more. A client that cannot be asked gets
 * the fallback of tool calls: the call throws, saying what to ask, and once the user agreed the program can
 * be run again with execute's `confirm: true`.
 */
import {
  inputRequired,
  inputResponse,
  type InputRequiredResult,
  type InputResponseView,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CatalogTool, ConfirmPolicy } from '../contract/catalog.js';
import { operationKind } from '../contract/code-policy.js';
import {
  canElicit,
  CONFIRM_KEY,
  declinedMessage,
  digest,
  operationLabel,
  question,
  type ConfirmGate,
} from '../confirm/confirm.js';
import { needsConfirmation } from '../contract/confirm-policy.js';
import { reuseRefusal } from '../confirm/one-time-state.js';
import type { ToolResult } from '../upstream/response.js';
import type { ApiAnswer } from './sandbox.js';

/** The request state of a program waiting for the user (signed, but readable by the client: no secrets). */
export interface ProgramState {
  /** Digest of the program's text. */
  program: string;
  /** The calls with side effects so far, in order; the last one is the question's, without an answer. */
  settled: Array<{ call: string; answer?: ApiAnswer }>;
}

/** A call an earlier run settled, as this run replays it. */
interface Replayed {
  /** Digest of `{ name, args }`. */
  call: string;
  answer?: ApiAnswer;
  /** The user's answer to the question about this call, when it was not yes. */
  declined?: 'accept' | 'decline' | 'cancel';
}

/**
 * The recorded answers travel to the client and back with each question: past this the program is asked to
 * make its writes in smaller programs.
 */
export const MAX_STATE_BYTES = 64 * 1024;

/** What one `api.*` call does under confirmation. */
export type CallStep =
  /** Send it; `settle` records its answer for the re-runs. */
  | { kind: 'send'; settle: (answer: ApiAnswer) => void }
  /** Do not send it: the program gets this answer (recorded earlier, or a refusal). */
  | { kind: 'answer'; answer: ApiAnswer }
  /** Stop the program here: `result()` says why (a question for the user, or a re-run that diverged). */
  | { kind: 'stop' };

export interface ProgramConfirmationOptions {
  policy: ConfirmPolicy;
  program: string;
  /** The client can be asked (form elicitation). */
  canAsk: boolean;
  /** The fallback: a client that cannot be asked passed `confirm: true` once the user agreed. */
  confirmedByArgument: boolean;
  /** The verified request state of this retry, if any (ctx.mcpReq.requestState()). */
  state: unknown;
  /** The user's answer in this retry (inputResponse(…, CONFIRM_KEY)). */
  answer: InputResponseView;
  /** Signs a state for this caller (ConfirmGate.mintState). */
  mint: (state: ProgramState) => Promise<string>;
}

type Stop = { ask: { tool: CatalogTool; args: Record<string, unknown>; call: string } } | { error: string };

const NOT_RECORDED = () => {};

/**
 * The confirmation of one execute request's program, from the request's context; undefined when the
 * policy never asks. `confirmed`: execute's fallback argument (`confirm: true`).
 */
export function programConfirmation(
  gate: ConfirmGate,
  policy: ConfirmPolicy,
  ctx: ServerContext,
  server: Server,
  confirmed: unknown,
): ((program: string) => ProgramConfirmation) | undefined {
  if (!gate.asks) return undefined;
  return (program) =>
    new ProgramConfirmation({
      policy,
      program,
      canAsk: canElicit(ctx, server),
      confirmedByArgument: confirmed === true,
      state: ctx.mcpReq.requestState(),
      answer: inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY),
      mint: (state) => gate.mintState(state, ctx),
    });
}

/** One run of one program: decides each call, and after a stop answers the question or the error. */
export class ProgramConfirmation {
  private readonly program: string;
  private readonly replay: Replayed[];
  /** This run's calls with side effects, in the order the program made them. */
  private readonly calls: Array<{ call: string; answer: Promise<ApiAnswer> }> = [];
  private stopped: Stop | undefined;

  /** Why the state this retry brings cannot be replayed (used before): the program is stopped at its first call. */
  private readonly refusal: string | undefined;

  constructor(private readonly options: ProgramConfirmationOptions) {
    this.program = digest(options.program);
    const replay = replayOf(options.state, this.program, options.answer);
    this.refusal =
      replay.length > 0
        ? reuseRefusal(options.state, 'the call this program stopped at', 'run the same program again')
        : undefined;
    this.replay = this.refusal === undefined ? replay : [];
  }

  /** Called for every allowed `api.*` call, in the order the program makes them. */
  step(tool: CatalogTool, args: Record<string, unknown>): CallStep {
    if (this.refusal !== undefined && !this.stopped) return this.stop({ error: this.refusal });
    if (this.stopped) return { kind: 'answer', answer: { ok: false, message: 'the program was stopped' } };
    if (operationKind(tool) === 'read') return { kind: 'send', settle: NOT_RECORDED };
    const call = digest({ name: tool.name, args });
    const replayed = this.replay[this.calls.length];
    if (replayed) {
      if (replayed.call !== call) return this.stop({ error: divergedMessage(tool) });
      if (replayed.declined) return this.answer(call, { ok: false, message: declinedMessage(tool, replayed.declined) });
      return replayed.answer ? this.answer(call, replayed.answer) : this.send(call); // no answer: the user said yes
    }
    const { policy, canAsk, confirmedByArgument } = this.options;
    if (!needsConfirmation(policy, tool) || (!canAsk && confirmedByArgument)) return this.send(call);
    if (!canAsk) return { kind: 'answer', answer: { ok: false, message: fallbackMessage(tool, args) } };
    return this.stop({ ask: { tool, args, call } });
  }

  /** Resolves once the calls with side effects in flight are answered: the program is stopped only then. */
  async settled(): Promise<void> {
    await Promise.all(this.calls.map((c) => c.answer));
  }

  /** After a stop: the question for the user (input_required), or the error of a re-run that diverged. */
  async result(): Promise<ToolResult | InputRequiredResult> {
    const stopped = this.stopped;
    if (!stopped) throw new Error('the program was not stopped by a confirmation');
    if ('error' in stopped) return toolError(stopped.error);
    const { tool, args, call } = stopped.ask;
    const settled: ProgramState['settled'] = [];
    for (const c of this.calls) settled.push({ call: c.call, answer: await c.answer });
    settled.push({ call });
    const state: ProgramState = { program: this.program, settled };
    if (JSON.stringify(state).length > MAX_STATE_BYTES) return toolError(tooMuchToCarryMessage(tool));
    return inputRequired({
      inputRequests: { [CONFIRM_KEY]: inputRequired.elicit(question(tool, args)) },
      requestState: await this.options.mint(state),
    });
  }

  private stop(why: Stop): CallStep {
    this.stopped = why;
    return { kind: 'stop' };
  }

  private answer(call: string, answer: ApiAnswer): CallStep {
    this.calls.push({ call, answer: Promise.resolve(answer) });
    return { kind: 'answer', answer };
  }

  private send(call: string): CallStep {
    let settle!: (answer: ApiAnswer) => void;
    this.calls.push({ call, answer: new Promise((resolve) => (settle = resolve)) });
    return { kind: 'send', settle };
  }
}

/**
 * What a retry brings to replay, the user's answer written into its last call. A state of another program,
 * or one a tool call's confirmation minted, brings nothing: the program runs as if for the first time.
 */
function replayOf(state: unknown, program: string, answer: InputResponseView): Replayed[] {
  if (!isProgramState(state) || state.program !== program) return [];
  const pending = state.settled.at(-1);
  if (!pending || pending.answer || answer.kind !== 'elicit') return [];
  const earlier = state.settled.slice(0, -1);
  const yes = answer.action === 'accept' && answer.content?.[CONFIRM_KEY] === true;
  return [...earlier, yes ? { call: pending.call } : { call: pending.call, declined: answer.action }];
}

function isProgramState(state: unknown): state is ProgramState {
  const candidate = state as Partial<ProgramState> | undefined;
  return typeof candidate?.program === 'string' && Array.isArray(candidate.settled);
}

function divergedMessage(tool: CatalogTool): string {
  return `The program was stopped at api.${tool.name} (${operationLabel(tool)}): run again after the user's answer, it made other calls with side effects than before the question (in another order, or with other arguments), so nothing more was sent. A program that needs a confirmation must make the same calls when it runs again: do not base them on the time or on random values.`;
}

function fallbackMessage(tool: CatalogTool, args: Record<string, unknown>): string {
  return `Not sent: api.${tool.name} (${operationLabel(tool)}) with ${JSON.stringify(args)} needs the user's confirmation, and this client cannot ask for it (it declares no elicitation). Ask the user whether to go ahead; only if they agree, run the same program again with execute's "confirm": true.`;
}

function tooMuchToCarryMessage(tool: CatalogTool): string {
  return `The program was stopped at api.${tool.name} (${operationLabel(tool)}), which needs the user's confirmation: the answers of the writes it made before are more than ${MAX_STATE_BYTES} bytes, too much to carry through the question. Make the writes and api.${tool.name} in separate programs.`;
}

function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
