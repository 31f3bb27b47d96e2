/** MCP clients for tests: the SDK v2 client (2026-07-28) and the v1 SDK client (2025-11-25). */
import { Client, StreamableHTTPClientTransport, type ClientOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** The clientInfo name tests send unless they pose as a known host (see templates/runtime/contract/profiles/profiles.ts). */
export const TEST_CLIENT_NAME = 'openapi-to-mcp-tests';

const clientInfo = (name: string) => ({ name, version: '1.0.0' });

/** `options`: more client options (e.g. `listChanged` handlers). */
export function modernClient(name = TEST_CLIENT_NAME, options: Omit<ClientOptions, 'versionNegotiation'> = {}): Client {
  return new Client(clientInfo(name), { ...options, versionNegotiation: { mode: { pin: '2026-07-28' } } });
}

export async function connectModernStdio(
  entry: string,
  env: Record<string, string>,
  name?: string,
  options?: Omit<ClientOptions, 'versionNegotiation'>,
): Promise<Client> {
  const client = modernClient(name, options);
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [entry],
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

export async function connectModernHttp(
  url: string,
  name?: string,
  options?: Omit<ClientOptions, 'versionNegotiation'>,
): Promise<Client> {
  const client = modernClient(name, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export async function connectLegacyStdio(
  entry: string,
  env: Record<string, string>,
  name = TEST_CLIENT_NAME,
): Promise<LegacyClient> {
  const client = new LegacyClient(clientInfo(name));
  await client.connect(
    new LegacyStdioTransport({
      command: process.execPath,
      args: [entry],
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

export async function connectLegacyHttp(url: string, name = TEST_CLIENT_NAME): Promise<LegacyClient> {
  const client = new LegacyClient(clientInfo(name));
  await client.connect(new LegacyHttpTransport(new URL(url)));
  return client;
}
