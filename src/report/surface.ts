/**
 * What the tool list costs a client: tool count, tools/list size in bytes and in o200k_base tokens (counted
 * on the helper thread, which has the tokenizer loaded; else here), and the limits of common clients it breaks.
 */
import type { Catalog } from '../../templates/runtime/catalog.js';
import { listAllTools, toolsForMode } from '../../templates/runtime/listing.js';
import { onHelper } from '../helper/helper.js';
import { countListTokens } from './tokens.js';

/** Claude Code prefixes `mcp__<server>__`, leaving about this many characters of a 64-character name. */
export const CLAUDE_CODE_NAME_BUDGET = 45;
export const CLIENT_TOOL_LIMITS: ReadonlyArray<{ client: string; maxTools: number }> = [
  { client: 'Cursor', maxTools: 40 },
  { client: 'Windsurf', maxTools: 50 },
  { client: 'clients capped at 100 tools', maxTools: 100 },
];

export interface SurfaceReport {
  tools: number;
  listBytes: number;
  listTokens: number;
  tokensPerTool: number;
  namesOverClaudeCodeBudget: string[];
  clientLimitsExceeded: string[];
}

export async function surfaceReport(catalog: Catalog): Promise<SurfaceReport> {
  const listed = toolsForMode(catalog, listAllTools(catalog), catalog.toolMode);
  const json = JSON.stringify({ tools: listed });
  const listTokens = (await onHelper<number>('countTokens', json)) ?? (await countListTokens(json));
  return {
    tools: listed.length,
    listBytes: Buffer.byteLength(json),
    listTokens,
    tokensPerTool: listed.length > 0 ? Math.round(listTokens / listed.length) : 0,
    namesOverClaudeCodeBudget: listed.map((t) => t.name).filter((n) => n.length > CLAUDE_CODE_NAME_BUDGET),
    clientLimitsExceeded: CLIENT_TOOL_LIMITS.filter((l) => listed.length > l.maxTools).map((l) => `${l.client} (${l.maxTools})`),
  };
}
