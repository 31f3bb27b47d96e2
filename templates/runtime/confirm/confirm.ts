/**
 * The user confirms a call before it is sent (confirm-policy.ts says which calls). The server asks through
 * elicitation: on 2026-07-28 it answers the call with an `input_required` result holding the question and a
 * signed request state, and the client calls again with the user's answer and that state; on a 2025-11-25
 * connection the SDK's legacy shim asks with a real `elicitation/create` request and re-enters the same
 * handler. Either way there is one code path here.
 *
 * The request state binds the answer to this tool and these exact arguments (a SHA-256 of them) and to the
 * caller's identity, signed with HMAC-SHA256 (the SDK's codec); a state that fails verification is refused by
 * the SDK before the handler runs (-32602), one for other arguments makes the server ask again. A state is
 * good for one retry, on any replica (one-time-state.ts): sent again, it is refused and nothing is sent. A client that
 * cannot elicit (none declared, or a 2025-11-25 client over stateless HTTP, where no request can reach it)
 * gets the fallback: the tool lists an optional `confirm` argument, and a call without `confirm: true` is
 * refused with what to ask the user. Nothing is sent upstream until the answer is yes.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  inputRequired,
  inputResponse,
  type ClientCapabilities,
  type InputRequiredResult,
  type Server,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CatalogTool, ConfirmPolicy } from '../contract/catalog.js';
import { confirmArgumentName, needsConfirmation } from '../contract/confirm-policy.js';
import { oneTimeStates, reuseRefusal } from './one-time-state.js';
import type { ToolResult } from '../upstream/response.js';
import type { StateStore } from '../state/state-store.js';

/** The key of the one input request a confirmation makes, and of the boolean the user answers. */
export const CONFIRM_KEY = 'confirm';
/** A confirmation question is answered within minutes, or asked again. */
const STATE_TTL_SECONDS = 600;
/** HMAC-SHA256 keys shorter than its output are weaker than the hash; the SDK's codec refuses them. */
export const MIN_KEY_BYTES = 32;
const SHOWN_ARGUMENT_CHARS = 1_000;

interface ConfirmState {
  tool: string;
  /** SHA-256 (base64url) of the arguments' canonical JSON. */
  args: string;
}

export type ConfirmOutcome = { proceed: Record<string, unknown> } | { result: ToolResult | InputRequiredResult };

export interface ConfirmGate {
  /** Whether the policy can ask about any tool at all. */
  readonly asks: boolean;
  /**
   * ServerOptions.requestState.verify: refuses a state this server did not sign, or signed for another caller;
   * the payload it resolves with says whether this is the state's first use (one-time-state.ts).
   */
  verifyState: (state: string, ctx: ServerContext) => Promise<unknown>;
  /** Signs a request state for this caller (code mode's confirmations, code-confirm.ts, carry their own payload). */
  mintState: (payload: object, ctx: ServerContext) => Promise<string>;
  /** Whether tools/list shows this client the fallback `confirm` argument: some tool asks, and it cannot elicit. */
  listsConfirmArgument: (ctx: ServerContext, server: Server) => boolean;
  /**
   * The arguments to send (the fallback argument taken out), or the answer to give instead of sending.
   * Arguments that `invalid` refuses go on unasked: the call then fails validation, sending nothing.
   */
  check: (
    tool: CatalogTool,
    args: Record<string, unknown>,
    ctx: ServerContext,
    server: Server,
    invalid: (args: Record<string, unknown>) => boolean,
  ) => Promise<ConfirmOutcome>;
}

/**
 * `key`: the server's signing key (MCP_SIGNING_KEY, else random per process; server-core.ts). `store`: where
 * the states used are recorded, shared by the replicas or this process's (one-time-state.ts).
 */
export function createConfirmGate(
  policy: ConfirmPolicy,
  key: Uint8Array | string | undefined,
  store: StateStore,
): ConfirmGate {
  const signed = createRequestStateCodec<object>({
    key: key ?? randomBytes(MIN_KEY_BYTES),
    ttlSeconds: STATE_TTL_SECONDS,
    bind: (ctx) => ctx.http?.authInfo?.clientId ?? '',
  });
  const codec = oneTimeStates(signed, store, STATE_TTL_SECONDS);
  const asks = policy !== 'never' && (!Array.isArray(policy) || policy.length > 0);
  return {
    asks,
    verifyState: (state, ctx) => codec.verify(state, ctx),
    mintState: (payload, ctx) => codec.mint(payload, ctx),
    listsConfirmArgument: (ctx, server) => asks && !canElicit(ctx, server),
    check: async (tool, args, ctx, server, invalid) => {
      if (!needsConfirmation(policy, tool)) return { proceed: args };
      const argument = confirmArgumentName(tool);
      const { [argument]: confirmed, ...rest } = args;
      if (invalid(rest)) return { proceed: rest };
      if (!canElicit(ctx, server))
        return confirmed === true ? { proceed: rest } : { result: fallbackRefusal(tool, argument) };
      const answer = inputResponse(ctx.mcpReq.inputResponses, CONFIRM_KEY);
      const state = ctx.mcpReq.requestState<Partial<ConfirmState>>();
      const expected = stateFor(tool, rest);
      if (answer.kind === 'elicit' && state?.tool === expected.tool && state.args === expected.args) {
        const refusal = reuseRefusal(state, `${tool.name} (${operationLabel(tool)})`, `call ${tool.name} again`);
        if (refusal) return { result: toolError(refusal) };
        if (answer.action === 'accept' && answer.content?.[CONFIRM_KEY] === true) return { proceed: rest };
        return { result: declined(tool, answer.action) };
      }
      return {
        result: inputRequired({
          inputRequests: { [CONFIRM_KEY]: inputRequired.elicit(question(tool, rest)) },
          requestState: await codec.mint(expected, ctx),
        }),
      };
    },
  };
}

/**
 * Form elicitation, declared in the request's envelope (2026-07-28) or at `initialize` (2025-11-25 over
 * stdio). A stateless HTTP instance serving a 2025-11-25 request saw no `initialize`: it cannot ask.
 */
export function canElicit(ctx: ServerContext, server: Server): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared =
    (envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined) ?? server.getClientCapabilities();
  const elicitation = declared?.elicitation;
  if (!elicitation) return false;
  // `elicitation: {}` predates the modes and means form.
  return elicitation.form !== undefined || elicitation.url === undefined;
}

function stateFor(tool: CatalogTool, args: Record<string, unknown>): ConfirmState {
  return { tool: tool.name, args: digest(args) };
}

/** SHA-256 (base64url) of a value's canonical JSON: what a request state names instead of the value. */
export function digest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url');
}

/** JSON with object keys sorted, so the same arguments always give the same digest. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function operationLabel(tool: CatalogTool): string {
  return `${tool.request.method.toUpperCase()} ${tool.request.path}`;
}

export function question(tool: CatalogTool, args: Record<string, unknown>) {
  const shown = JSON.stringify(args);
  const argumentsText =
    shown === '{}'
      ? 'no arguments'
      : shown.length > SHOWN_ARGUMENT_CHARS
        ? `${shown.slice(0, SHOWN_ARGUMENT_CHARS)}…`
        : shown;
  const warning = tool.annotations.destructiveHint ? ' It is marked destructive: it may not be undoable.' : '';
  return {
    message: `Allow ${tool.name}${tool.title ? ` (${tool.title})` : ''} to send ${operationLabel(tool)} with ${argumentsText}?${warning}`,
    requestedSchema: {
      type: 'object' as const,
      properties: {
        [CONFIRM_KEY]: {
          type: 'boolean' as const,
          title: 'Send this request',
          description: `Yes sends ${operationLabel(tool)} to the API once; no sends nothing.`,
          default: false,
        },
      },
      required: [CONFIRM_KEY],
    },
  };
}

function declined(tool: CatalogTool, action: 'accept' | 'decline' | 'cancel'): ToolResult {
  return toolError(declinedMessage(tool, action));
}

export function declinedMessage(tool: CatalogTool, action: 'accept' | 'decline' | 'cancel'): string {
  const how = action === 'cancel' ? 'dismissed the confirmation of' : 'did not allow';
  return `Not sent: the user ${how} ${tool.name} (${operationLabel(tool)}). Nothing was sent to the API; do not call it again unless the user asks for it.`;
}

function fallbackRefusal(tool: CatalogTool, argument: string): ToolResult {
  return toolError(
    `Not sent: ${tool.name} (${operationLabel(tool)}) needs the user's confirmation, and this client cannot ask for it (it declares no elicitation). Ask the user whether to go ahead; only if they agree, call ${tool.name} again with the same arguments and "${argument}": true.`,
  );
}

/** An error result: a confirmation that did not happen is not a success (and needs no structured content). */
function toolError(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
