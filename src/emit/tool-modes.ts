/**
 * What the dynamic and hybrid modes need from generation: a search index over every operation, and the
 * core set of direct tools for hybrid mode.
 */
import type { Catalog, ToolMode } from '../../templates/runtime/catalog.js';
import { listAllTools } from '../../templates/runtime/listing.js';
import { buildSearchIndex, type SearchDocument } from '../../templates/runtime/search.js';
import { onHelper } from '../helper/helper.js';
import type { ToolModel } from '../ir/types.js';
import { dataJson } from './data-json.js';

/** How many direct tools hybrid mode lists when the user names none: well under the tightest client cap. */
export const DEFAULT_CORE_SIZE = 15;

/**
 * The default mode follows the API's size: when the mode-`all` tools/list is larger than this, the default
 * is `hybrid`. 400 kB is about 100,000 o200k_base tokens (4.0–4.6 bytes per token across ../shared/specs),
 * half of a 200k-token context window: past it, listing every operation leaves a model too little room to
 * work, whatever the client. Bytes rather than tokens keep the rule cheap and exact to state.
 */
export const ALL_MODE_MAX_LIST_BYTES = 400_000;

export interface ToolModeChoice {
  mode: ToolMode;
  /** Why, for the generation summary. */
  reason: string;
}

/**
 * `--tool-mode` when given; else hybrid when a core was named (--core, --core-tag); else by size: `all` when
 * the full tool list fits ALL_MODE_MAX_LIST_BYTES, `hybrid` when it does not.
 */
export function chooseToolMode(requested: ToolMode | undefined, coreNamed: boolean, listedInModeAll: readonly string[]): ToolModeChoice {
  if (requested !== undefined) return { mode: requested, reason: 'chosen with --tool-mode' };
  if (coreNamed) return { mode: 'hybrid', reason: 'default when a core is named (--core, --core-tag)' };
  const bytes = listBytes(listedInModeAll);
  const size = `${Math.round(bytes / 1000)} kB`;
  return bytes <= ALL_MODE_MAX_LIST_BYTES
    ? { mode: 'all', reason: `default: the full tool list (${size}) fits the ${ALL_MODE_MAX_LIST_BYTES / 1000} kB budget` }
    : { mode: 'hybrid', reason: `default: the full tool list (${size}) is over the ${ALL_MODE_MAX_LIST_BYTES / 1000} kB budget (about 100k tokens); --tool-mode all lists every operation` };
}

/** Every tool as tools/list shows it in mode all, stringified (tools-list.json's lines, and the size rule's input). */
export function listedInModeAll(catalog: Catalog): string[] {
  return listAllTools(catalog).map((tool) => JSON.stringify(tool));
}

/** Bytes of `{"tools":[…]}` with these entries: what a client would receive. */
function listBytes(entries: readonly string[]): number {
  let bytes = Buffer.byteLength('{"tools":[]}') + Math.max(entries.length - 1, 0);
  for (const entry of entries) bytes += Buffer.byteLength(entry);
  return bytes;
}

/**
 * search-index.json. The index is built on the helper thread when there is one: the documents are a small
 * copy of the tools, and the main thread goes on emitting meanwhile.
 */
export async function searchIndexFile(tools: readonly ToolModel[]): Promise<string> {
  const docs = operationSearchDocuments(tools);
  return (await onHelper<string>('searchIndexFile', docs)) ?? searchIndexText(docs);
}

/** One line per posting term, like catalog.json: the server reads it, a person reads its diff. */
export function searchIndexText(docs: readonly SearchDocument[]): string {
  return dataJson(buildSearchIndex(docs), ['postings']);
}

function operationSearchDocuments(tools: readonly ToolModel[]): SearchDocument[] {
  return tools.map((t) => ({
      fields: [
        [t.name, 3],
        [t.operationId ?? '', 2],
        [t.title ?? '', 3],
        [t.tags.join(' '), 2],
        [t.source.path.replace(/[{}]/g, ' '), 2],
        [t.description, 1],
        [Object.keys((t.inputSchema['properties'] as Record<string, unknown> | undefined) ?? {}).join(' '), 1],
      ],
    }));
}

/**
 * The core of hybrid mode: the tools the user names (by tool name or operationId) or tags; by default the
 * operations closest to the API's root, reads first: the entry points a model needs before it can search.
 */
export function chooseCore(tools: readonly ToolModel[], names: readonly string[], tags: readonly string[]): string[] {
  if (names.length > 0 || tags.length > 0) {
    const wanted = new Set(names);
    const tagSet = new Set(tags);
    return tools.filter((t) => wanted.has(t.name) || (t.operationId !== undefined && wanted.has(t.operationId)) || t.tags.some((g) => tagSet.has(g))).map((t) => t.name);
  }
  const ranked = tools
    .map((t, index) => ({ t, index, rank: coreRank(t) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, DEFAULT_CORE_SIZE);
  return ranked.sort((a, b) => a.index - b.index).map(({ t }) => t.name);
}

function coreRank(tool: ToolModel): number {
  const depth = tool.source.path.split('/').filter(Boolean).length;
  const params = (tool.source.path.match(/\{/g) ?? []).length;
  const read = tool.annotations.readOnlyHint ? 0 : 1;
  return depth * 10 + params * 5 + read * 3 + (tool.deprecated ? 100 : 0);
}
