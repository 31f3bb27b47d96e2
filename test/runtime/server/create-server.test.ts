/**
 * createServer's options in-process, on a generated petstore catalog: the owner's tools (calling generated
 * ones through ctx.callTool, failing, colliding), the owner's fetch (upstream and no other path), the owner's
 * logger (given redacted lines) and hooks, served through endpoint() with the SDK's v2 client.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { createServer, type CreateServerOptions } from '../../../templates/runtime/server/create-server.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import type { ExtraTool } from '../../../templates/runtime/extend/extensions.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const work = mkdtempSync(join(tmpdir(), 'otm-create-server-'));
let catalogUrl: URL;
let bareCatalogUrl: URL;

beforeAll(async () => {
  await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
    out: join(work, 'petstore-mcp'),
    validate: false,
  });
  catalogUrl = pathToFileURL(join(work, 'petstore-mcp', 'catalog.json'));
  // Without the generated description resources and guide prompt: only the owner's would be served.
  writeFileSync(
    join(work, 'bare.json'),
    JSON.stringify({ resources: { apiDescription: false }, prompts: { operationsGuide: false } }),
  );
  await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
    out: join(work, 'bare-mcp'),
    config: join(work, 'bare.json'),
    validate: false,
  });
  bareCatalogUrl = pathToFileURL(join(work, 'bare-mcp', 'catalog.json'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SECRET = 'owner-key-5678';

/** A fetch that answers every request itself and records what it was asked. */
function recordingFetch(): { fetch: typeof fetch; urls: string[]; headers: Headers[] } {
  const urls: string[] = [];
  const headers: Headers[] = [];
  const fake: typeof fetch = async (input, init) => {
    urls.push(String(input instanceof Request ? input.url : input));
    headers.push(new Headers(init?.headers));
    return new Response(JSON.stringify({ id: 3, name: 'Tom', photoUrls: [] }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { fetch: fake, urls, headers };
}

function recordingLogger(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push(`${level} ${msg} ${JSON.stringify(fields ?? {})}`);
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, lines };
}

async function connect(options: Omit<CreateServerOptions, 'catalogUrl'>, catalog = catalogUrl): Promise<Client> {
  const server = await createServer({
    catalogUrl: catalog,
    env: { API_BASE_URL: 'http://petstore.test/api', API_KEY: SECRET },
    ...options,
  });
  const endpoint = await server.endpoint();
  const client = new Client(
    { name: 'create-server-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => endpoint.fetch(new Request(url, init)),
    }),
  );
  return client;
}

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const text = (result: unknown) => (result as CallResult).content.map((c) => c.text ?? '').join('\n');

const petName: ExtraTool<{ petId: number }> = {
  name: 'pet_name',
  description: 'The name of a pet, through the generated getPetById.',
  inputSchema: { type: 'object', properties: { petId: { type: 'integer' } }, required: ['petId'] },
  run: async ({ petId }, ctx) => {
    const result = await ctx.callTool('getPetById', { petId });
    const pet = JSON.parse(text(result)) as { name: string };
    ctx.log.info(`looked up pet ${petId} with key ${String(ctx.env['API_KEY'])}`);
    return { content: [{ type: 'text', text: pet.name }] };
  },
};

const failing: ExtraTool = {
  name: 'failing',
  description: 'Always throws.',
  inputSchema: { type: 'object' },
  run: () => Promise.reject(new Error('the owner tool broke')),
};

describe('createServer', () => {
  it('runs an owner tool that calls a generated tool through the owner fetch, and logs through the owner logger with secrets redacted', async () => {
    const upstream = recordingFetch();
    const { logger, lines } = recordingLogger();
    const client = await connect({ tools: [petName], fetch: upstream.fetch, logger });
    try {
      expect(text(await client.callTool({ name: 'pet_name', arguments: { petId: 3 } }))).toBe('Tom');
      expect(upstream.urls).toEqual(['http://petstore.test/api/pet/3']);
      expect(upstream.headers[0]!.get('api_key')).toBe(SECRET);
      expect(lines).toContain('info looked up pet 3 with key [redacted] {}');
      expect(lines.join('\n')).not.toContain(SECRET);
    } finally {
      await client.close();
    }
  });

  it('turns a throwing owner tool into a tool error', async () => {
    const client = await connect({ tools: [failing] });
    try {
      const result = (await client.callTool({ name: 'failing', arguments: {} })) as CallResult;
      expect(result.isError).toBe(true);
      expect(text(result)).toBe('Tool failing failed: the owner tool broke');
    } finally {
      await client.close();
    }
  });

  it('runs the hooks it is given around generated tools, not around owner tools', async () => {
    const upstream = recordingFetch();
    const seen: string[] = [];
    const client = await connect({
      tools: [petName],
      fetch: upstream.fetch,
      logger: recordingLogger().logger,
      hooks: { beforeRequest: ({ tool, request }) => void seen.push(`${tool} ${request.method} ${request.url}`) },
    });
    try {
      await client.callTool({ name: 'pet_name', arguments: { petId: 3 } });
      expect(seen).toEqual(['getPetById GET http://petstore.test/api/pet/3']);
    } finally {
      await client.close();
    }
  });

  it('starts with a short MCP_SIGNING_KEY, warning that it is weak', async () => {
    const { logger, lines } = recordingLogger();
    await createServer({ catalogUrl, env: { MCP_SIGNING_KEY: 'k9-tiny' }, logger });
    expect(lines.filter((l) => l.includes('MCP_SIGNING_KEY is shorter than 32 bytes'))).toHaveLength(1);
    const quiet = recordingLogger();
    await createServer({ catalogUrl, env: { MCP_SIGNING_KEY: 'k'.repeat(32) }, logger: quiet.logger });
    expect(quiet.lines.filter((l) => l.includes('MCP_SIGNING_KEY'))).toEqual([]);
  });

  it('refuses MCP_TOOL_MODE=code in a project generated in another mode, saying to regenerate', async () => {
    await expect(createServer({ catalogUrl, env: { MCP_TOOL_MODE: 'code' } })).rejects.toThrow(
      /^MCP_TOOL_MODE=code needs a project generated with --tool-mode code: .* Regenerate it with --tool-mode code/,
    );
  });

  it('refuses an owner tool named like a generated tool or a meta-tool, and names given twice', async () => {
    const clash: ExtraTool = { ...failing, name: 'getPetById' };
    await expect(createServer({ catalogUrl, env: {}, tools: [clash] })).rejects.toThrow(
      'extension tool getPetById: a generated tool already has this name',
    );
    await expect(
      createServer({ catalogUrl, env: {}, tools: [{ ...failing, name: 'search_operations' }] }),
    ).rejects.toThrow('extension tool search_operations: a generated tool already has this name');
    await expect(createServer({ catalogUrl, env: {}, tools: [failing, failing] })).rejects.toThrow(
      'extension tool failing is given twice',
    );
    const usage = { uri: 'notes://x', name: 'x', read: () => [] };
    await expect(createServer({ catalogUrl, env: {}, resources: [usage, usage] })).rejects.toThrow(
      'extension resource notes://x is given twice',
    );
  });

  it('lists owner tools to a client profile lowered like the generated ones, and calls them with the lowered arguments', async () => {
    const upstream = recordingFetch();
    const client = await connect({
      tools: [petName],
      fetch: upstream.fetch,
      logger: recordingLogger().logger,
      env: { API_BASE_URL: 'http://petstore.test/api', API_KEY: SECRET, MCP_CLIENT_PROFILE: 'openai-strict' },
    });
    try {
      const listed = (await client.listTools()).tools.find((t) => t.name === 'pet_name');
      expect(listed?.inputSchema).toMatchObject({ additionalProperties: false, required: ['petId'] });
      expect(text(await client.callTool({ name: 'pet_name', arguments: { petId: 3 } }))).toBe('Tom');
    } finally {
      await client.close();
    }
  });

  it('advertises prompts only when there are some, resources always (the links of large responses)', async () => {
    const client = await connect({}, bareCatalogUrl);
    try {
      expect(client.getServerCapabilities()).toHaveProperty('resources');
      expect((await client.listResources()).resources).toEqual([]);
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual([
        'response://upstream/{token}{?page}',
      ]);
      expect(client.getServerCapabilities()).not.toHaveProperty('prompts');
    } finally {
      await client.close();
    }
  });
});
