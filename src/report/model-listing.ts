/**
 * What a model reads of a tool list: each tool's name, description and input schema, as a host hands them to
 * the model. The reference host is Claude Code (clientInfo `claude-code`): its tools are lowered by the
 * `claude` profile (templates/runtime/contract/profiles/), then sent to the model as Anthropic API tool
 * definitions, `{"name", "description", "input_schema"}` (no title, no annotations, no output schema).
 *
 * The listing budget (src/emit/search/tool-modes.ts) is held for every profile the server may meet: the
 * listing is decided at generation but lowered per client at runtime, and a lowering can cost more than the
 * schema it lowers (openai-strict makes every optional property nullable and required, inlines `$ref`s and
 * closes every object). So the budget counts each tool as its costliest profile lists it (`budgetTokens`).
 */
import type { ListedTool } from '../../templates/runtime/contract/listing.js';
import { lowerTool } from '../../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES, type ClientProfile } from '../../templates/runtime/contract/profiles/profiles.js';

/** The tool as Claude Code lists it: the claude profile's lowering of its input schema. */
export function asClaudeCodeLists(tool: ListedTool): ListedTool {
  return lowerTool(tool, PROFILES.claude).tool;
}

/** The JSON text the model reads of one tool: its Anthropic API tool definition. */
export function modelToolText(tool: ListedTool): string {
  return toolDefinition(asClaudeCodeLists(tool));
}

/**
 * The JSON text the model reads of one tool as a profile lists it. Every host's envelope is measured as the
 * Anthropic API's: the envelopes differ by a few tokens a tool, the lowered schemas by hundreds.
 */
export function profileToolText(tool: ListedTool, profile: ClientProfile): string {
  return toolDefinition(lowerTool(tool, profile).tool);
}

function toolDefinition({ name, description, inputSchema }: ListedTool): string {
  return JSON.stringify({ name, description, input_schema: inputSchema });
}

/**
 * What the model reads of one tool as its costliest profile lists it. Summed over a listing, this bounds every
 * profile's own sum, so a listing within the budget by this measure is within it for every client; and it is
 * a cost per tool, as the hybrid core's choice needs (one core for every client, hybrid-core.ts).
 */
export function costliestToolTokens(tool: ListedTool, count: (text: string) => number): number {
  const texts = new Set(Object.values(PROFILES).map((profile) => profileToolText(tool, profile)));
  let most = 0;
  for (const text of texts) most = Math.max(most, count(text));
  return most;
}

/** The listing budget's measure of a list of tools: each tool as its costliest profile lists it, summed. */
export function budgetTokens(tools: readonly ListedTool[], count: (text: string) => number): number {
  let total = 0;
  for (const tool of tools) total += costliestToolTokens(tool, count);
  return total;
}

/** Model tokens of a list of tools: the sum of each tool's definition (the list's brackets and commas aside). */
export function modelTokens(tools: readonly ListedTool[], count: (text: string) => number): number {
  let total = 0;
  for (const tool of tools) total += count(modelToolText(tool));
  return total;
}
