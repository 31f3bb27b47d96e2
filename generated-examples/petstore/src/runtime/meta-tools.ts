/**
 * The meta-tools of the `dynamic` and `hybrid` modes: search the API's operations, describe one, call one.
 * The tool list stays small and constant however large the API; every operation stays callable through
 * `call_operation`, with the same validation, request mapping and errors as a direct tool.
 */
import type { CatalogTool } from './catalog.js';
import type { ToolResult } from './response.js';
import { errorResult } from './response.js';
import { search, type SearchIndex } from './search.js';
import { assembleInputSchema } from './listing.js';
import { DEFAULT_LIMIT, DESCRIBE_TOOL, MAX_LIMIT, SEARCH_TOOL } from './meta-definitions.js';
import type { ToolRegistry } from './tools.js';

export interface MetaToolContext {
  registry: ToolRegistry;
  searchIndex: () => SearchIndex;
  /** Runs one operation exactly as a direct tool call would. */
  callOperation: (tool: CatalogTool, args: Record<string, unknown>) => Promise<ToolResult>;
}

export async function handleMetaTool(name: string, args: Record<string, unknown>, ctx: MetaToolContext): Promise<ToolResult> {
  switch (name) {
    case SEARCH_TOOL:
      return searchOperations(ctx, String(args['query'] ?? ''), typeof args['limit'] === 'number' ? args['limit'] : DEFAULT_LIMIT);
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

function searchOperations(ctx: MetaToolContext, query: string, limit: number): ToolResult {
  const hits = search(ctx.searchIndex(), query, Math.min(Math.max(1, Math.trunc(limit)), MAX_LIMIT));
  const results = hits.map(({ doc, score }) => {
    const tool = ctx.registry.at(doc);
    return { name: tool.name, method: tool.request.method, path: tool.request.path, summary: tool.title ?? firstLine(tool.description), score: Math.round(score * 100) / 100 };
  });
  const text = results.length === 0
    ? `No operation matches "${query}". Try other words.`
    : results.map((r) => `${r.name}: ${r.method} ${r.path} — ${r.summary}`).join('\n');
  return { content: [{ type: 'text', text }], structuredContent: { results } };
}

function describeOperation(ctx: MetaToolContext, name: string): ToolResult {
  const tool = ctx.registry.get(name);
  if (!tool) return unknownOperation(name);
  const description = {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    method: tool.request.method,
    path: tool.request.path,
    description: tool.description,
    inputSchema: assembleInputSchema(tool, ctx.registry.catalog.defs),
    annotations: tool.annotations,
  };
  return { content: [{ type: 'text', text: JSON.stringify(description) }], structuredContent: description };
}

function unknownOperation(name: string): ToolResult {
  return errorResult(`There is no operation named "${name}". Use ${SEARCH_TOOL} to find operation names.`);
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
