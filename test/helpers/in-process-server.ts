/**
 * A generated catalog served in-process through createServer's endpoint(): the SDK's v2 client or raw
 * JSON-RPC posts reach it without a socket, and its upstream is a fetch that records every request.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { codeModeSupport } from '../../templates/runtime/code-mode/code-mode-support.js';
import { createServer } from '../../templates/runtime/server/create-server.js';
import type { McpEndpoint } from '../../templates/runtime/transport/http-server.js';
import { MODERN_META } from './raw-stdio.js';

export interface RecordingFetch {
  fetch: typeof fetch;
  /** `METHOD url` of each upstream request. */
  requests: string[];
}

export function recordingFetch(): RecordingFetch {
  const requests: string[] = [];
  const fake: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push(`${request.method} ${request.url}`);
    return Response.json({ id: 1, name: 'Rex', photoUrls: [] });
  };
  return { fetch: fake, requests };
}

export interface InProcessServer {
  endpoint: McpEndpoint;
  client: Client;
  /** Posts a 2026-07-28 request written by hand (`params` as JSON text, which may be of any depth). */
  post: (method: string, paramsJson: string) => Promise<{ result?: Record<string, unknown>; error?: unknown }>;
  close: () => Promise<void>;
}

export async function serveInProcess(
  catalogUrl: URL,
  env: Record<string, string>,
  upstream: RecordingFetch,
): Promise<InProcessServer> {
  // Code mode handed in as a project generated for it does (src/server.ts); a catalog in another mode ignores it.
  const server = await createServer({ catalogUrl, env, fetch: upstream.fetch, codeMode: codeModeSupport() });
  const endpoint = await server.endpoint();
  const fetchEndpoint = (url: string | URL | Request, init?: RequestInit) => endpoint.fetch(new Request(url, init));
  const client = new Client(
    { name: 'security-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: fetchEndpoint }));
  const post = async (method: string, paramsJson: string) => {
    const meta = JSON.stringify(MODERN_META);
    const params = paramsJson.trim() === '{}' ? `{"_meta":${meta}}` : paramsJson.replace(/^\{/, `{"_meta":${meta},`);
    const body = `{"jsonrpc":"2.0","id":1,"method":"${method}","params":${params}}`;
    const response = await fetchEndpoint('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(method === 'tools/call' ? { 'mcp-name': /"name":"([^"]+)"/.exec(paramsJson)?.[1] ?? '' } : {}),
      },
      body,
    });
    const text = await response.text();
    return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text)) as {
      result?: Record<string, unknown>;
      error?: unknown;
    };
  };
  return {
    endpoint,
    client,
    post,
    close: async () => {
      await client.close();
      await endpoint.close();
    },
  };
}
