/**
 * How long a tool name may be once a host has put its server key in front of it. Each host qualifies the names of
 * an MCP server's tools with the key the user registered the server under, and drops (or mangles) a tool whose
 * qualified name is too long:
 *
 * - Claude Code: `mcp__<key>__<tool>`, at most 64 characters; with tool search (on by default) one longer name makes
 *   the whole request fail (anthropics/claude-code#19882, #22327; mims-harvard/ToolUniverse#65 measured 64 as
 *   accepted and 65 as refused).
 * - Codex: `mcp__<key>__<tool>` as well (codex-rs `MCP_TOOL_NAME_DELIMITER = "__"`), hashed past 64 characters.
 * - Cursor: the key plus the tool name, warned about and filtered out from 60 characters on: "g:
 *   GOOGLESHEETS_SPREADSHEETS_VALUES_BATCH_CLEAR_BY_DATA_FILTER – Combined server and tool name length (60) exceeds 60
 *   characters" for a 1-character key and a 59-character tool (ComposioHQ/composio#2788; also idosal/git-mcp#31,
 *   sparfenyuk/mcp-proxy#45). So the two together must stay at 59 or less.
 * - Gemini CLI: `mcp_<key>_<tool>`, cut in the middle past 63 characters (packages/core/src/tools/mcp-tool.ts
 *   `generateValidName`: "We use 63 instead of 64 to be safe").
 *
 * The budget is the tightest of these for the key chosen at generation; a key renamed to something longer at
 * registration can push names over again.
 */
export interface HostNameRule {
  host: string;
  /** The longest tool name this host accepts under `key`. */
  maxToolName(key: string): number;
  /** The rule, for messages. */
  rule: string;
}

export const HOST_NAME_RULES: readonly HostNameRule[] = [
  {
    host: 'Claude Code',
    rule: 'mcp__<key>__<tool> ≤ 64',
    maxToolName: (key) => 64 - 'mcp__'.length - key.length - '__'.length,
  },
  {
    host: 'Codex',
    rule: 'mcp__<key>__<tool> ≤ 64',
    maxToolName: (key) => 64 - 'mcp__'.length - key.length - '__'.length,
  },
  { host: 'Cursor', rule: '<key> + <tool> < 60', maxToolName: (key) => 59 - key.length },
  {
    host: 'Gemini CLI',
    rule: 'mcp_<key>_<tool> ≤ 63',
    maxToolName: (key) => 63 - 'mcp_'.length - key.length - '_'.length,
  },
];

/** The MCP name rule's own cap (naming.ts TOOL_NAME_PATTERN). */
const MCP_MAX_NAME = 64;

/** The longest tool name every host accepts under `key`. */
export function toolNameBudget(key: string): number {
  return Math.min(MCP_MAX_NAME, ...HOST_NAME_RULES.map((r) => r.maxToolName(key)));
}

/** The hosts that would drop or mangle `tool` registered under `key` (empty: it fits everywhere). */
export function hostsRefusing(key: string, tool: string): HostNameRule[] {
  return HOST_NAME_RULES.filter((r) => tool.length > r.maxToolName(key));
}
