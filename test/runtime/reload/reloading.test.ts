/**
 * ServerCore.reload (templates/runtime/server/server-core.ts) in-process: a reload swaps the one catalog state, built
 * the way the start built it; a request that arrives after it is answered from the new catalog, one in flight
 * finishes on the old; a catalog that cannot be served is refused and the current one kept. Served over the
 * HTTP factory (which a reload must rebuild with its upstream auth) to the SDK's v2 client.
 */
import { Buffer } from 'node:buffer';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler } from '@modelcontextprotocol/server';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { buildServerCore, type ServerData } from '../../../templates/runtime/server/server-core.js';
import type { ExtraTool } from '../../../templates/runtime/extend/extensions.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const SPECS = join(REPO_ROOT, 'fixtures', 'specs', 'list-changed');
const quiet: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

let v1: ServerData;
let v2: ServerData;

/** A generation's data files, as the catalog watch hands them to a reload. */
async function dataOf(spec: string): Promise<ServerData> {
  const { files } = await generate({ spec, out: join(tmpdir(), 'otm-reload-unused'), validate: false, write: false });
  const text = (path: string) => files.find((f) => f.path === path)!.contents;
  return {
    catalog: Buffer.from(text('catalog.json')),
    searchIndex: () => JSON.parse(text('search-index.json')),
    projectFile: async (file) => text(file),
  };
}

beforeAll(async () => {
  [v1, v2] = await Promise.all([dataOf(join(SPECS, 'v1.yaml')), dataOf(join(SPECS, 'v2.yaml'))]);
});

/** Upstream answers that wait until the test releases them, and the URLs asked. */
function heldFetch(): { fetch: typeof fetch; urls: string[]; release: () => void } {
  const urls: string[] = [];
  let release = () => undefined as void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const fake: typeof fetch = async (input) => {
    urls.push(String(input instanceof Request ? input.url : input));
    await released;
    return Response.json({ ok: true });
  };
  return { fetch: fake, urls, release: () => release() };
}

async function connect(factory: Parameters<typeof createMcpHandler>[0]): Promise<Client> {
  const handler = createMcpHandler(factory);
  const client = new Client(
    { name: 'reload-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => handler.fetch(new Request(url, init)),
    }),
  );
  return client;
}

const toolNames = async (client: Client) =>
  (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((t) => t.name).sort();

describe('ServerCore.reload', () => {
  it('answers later requests from the new catalog, and finishes a call in flight on the old one', async () => {
    const upstream = heldFetch();
    const core = buildServerCore(v1, {
      env: { API_BASE_URL: 'https://api.test/v1' },
      fetch: upstream.fetch,
      logger: quiet,
    });
    const client = await connect(await core.httpFactory({ listChanged: true }));
    expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
    expect(await toolNames(client)).toEqual(['getPet', 'getStats', 'listPets']);
    // getStats exists only in v1: its call, in flight across the reload, must still be served by v1's catalog.
    const inFlight = client.callTool({ name: 'getStats', arguments: {} });
    await expect.poll(() => upstream.urls.length).toBe(1);
    expect(await core.reload(v2)).toEqual({ resources: false, prompts: false });
    expect(await toolNames(client)).toEqual(['getPet', 'listOwnerPets', 'listPets']);
    upstream.release();
    expect((await inFlight).isError).toBeFalsy();
    await client.callTool({ name: 'listOwnerPets', arguments: { ownerId: 'o1' } });
    expect(upstream.urls).toEqual(['https://api.test/v1/stats', 'https://api.test/v1/owners/o1/pets']);
    const removed = await client.callTool({ name: 'getStats', arguments: {} }).catch((error: Error) => error);
    expect(String(removed)).toContain('Tool getStats not found');
    await client.close();
  });

  it('serves the reloaded catalog over HTTP when the reload came while the first HTTP catalog was being built', async () => {
    const core = buildServerCore(v1, { env: {}, logger: quiet });
    const factory = core.httpFactory();
    await core.reload(v2);
    const client = await connect(await factory);
    expect(await toolNames(client)).toEqual(['getPet', 'listOwnerPets', 'listPets']);
    await client.close();
  });

  it('refuses a catalog it cannot serve and keeps the current one', async () => {
    // The owner's tool is named like a tool v2 adds: serving both would be ambiguous (the start refuses it too).
    const ownTool: ExtraTool = {
      name: 'listOwnerPets',
      description: 'mine',
      inputSchema: { type: 'object' },
      run: () => ({ content: [] }),
    };
    const core = buildServerCore(v1, { env: {}, logger: quiet, tools: [ownTool] });
    const client = await connect(core.stdioFactory());
    await expect(core.reload(v2)).rejects.toThrow('a generated tool already has this name');
    expect(await toolNames(client)).toEqual(['getPet', 'getStats', 'listOwnerPets', 'listPets']);
    await client.close();
  });
});
