// The reference point for the load test: the smallest idiomatic SDK v2 HTTP server, one McpServer with
// one trivial tool, built per request by createMcpHandler, behind the localhost Host/Origin guards.
import { createServer } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

// fromJsonSchema compiles eagerly: once, at module scope (per-request compilation is a 60x cliff).
const echoInput = fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });

function buildServer() {
  const server = new McpServer({ name: 'one-tool-bench', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: echoInput }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

const handler = createMcpHandler(buildServer);
const toNode = toNodeHandler(handler);
const validHost = localhostHostValidation();
const validOrigin = localhostOriginValidation();

const server = createServer((req, res) => {
  if (!validHost(req, res) || !validOrigin(req, res)) return;
  void toNode(req, res);
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  // Same shape as the generated server's start-up line, so the bench finds both the same way.
  process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'listening', url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
process.on('SIGTERM', () => void handler.close().then(() => process.exit(0)));
