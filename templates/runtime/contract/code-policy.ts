/**
 * Code mode's write policy: the one place that decides whether a program's `api.*` call, or an operation
 * called by name, may run. It reads the operation's annotations (readOnlyHint, destructiveHint) against the
 * allowed level; a call it refuses never reaches the request mapping. Of the calls it allows, those the
 * confirmation policy names are asked about first (code-confirm.ts for programs, confirm.ts for calls by name).
 */
import type { CatalogTool, CodeAllow, ConfirmPolicy } from './catalog.js';
import { needsConfirmation } from './confirm-policy.js';

export type CallDecision = { allowed: true } | { allowed: false; reason: string };

export type OperationKind = 'read' | 'write' | 'destructive';

/** What an operation does, by its annotations: unmarked operations count as writes. */
export function operationKind(tool: Pick<CatalogTool, 'annotations'>): OperationKind {
  if (tool.annotations.readOnlyHint === true) return 'read';
  return tool.annotations.destructiveHint === true ? 'destructive' : 'write';
}

const RANK: Record<OperationKind, number> = { read: 0, write: 1, destructive: 2 };

export function decideApiCall(tool: Pick<CatalogTool, 'name' | 'annotations'>, allow: CodeAllow): CallDecision {
  const kind = operationKind(tool);
  if (RANK[kind] <= RANK[allow]) return { allowed: true };
  const level = kind === 'destructive' ? 'destructive' : 'write';
  return {
    allowed: false,
    reason: `${tool.name} is a ${kind === 'destructive' ? 'destructive operation' : 'write'}, and this server lets programs call only ${allow === 'read' ? 'read-only operations' : 'reads and non-destructive writes'} (the server's owner can allow more with MCP_CODE_ALLOW=${level}).`,
  };
}

/**
 * Code mode lists no operation, but a client can still call one by name (a host that remembers tool names,
 * a script). Such a call obeys the policy a program's call obeys: this allow level here, then the same
 * confirmation policy (server.ts asks through the tool call's gate). Refusing every call by name would make
 * nothing safer, since a program may make the same call, and would break those clients' reads; letting
 * them all through would make MCP_CODE_ALLOW a setting of programs only. Undefined: the call may go on.
 */
export function directCallRefusal(
  tool: Pick<CatalogTool, 'name' | 'annotations'>,
  allow: CodeAllow,
): string | undefined {
  const decision = decideApiCall(tool, allow);
  if (decision.allowed) return undefined;
  return `Not sent: ${decision.reason} In code mode a tool called by name obeys the policy of programs.`;
}

/** Whether some call a program may make needs the user's confirmation (then execute lists the fallback). */
export function programsMayAsk(
  policy: ConfirmPolicy,
  allow: CodeAllow,
  tools: Iterable<Pick<CatalogTool, 'name' | 'annotations'>>,
): boolean {
  for (const tool of tools) if (decideApiCall(tool, allow).allowed && needsConfirmation(policy, tool)) return true;
  return false;
}
