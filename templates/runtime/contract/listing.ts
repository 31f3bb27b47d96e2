/**
 * What tools/list shows, per tool mode. Free of SDK imports on purpose: the generator imports this module
 * to report the tool surface it produces, and the SDK is not one of the generator's dependencies.
 */
import type { Catalog, CatalogTool, JsonSchema, ToolMode } from './catalog.js';
import { apiName } from './api-name.js';
import { codeToolDefinitions } from './code-definitions.js';
import { metaToolDefinitions } from './meta-definitions.js';

/** A type rather than an interface, so that it is assignable to the SDK's Tool (which has an index signature). */
export type ListedTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: CatalogTool['annotations'];
  _meta?: Record<string, unknown>;
};

/** A self-contained inputSchema: the tool's schema plus the shared `$defs` it needs (shared by reference). */
export function assembleInputSchema(tool: CatalogTool, defs: Catalog['defs']): JsonSchema {
  if (tool.defs.length === 0) return tool.inputSchema;
  const own: Record<string, JsonSchema> = {};
  for (const name of tool.defs) if (defs[name]) own[name] = defs[name];
  return { ...tool.inputSchema, $defs: own };
}

/**
 * The inputSchema a listing shows: the tool's compact one in a listing that offers describe_operation
 * (`compact`, hybrid mode) when it has one, else the whole schema. Calls are validated against the whole one.
 */
export function listedInputSchema(tool: CatalogTool, defs: Catalog['defs'], compact: boolean): JsonSchema {
  return compact && tool.compactInputSchema ? tool.compactInputSchema : assembleInputSchema(tool, defs);
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

/** Every tool of the catalog as tools/list shows it (mode all). */
export function listAllTools(catalog: Catalog): ListedTool[] {
  return catalog.tools.map((tool) => listedTool(tool, assembleInputSchema(tool, catalog.defs)));
}

/**
 * What a mode lists: operations by index into the catalog's tools (in catalog order), then meta-tools.
 * `compact`: the listing offers describe_operation, so operations show their compact input schemas.
 */
export interface ModeListing {
  direct: number[];
  meta: ListedTool[];
  compact: boolean;
}

/**
 * The tools/list of a mode: every operation; only the meta-tools; the core operations plus them; or code
 * mode's search and execute.
 */
export function modeListing(
  catalog: Pick<Catalog, 'core' | 'server'>,
  names: readonly string[],
  mode: ToolMode,
): ModeListing {
  if (mode === 'all') return { direct: names.map((_, i) => i), meta: [], compact: false };
  const api = apiName(catalog.server.title.replace(/ \(MCP\)$/, ''));
  if (mode === 'code') return { direct: [], meta: codeToolDefinitions(api, names.length), compact: false };
  const meta = metaToolDefinitions(api, names.length);
  if (mode === 'dynamic') return { direct: [], meta, compact: true };
  const core = new Set(catalog.core);
  return { direct: names.flatMap((name, i) => (core.has(name) ? [i] : [])), meta, compact: true };
}
