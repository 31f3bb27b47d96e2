/**
 * Which tool calls need the user's confirmation, and the `confirm` argument of the fallback for clients that
 * cannot ask the user (no elicitation). Free of SDK imports: the generator uses it too, to document which
 * tools ask.
 */
import type { CatalogHeader, CatalogTool, ConfirmPolicy } from './catalog.js';
import type { ListedTool } from './listing.js';

export const DEFAULT_CONFIRM_POLICY: ConfirmPolicy = 'destructive';

/** The policies named by a word; any other policy is a list of tools. */
export const CONFIRM_POLICY_WORDS = ['destructive', 'writes', 'never'] as const;

/** MCP_CONFIRM's text: one of the policy words, or comma-separated tool names; undefined when empty. */
export function parseConfirmPolicy(raw: string | undefined): ConfirmPolicy | undefined {
  const text = raw?.trim();
  if (!text) return undefined;
  if ((CONFIRM_POLICY_WORDS as readonly string[]).includes(text)) return text as ConfirmPolicy;
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  return names.length > 0 ? names : undefined;
}

/** The policy as the docs and MCP_CONFIRM write it. */
export function describeConfirmPolicy(policy: ConfirmPolicy): string {
  return typeof policy === 'string' ? policy : policy.join(',');
}

export function catalogConfirmPolicy(catalog: Pick<CatalogHeader, 'confirm'>): ConfirmPolicy {
  return catalog.confirm ?? DEFAULT_CONFIRM_POLICY;
}

/**
 * Destructive: annotated `destructiveHint` (every DELETE is, unless the spec's `x-mcp` or the config says
 * otherwise); writes: anything not read-only.
 */
export function needsConfirmation(policy: ConfirmPolicy, tool: Pick<CatalogTool, 'name' | 'annotations'>): boolean {
  if (Array.isArray(policy)) return policy.includes(tool.name);
  switch (policy) {
    case 'never':
      return false;
    case 'writes':
      return tool.annotations.readOnlyHint !== true;
    default:
      return tool.annotations.destructiveHint === true;
  }
}

/**
 * The fallback argument's name: `confirm`, unless the operation has an argument of that name already (then
 * the first free one of `confirm_call`, `confirm_call_2`, …).
 */
export function confirmArgumentName(tool: Pick<CatalogTool, 'inputSchema'>): string {
  const properties = (tool.inputSchema['properties'] ?? {}) as Record<string, unknown>;
  if (!Object.hasOwn(properties, 'confirm')) return 'confirm';
  let name = 'confirm_call';
  for (let n = 2; Object.hasOwn(properties, name); n++) name = `confirm_call_${n}`;
  return name;
}

export const CONFIRM_ARGUMENT_DESCRIPTION =
  'Set to true only after the user has confirmed this action in the conversation. Without it nothing is sent: the call answers with what to ask the user.';

/**
 * The tool as listed to a client that cannot be asked (no elicitation): its schema gains the optional
 * boolean `confirm` argument. Optional, a plain boolean and described in words, so every host profile takes
 * it as is (no `const`, which Gemini refuses).
 */
export function withConfirmArgument(listed: ListedTool, tool: Pick<CatalogTool, 'inputSchema'>): ListedTool {
  const name = confirmArgumentName(tool);
  const properties = (listed.inputSchema['properties'] ?? {}) as Record<string, unknown>;
  return {
    ...listed,
    inputSchema: {
      ...listed.inputSchema,
      properties: { ...properties, [name]: { type: 'boolean', description: CONFIRM_ARGUMENT_DESCRIPTION } },
    },
  };
}
