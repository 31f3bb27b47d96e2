/**
 * What a model reads of a tool list: each tool's name, description and input schema, as a host hands them to
 * the model. The reference host is Claude Code (clientInfo `claude-code`): its tools are lowered by the
 * `claude` profile (templates/runtime/contract/profiles/), then sent to the model as Anthropic API tool
 * definitions, `{"name", "description", "input_schema"}` (no title, no annotations, no output schema).
 * The listing budget (src/emit/search/tool-modes.ts) is counted this way.
 */
import type { ListedTool } from '../../templates/runtime/contract/listing.js';
import { lowerTool } from '../../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES } from '../../templates/runtime/contract/profiles/profiles.js';

/** The tool as Claude Code lists it: the claude profile's lowering of its input schema. */
export function asClaudeCodeLists(tool: ListedTool): ListedTool {
  return lowerTool(tool, PROFILES.claude).tool;
}

/** The JSON text the model reads of one tool: its Anthropic API tool definition. */
export function modelToolText(tool: ListedTool): string {
  const { name, description, inputSchema } = asClaudeCodeLists(tool);
  return JSON.stringify({ name, description, input_schema: inputSchema });
}

/** Model tokens of a list of tools: the sum of each tool's definition (the list's brackets and commas aside). */
export function modelTokens(tools: readonly ListedTool[], count: (text: string) => number): number {
  let total = 0;
  for (const tool of tools) total += count(modelToolText(tool));
  return total;
}
