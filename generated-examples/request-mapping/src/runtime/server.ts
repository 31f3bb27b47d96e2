/**
 * The MCP server factory. The SDK calls it once per HTTP request (stateless) and once per stdio
 * connection, so it only wires handlers to the registry built once at start-up.
 *
 * It uses the SDK's low-level `Server` rather than `McpServer`: McpServer converts every registered tool's
 * schema on every construction, which for an API with a thousand operations would dominate each request.
 */
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import { callTool, type CallDeps } from './call-tool.js';

/** tools/list answers may be cached by clients for this long: the tool set only changes with a new build. */
export const TOOLS_LIST_TTL_MS = 3_600_000;

export function createServerFactory(deps: CallDeps): () => Server {
  const { catalog } = deps.registry;
  const info = { name: catalog.server.name, version: catalog.server.version, title: catalog.server.title };
  const listResult = { tools: deps.registry.listed };
  return () => {
    const server = new Server(info, {
      capabilities: { tools: { listChanged: false } },
      instructions: catalog.server.instructions,
      cacheHints: {
        'server/discover': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'public' },
        'tools/list': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'public' },
      },
    });
    server.setRequestHandler('tools/list', () => listResult as never);
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const tool = deps.registry.get(request.params.name);
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
      const args = (request.params.arguments ?? {}) as Record<string, unknown>;
      return (await callTool(deps, tool, args, ctx.mcpReq.signal)) as never;
    });
    return server;
  };
}
