/**
 * The meta-tools of the `dynamic` and `hybrid` modes: search the API's operations, describe one, call one.
 * The tool list stays small and constant however large the API; every operation stays callable through
 * `call_operation`, with the same validation, request mapping and errors as a direct tool.
 */
import type { InputRequiredResult } from '@modelcontextprotocol/server';
import type { CatalogTool } from '../contract/catalog.js';
import type { ToolResult } from '../upstream/response.js';
import { errorResult } from '../upstream/response.js';
import type { OperationSearch, OperationSummary, SearchGroup } from './search.js';
import { assembleInputSchema } from '../contract/listing.js';
import { DEFAULT_LIMIT, DESCRIBE_TOOL, MAX_LIMIT, SEARCH_TOOL } from '../contract/meta-definitions.js';
import type { ToolRegistry } from '../server/tool-registry.js';

export interface MetaToolContext {
  registry: ToolRegistry;
  search: () => Promise<OperationSearch>;
  /** Runs one operation exactly as a direct tool call would (asking the user first when it must: confirm.ts). */
  callOperation: (tool: CatalogTool, args: Record<string, unknown>) => Promise<ToolResult | InputRequiredResult>;
}

export async function handleMetaTool(
  name: string,
  args: Record<string, unknown>,
  ctx: MetaToolContext,
): Promise<ToolResult | InputRequiredResult> {
  switch (name) {
    case SEARCH_TOOL:
      return searchOperations(await ctx.search(), {
        query: typeof args['query'] === 'string' ? args['query'].trim() : '',
        group: typeof args['group'] === 'string' ? args['group'] : undefined,
        limit:
          typeof args['limit'] === 'number'
            ? Math.min(Math.max(1, Math.trunc(args['limit'])), MAX_LIMIT)
            : DEFAULT_LIMIT,
      });
    case DESCRIBE_TOOL:
      return describeOperation(ctx, String(args['name'] ?? ''));
    default: {
      const tool = ctx.registry.get(String(args['name'] ?? ''));
      if (!tool) return unknownOperation(String(args['name']));
      const operationArgs = args['arguments'] ?? {};
      if (typeof operationArgs !== 'object' || operationArgs === null || Array.isArray(operationArgs)) {
        return errorResult(`"arguments" must be an object of the operation's arguments.`);
      }
      return ctx.callOperation(tool, operationArgs as Record<string, unknown>);
    }
  }
}

interface SearchRequest {
  query: string;
  group: string | undefined;
  limit: number;
}

/** A search; without a query, the groups (or one group's operations) to browse. */
export function searchOperations(
  search: OperationSearch,
  { query, group: groupName, limit }: SearchRequest,
): ToolResult {
  const group = groupName === undefined ? undefined : search.group(groupName);
  if (groupName !== undefined && !group) return unknownGroup(search, groupName);
  if (!query) return group ? groupListing(search, group) : groupsListing(search.groups);
  const results = search
    .search(query, limit, group)
    .map(({ doc, score }) => ({ ...shownOperation(search, doc), score: Math.round(score * 100) / 100 }));
  if (results.length === 0) {
    const note = `No operation matches "${query}"${group ? ` in group ${group.name}` : ''}. Browse the groups below (${SEARCH_TOOL} with "group"), or try other words.`;
    return groupsListing(search.groups, note);
  }
  return { content: [{ type: 'text', text: results.map(resultLine).join('\n') }], structuredContent: { results } };
}

function groupListing(search: OperationSearch, group: SearchGroup): ToolResult {
  const results = group.operations.map((doc) => shownOperation(search, doc));
  const text = [`${group.name}: ${group.description}`, ...results.map(resultLine)].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { group: group.name, results } };
}

function groupsListing(groups: readonly SearchGroup[], note?: string): ToolResult {
  const listed = groups.map((g) => ({ name: g.name, operations: g.operations.length, description: g.description }));
  const lines = listed.map((g) => `${g.name} (${g.operations}): ${g.description}`);
  const text = [
    note ?? `${groups.length} groups of operations; pass one as "group" to list its operations.`,
    ...lines,
  ].join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { groups: listed, results: [] } };
}

function unknownGroup(search: OperationSearch, name: string): ToolResult {
  return errorResult(`There is no group "${name}". Groups: ${search.groups.map((g) => g.name).join(', ')}.`);
}

/** An operation as results show it: the operations that supply its arguments by name (the index has their numbers). */
interface ShownOperation extends Omit<OperationSummary, 'sources'> {
  sources?: Record<string, string[]>;
}

function shownOperation(search: OperationSearch, doc: number): ShownOperation {
  const { sources, ...summary } = search.operation(doc);
  return sources ? { ...summary, sources: sourceNames(search, sources) } : summary;
}

function sourceNames(search: OperationSearch, sources: Record<string, number[]>): Record<string, string[]> {
  const named: Record<string, string[]> = {};
  for (const [arg, docs] of Object.entries(sources)) named[arg] = docs.map((doc) => search.operation(doc).name);
  return named;
}

function resultLine(r: ShownOperation): string {
  const required = r.required.length > 0 ? ` (required: ${requiredText(r)})` : '';
  return `${r.name}: ${r.method} ${r.path} - ${r.summary}${required}`;
}

/**
 * The required arguments, each with the operations that supply it: `uri ← search, get-an-albums-tracks`. A body's
 * required properties (`body.uris`) follow the arguments. Arguments are parted by `;` once a list of sources
 * could be read as more arguments.
 */
function requiredText({ required, sources }: ShownOperation): string {
  if (!sources) return required.join(', ');
  const shown = [...required, ...Object.keys(sources).filter((arg) => !required.includes(arg))];
  return shown.map((arg) => (sources[arg] ? `${arg} ← ${sources[arg].join(', ')}` : arg)).join('; ');
}

async function describeOperation(ctx: MetaToolContext, name: string): Promise<ToolResult> {
  const tool = ctx.registry.get(name);
  if (!tool) return unknownOperation(name);
  // The index says where required arguments come from; the description stands without it if it cannot load.
  const sources: Record<string, string[]> | undefined = await ctx.search().then(
    (search) => {
      const sources = search.operationNamed(tool.name)?.sources;
      return sources && sourceNames(search, sources);
    },
    () => undefined,
  );
  const description = {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    method: tool.request.method,
    path: tool.request.path,
    // The whole text: the listing's description is condensed; this is where the rest is read.
    description: tool.fullDescription ?? tool.description,
    inputSchema: assembleInputSchema(tool, ctx.registry.catalog.defs),
    annotations: tool.annotations,
    // Which operations' results supply its required arguments: what to call first.
    ...(sources ? { sources } : {}),
  };
  return { content: [{ type: 'text', text: JSON.stringify(description) }], structuredContent: description };
}

function unknownOperation(name: string): ToolResult {
  return errorResult(`There is no operation named "${name}". Use ${SEARCH_TOOL} to find operation names.`);
}
