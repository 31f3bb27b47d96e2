/** MCP clients for tests: the SDK v2 client (2026-07-28) and the v1 SDK client (2025-11-25). */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const CLIENT_INFO = { name: 'openapi-to-mcp-tests', version: '1.0.0' };

export function modernClient(): Client {
  return new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

export async function connectModernStdio(entry: string, env: Record<string, string>): Promise<Client> {
  const client = modernClient();
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry], env: { PATH: process.env['PATH'] ?? '', ...env }, stderr: 'pipe' }));
  return client;
}

export async function connectModernHttp(url: string): Promise<Client> {
  const client = modernClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export async function connectLegacyStdio(entry: string, env: Record<string, string>): Promise<LegacyClient> {
  const client = new LegacyClient(CLIENT_INFO);
  await client.connect(new LegacyStdioTransport({ command: process.execPath, args: [entry], env: { PATH: process.env['PATH'] ?? '', ...env }, stderr: 'pipe' }));
  return client;
}

export async function connectLegacyHttp(url: string): Promise<LegacyClient> {
  const client = new LegacyClient(CLIENT_INFO);
  await client.connect(new LegacyHttpTransport(new URL(url)));
  return client;
}
