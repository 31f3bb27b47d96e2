// The reference for per-call overhead over stdio: one McpServer, one tool that sends the same upstream GET
// (API_BASE_URL) as the generated server's meta_root, and returns the body as text.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const input = fromJsonSchema({ type: 'object', properties: {} });
const upstream = `${process.env.API_BASE_URL}/`;

serveStdio(() => {
  const server = new McpServer({ name: 'one-tool-fetch-stdio', version: '1.0.0' });
  server.registerTool('meta_root', { description: 'GET / on the upstream', inputSchema: input }, async () => {
    const response = await fetch(upstream, { headers: { accept: 'application/json' } });
    return { content: [{ type: 'text', text: await response.text() }] };
  });
  return server;
});
