// The floor for an API-wrapping server over HTTP: bench/one-tool-server.mjs, but its one tool does what a
// generated tool does at its simplest — one GET to the upstream (API_BASE_URL) and the body returned as text.
// A generated server's throughput is compared with this: the upstream request is work both must do.
// UPSTREAM_CLIENT=node:http sends that GET with node:http (keep-alive) instead of fetch, as generated servers
// do: the floor for the SDK's own share of the work.
import { Agent, createServer, request } from 'node:http';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';

const input = fromJsonSchema({ type: 'object', properties: {} });
const upstream = `${process.env.API_BASE_URL}/`;
const agent = new Agent({ keepAlive: true });

async function getViaFetch() {
  const response = await fetch(upstream, { headers: { accept: 'application/json' } });
  return response.text();
}

function getViaNodeHttp() {
  return new Promise((resolve, reject) => {
    const req = request(upstream, { agent, headers: { accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const get = process.env.UPSTREAM_CLIENT === 'node:http' ? getViaNodeHttp : getViaFetch;

function buildServer() {
  const server = new McpServer({ name: 'one-tool-fetch-bench', version: '1.0.0' });
  server.registerTool('meta_root', { description: 'GET / on the upstream', inputSchema: input }, async () => ({
    content: [{ type: 'text', text: await get() }],
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
  process.stderr.write(`${JSON.stringify({ level: 'info', msg: 'listening', url: `http://127.0.0.1:${port}/mcp` })}\n`);
});
process.on('SIGTERM', () => void handler.close().then(() => process.exit(0)));
