/**
 * What the dynamic and hybrid modes need from generation: the default mode, and a search index over every
 * operation (the hybrid core is chosen in hybrid-core.ts).
 */
import type { Catalog, ToolMode } from '../../../templates/runtime/contract/catalog.js';
import { assembleInputSchema, listedTool, type ListedTool } from '../../../templates/runtime/contract/listing.js';
import {
  buildSearchIndex,
  type SearchDocument,
  type SearchGroup,
} from '../../../templates/runtime/contract/search/search-index.js';
import type { ApiModel, ToolModel } from '../../ir/types.js';
import type { BrowseGroups } from './browse-groups.js';
import { searchDocuments } from './search-documents.js';
import { argumentSources } from './suppliers.js';
import { dataJson } from '../data-json.js';
import { costliestToolTokens } from '../../report/model-listing.js';

/**
 * The default mode lists every operation only when the list fits both a host's tool cap and the listing
 * budget. VS Code Copilot and OpenAI's function calling take at most 128 tools (a host with a lower cap, like
 * Cursor's 40, gets the hybrid listing from the server's client profile instead).
 */
export const ALL_MODE_MAX_TOOLS = 128;

/**
 * What the model reads of the default mode's listing, in o200k_base tokens: every listed tool's name,
 * description and input schema as a host hands them to the model, each tool as its costliest client profile
 * lowers it, so that the listing fits for every client the server meets (src/report/model-listing.ts). Every
 * conversation pays it before its first word, whether it uses the tools or not. Mode `all` is the default only
 * when the whole list fits; the hybrid core is chosen within it, less the meta-tools' own cost (hybrid-core.ts).
 */
export const LISTING_TOKEN_BUDGET = 8_000;

export interface ToolModeChoice {
  mode: ToolMode;
  /** Why, for the generation summary. */
  reason: string;
}

/**
 * `--tool-mode` when given; else hybrid when a core was named (--core, --core-tag); else `all` when the full
 * tool list has at most ALL_MODE_MAX_TOOLS tools and what the model reads of it fits LISTING_TOKEN_BUDGET,
 * `hybrid` when not. `tokensWithin(budget)`: what the model reads of the full list, or undefined past `budget`
 * (ModeAllListing.modelTokensWithin): only a list that fits is counted whole and its size given.
 */
export function chooseToolMode(
  requested: ToolMode | undefined,
  coreNamed: boolean,
  listed: ModeAllListing,
  tokensWithin: (budget: number) => number | undefined,
): ToolModeChoice {
  if (requested !== undefined) return { mode: requested, reason: 'chosen with --tool-mode' };
  if (coreNamed) return { mode: 'hybrid', reason: 'default when a core is named (--core, --core-tag)' };
  if (listed.count > ALL_MODE_MAX_TOOLS)
    return {
      mode: 'hybrid',
      reason: `default: the full tool list (${listed.count} tools) is over the ${ALL_MODE_MAX_TOOLS}-tool cap of VS Code and OpenAI; --tool-mode all lists every operation`,
    };
  const budget = `${LISTING_TOKEN_BUDGET.toLocaleString('en-US')}-token listing budget`;
  const tokens = tokensWithin(LISTING_TOKEN_BUDGET);
  if (tokens === undefined)
    return {
      mode: 'hybrid',
      reason: `default: the full tool list (${listed.count} tools) is over the ${budget} as a model reads it, each tool as its costliest client lists it; --tool-mode all lists every operation`,
    };
  const size = `${listed.count} tools, ${tokens.toLocaleString('en-US')} tokens as a model reads them, each as its costliest client lists it`;
  return {
    mode: 'all',
    reason: `default: the full tool list (${size}) fits ${ALL_MODE_MAX_TOOLS} tools and the ${budget}`,
  };
}

/**
 * Every tool as tools/list shows it in mode all, each stringified when first asked for (the surface report's
 * input). Past the tool cap the count alone decides the mode and the report needs only the listed core: GitHub's
 * 1,223 entries took 0.1 s to stringify, for a figure nobody read.
 */
export class ModeAllListing {
  private readonly entries: Array<string | undefined>;
  private readonly tokens: Array<number | undefined>;

  constructor(private readonly catalog: Catalog) {
    this.entries = new Array<string | undefined>(catalog.tools.length);
    this.tokens = new Array<number | undefined>(catalog.tools.length);
  }

  get count(): number {
    return this.entries.length;
  }

  /** The `index`th tool's entry. */
  tool(index: number): ListedTool {
    return listedTool(this.catalog.tools[index]!, assembleInputSchema(this.catalog.tools[index]!, this.catalog.defs));
  }

  /** The JSON of the `index`th tool's entry. */
  entry(index: number): string {
    return (this.entries[index] ??= JSON.stringify(this.tool(index)));
  }

  /**
   * What the model reads of the `index`th entry as its costliest profile lists it, in tokens (model-listing.ts),
   * counted once: the mode's choice and the hybrid core's budget (listing-budget.ts) both weigh it.
   */
  costliestTokens(index: number, count: (text: string) => number): number {
    return (this.tokens[index] ??= costliestToolTokens(this.tool(index), count));
  }

  /**
   * The same, summed over the entries while the sum is within `budget`; undefined past it, the entries after
   * left uncounted: past the budget the figure decides nothing (Amazon's Cost Explorer lists 38 tools of
   * 117,427 tokens, and counting them all took 0.18 s).
   */
  modelTokensWithin(budget: number, count: (text: string) => number): number | undefined {
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      total += this.costliestTokens(i, count);
      if (total > budget) return undefined;
    }
    return total;
  }
}

/** search-index.json: the search index, the groups to browse and each operation's summary. */
export function searchIndexFile(api: ApiModel, tools: readonly ToolModel[], { groups, groupOf }: BrowseGroups): string {
  const docs = searchDocuments(api, tools, groupOf);
  argumentSources(api, tools).forEach((sources, i) => {
    if (sources) docs[i]!.operation.sources = sources;
  });
  return searchIndexText({ docs, groups });
}

export interface SearchIndexInput {
  docs: SearchDocument[];
  groups: SearchGroup[];
}

/** Data-file layout like catalog.json: one line per operation (and per group), so a diff shows what changed. */
export function searchIndexText({ docs, groups }: SearchIndexInput): string {
  const file = buildSearchIndex(docs, groups);
  return dataJson(file, ['documents', 'operations', 'groups', 'bridge']);
}
