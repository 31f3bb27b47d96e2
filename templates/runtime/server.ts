/**
 * The MCP server factory. The SDK calls it once per HTTP request (stateless) and once per stdio
 * connection, so it only wires handlers to state built once at start-up: the tool list for the chosen mode
 * (precomputed, paged) and the registry.
 *
 * It uses the SDK's low-level `Server` rather than `McpServer`: McpServer converts every registered tool's
 * schema on every construction, which for an API with a thousand operations would dominate each request.
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { ToolMode } from './catalog.js';
import { callTool, type CallDeps } from './call-tool.js';
import { handleMetaTool, META_TOOL_NAMES, metaInstructions } from './meta-tools.js';
import { toolsForMode, type ListedTool } from './listing.js';
import { errorResult } from './response.js';
import type { SearchIndex } from './search.js';

/** tools/list answers may be cached by clients for this long: the tool set only changes with a new build. */
export const TOOLS_LIST_TTL_MS = 3_600_000;

export interface ServeOptions {
  mode: ToolMode;
  /** Loaded on the first search only: the all-tools mode never pays for it. */
  searchIndex: () => SearchIndex;
  /** Tools per tools/list page; 0 = one page. */
  pageSize: number;
}

export function createServerFactory(deps: CallDeps, options: ServeOptions): () => Server {
  const { catalog } = deps.registry;
  const info = { name: catalog.server.name, version: catalog.server.version, title: catalog.server.title };
  const listed = toolsForMode(catalog, deps.registry.listed, options.mode);
  const metaByName = new Map(listed.filter((t) => META_TOOL_NAMES.includes(t.name)).map((t) => [t.name, t]));
  const pages = paginate(listed, options.pageSize);
  const instructions = options.mode === 'all' ? catalog.server.instructions : `${catalog.server.instructions}\n\n${metaInstructions(options.mode)}`;
  return () => {
    const server = new Server(info, {
      capabilities: { tools: { listChanged: false } },
      instructions,
      cacheHints: {
        'server/discover': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'public' },
        'tools/list': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'public' },
      },
    });
    server.setRequestHandler('tools/list', (request) => pageFor(pages, request.params?.cursor) as never);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const name = request.params.name;
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      // The caller's HTTP headers, for per-caller upstream credentials (undefined over stdio).
      const callerHeaders = ctx.http?.req?.headers;
      const meta = metaByName.get(name);
      if (meta) {
        const invalid = deps.registry.validateAgainst(`meta:${name}`, meta.inputSchema, args);
        if (invalid) return errorResult(`Invalid arguments for tool ${name}: ${invalid}`) as never;
        return (await handleMetaTool(name, args, {
          registry: deps.registry,
          searchIndex: options.searchIndex,
          callOperation: (tool, operationArgs) => callTool(deps, tool, operationArgs, ctx.mcpReq.signal, callerHeaders),
        })) as never;
      }
      // Operations not listed in this mode stay callable by name: listing is about the model's context.
      const tool = deps.registry.get(name);
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      return (await callTool(deps, tool, args, ctx.mcpReq.signal, callerHeaders)) as never;
    });
    return server;
  };
}

interface Page {
  tools: ListedTool[];
  nextCursor?: string;
}

function paginate(tools: ListedTool[], pageSize: number): Page[] {
  if (pageSize <= 0 || tools.length <= pageSize) return [{ tools }];
  const pages: Page[] = [];
  for (let start = 0; start < tools.length; start += pageSize) {
    const next = start + pageSize < tools.length ? String(pages.length + 1) : undefined;
    pages.push(next ? { tools: tools.slice(start, start + pageSize), nextCursor: next } : { tools: tools.slice(start) });
  }
  return pages;
}

/** Cursors are page numbers as strings; anything else is an invalid cursor (-32602, as the spec says). */
function pageFor(pages: Page[], cursor: string | undefined): Page {
  if (cursor === undefined) return pages[0]!;
  const index = /^\d+$/.test(cursor) ? Number(cursor) : -1;
  const page = pages[index];
  if (!page) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  return page;
}
