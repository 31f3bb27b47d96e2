// The floor for cold start and per-call overhead over stdio: one McpServer, one trivial tool, serveStdio.
import { fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const echoInput = fromJsonSchema({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });

serveStdio(() => {
  const server = new McpServer({ name: 'one-tool-stdio', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes its text', inputSchema: echoInput }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
});
