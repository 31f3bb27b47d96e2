/**
 * What tools/list shows, per tool mode. Free of SDK imports on purpose: the generator imports this module
 * to report the tool surface it produces, and the SDK is not one of the generator's dependencies.
 */
import type { Catalog, CatalogTool, JsonSchema, ToolMode } from './catalog.js';
import { metaToolDefinitions } from './meta-tools.js';

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: CatalogTool['annotations'];
  _meta?: Record<string, unknown>;
}

/** A self-contained inputSchema: the tool's schema plus the shared `$defs` it needs (shared by reference). */
export function assembleInputSchema(tool: CatalogTool, defs: Catalog['defs']): JsonSchema {
  if (tool.defs.length === 0) return tool.inputSchema;
  const own: Record<string, JsonSchema> = {};
  for (const name of tool.defs) if (defs[name]) own[name] = defs[name];
  return { ...tool.inputSchema, $defs: own };
}

export function listedTool(tool: CatalogTool, inputSchema: JsonSchema): ListedTool {
  const listed: ListedTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as ListedTool['inputSchema'],
    annotations: tool.annotations,
  };
  if (tool.title) listed.title = tool.title;
  if (tool.outputSchema) listed.outputSchema = tool.outputSchema as ListedTool['outputSchema'];
  return listed;
}

/** The tools/list of a mode: every operation; only the meta-tools; or the core operations plus them. */
export function toolsForMode(catalog: Catalog, allListed: readonly ListedTool[], mode: ToolMode): ListedTool[] {
  if (mode === 'all') return [...allListed];
  const meta = metaToolDefinitions(catalog.server.title.replace(/ \(MCP\)$/, ''), catalog.tools.length);
  if (mode === 'dynamic') return meta;
  const core = new Set(catalog.core);
  return [...allListed.filter((t) => core.has(t.name)), ...meta];
}
