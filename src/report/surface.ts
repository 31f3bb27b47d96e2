/**
 * What the tool list costs a client: tool count, tools/list size in bytes and in o200k_base tokens, and the
 * limits of common clients it breaks.
 */
import type { Catalog } from '../../templates/runtime/contract/catalog.js';
import { listedInputSchema, listedTool, modeListing } from '../../templates/runtime/contract/listing.js';
import type { ModeAllListing } from '../emit/search/tool-modes.js';
import { countListTokens, tokenCounter } from './tokens.js';
import { modelTokens } from './model-listing.js';
import { hostsRefusing, toolNameBudget } from '../tools/host-limits.js';
import { META_TOOL_NAMES } from '../../templates/runtime/contract/meta-definitions.js';

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
  /** What the model reads of the listing (names, descriptions, input schemas) as Claude Code lists it. */
  modelTokens: number;
  /** The key the README registers the server under, and the longest tool name every host accepts under it. */
  serverKey: string;
  toolNameBudget: number;
  /** Tool names (config or `x-mcp` overrides) that some host drops under the server key, with those hosts. */
  namesOverHostLimits: Array<{ name: string; hosts: string[] }>;
  clientLimitsExceeded: string[];
}

/** `listedInModeAll`: every catalog tool's tools/list entry. */
export async function surfaceReport(
  catalog: Catalog,
  listedInModeAll: ModeAllListing,
  serverKey: string,
): Promise<SurfaceReport> {
  const names = catalog.tools.map((t) => t.name);
  const { direct, meta, compact } = modeListing(catalog, names, catalog.toolMode);
  const listedNames = [...direct.map((i) => names[i]!), ...meta.map((t) => t.name)];
  const listedOperation = (i: number) =>
    compact && catalog.tools[i]!.compactInputSchema
      ? listedTool(catalog.tools[i]!, listedInputSchema(catalog.tools[i]!, catalog.defs, true))
      : listedInModeAll.tool(i);
  // The answer's bytes: {"tools":[…]} with the entries the mode lists, as JSON.stringify would join them.
  const entries = direct.map((i) =>
    compact && catalog.tools[i]!.compactInputSchema ? JSON.stringify(listedOperation(i)) : listedInModeAll.entry(i),
  );
  const json = `{"tools":[${[...entries, ...meta.map((t) => JSON.stringify(t))].join(',')}]}`;
  const listTokens = await countListTokens(json);
  const count = await tokenCounter();
  return {
    tools: listedNames.length,
    listBytes: Buffer.byteLength(json),
    listTokens,
    tokensPerTool: listedNames.length > 0 ? Math.round(listTokens / listedNames.length) : 0,
    modelTokens: modelTokens([...direct.map(listedOperation), ...meta], count),
    serverKey,
    toolNameBudget: toolNameBudget(serverKey),
    // Every tool, listed or not: MCP_TOOL_MODE can switch the mode at run time.
    namesOverHostLimits: [...names, ...META_TOOL_NAMES]
      .map((name) => ({ name, hosts: hostsRefusing(serverKey, name).map((r) => r.host) }))
      .filter((n) => n.hosts.length > 0),
    clientLimitsExceeded: CLIENT_TOOL_LIMITS.filter((l) => listedNames.length > l.maxTools).map(
      (l) => `${l.client} (${l.maxTools})`,
    ),
  };
}
