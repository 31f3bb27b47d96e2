/**
 * What the dynamic and hybrid modes need from generation: a search index over every operation, and the
 * core set of direct tools for hybrid mode.
 */
import { buildSearchIndex, type SearchIndex } from '../../templates/runtime/search.js';
import type { ToolModel } from '../ir/types.js';

/** How many direct tools hybrid mode lists when the user names none: well under the tightest client cap. */
export const DEFAULT_CORE_SIZE = 15;

export function operationSearchIndex(tools: readonly ToolModel[]): SearchIndex {
  return buildSearchIndex(
    tools.map((t) => ({
      fields: [
        [t.name, 3],
        [t.operationId ?? '', 2],
        [t.title ?? '', 3],
        [t.tags.join(' '), 2],
        [t.source.path.replace(/[{}]/g, ' '), 2],
        [t.description, 1],
        [Object.keys((t.inputSchema['properties'] as Record<string, unknown> | undefined) ?? {}).join(' '), 1],
      ],
    })),
  );
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
