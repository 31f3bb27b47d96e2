/**
 * End to end: the resources and prompts a generated server offers (templates/runtime/primitives/api-primitives.ts). The
 * OpenAPI document and the operations guide as resources, a config resource template read through its GET
 * operation (exact upstream requests), the operations guide and a config prompt as prompts; with the SDK v2
 * client (2026-07-28) and the v1 client (2025-11-25).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostics.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import {
  connectLegacyHttp,
  connectLegacyStdio,
  connectModernHttp,
  connectModernStdio,
} from '../helpers/mcp-clients.js';
import { startHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/requests.yaml`;
const CONFIG = {
  resources: { templates: { getItem: 'items://{itemId}{?tags}' } },
  prompts: {
    custom: [
      {
        name: 'inspect_item',
        description: 'Look at one item',
        arguments: [{ name: 'id', description: 'The item', required: true }],
        text: 'Read item {{id}} with {{tool:getItem}}, then list the others with {{tool:GET /items}}.',
      },
    ],
  },
};

let upstream: MockUpstream;
let project: BuiltProject;
let configDir: string;
let server: HttpServerProcess;

beforeAll(async () => {
  upstream = await startMockUpstream();
  configDir = mkdtempSync(join(tmpdir(), 'otm-prims-config-'));
  writeFileSync(join(configDir, 'config.json'), JSON.stringify(CONFIG));
  project = await generateAndBuild(SPEC, { config: join(configDir, 'config.json') });
  server = await startHttpServer(project.entry, env());
});

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  project?.cleanup();
  rmSync(configDir, { recursive: true, force: true });
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond((req) =>
    req.url.startsWith('/v1/items/missing')
      ? { status: 404, headers: { 'content-type': 'application/json' }, body: '{"message":"no such item"}' }
      : { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"42","name":"kettle"}' },
  );
});

function env(): Record<string, string> {
  return { API_BASE_URL: `${upstream.url}/v1` };
}

const DOCUMENT = 'openapi://server/openapi.json';
const GUIDE = 'openapi://server/operations.md';

interface ResourceClient {
  listResources(): Promise<{ resources: Array<{ uri: string; name: string; mimeType?: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<{ uriTemplate: string; name: string }> }>;
  readResource(params: {
    uri: string;
  }): Promise<{ contents: Array<{ uri: string; mimeType?: string; text?: unknown }> }>;
  listPrompts(): Promise<{ prompts: Array<{ name: string; arguments?: unknown[] }> }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<{
    messages: Array<{ role: string; content: { type: string; text?: unknown } }>;
  }>;
  close(): Promise<void>;
}

function servesResourcesAndPrompts(connect: () => Promise<ResourceClient>) {
  let client: ResourceClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists the OpenAPI document and the operations guide', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => [r.uri, r.name, r.mimeType])).toEqual([
      [DOCUMENT, 'openapi.json', 'application/json'],
      [GUIDE, 'operations.md', 'text/markdown'],
    ]);
  });

  it('reads the OpenAPI document as loaded, and the guide', async () => {
    const document = await client.readResource({ uri: DOCUMENT });
    const loaded = await loadSpec(SPEC, new Diagnostics(), { validate: false });
    expect(JSON.parse(String(document.contents[0]!.text))).toEqual(loaded.document);
    expect(loaded.document['info']).toMatchObject({ title: 'Request mapping fixture' });
    const guide = String((await client.readResource({ uri: GUIDE })).contents[0]!.text);
    expect(guide).toContain('- `getItem`: GET /items/{itemId}: Get one item (required: itemId)');
    expect(guide).toContain('These ask the user to confirm before anything is sent: `deleteItem`.');
    expect(upstream.requests).toEqual([]);
  });

  it('lists the template and reads it through its GET operation, with the exact request', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => [t.uriTemplate, t.name])).toEqual([
      ['items://{itemId}{?tags}', 'getItem'],
      // The links of large and binary responses (response-links.test.ts).
      ['response://upstream/{token}{?page}', 'upstream response'],
    ]);
    const read = await client.readResource({ uri: 'items://a%2Fb?tags=x,y' });
    expect(read.contents).toEqual([
      { uri: 'items://a%2Fb?tags=x,y', mimeType: 'application/json', text: '{"id":"42","name":"kettle"}' },
    ]);
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v1/items/a%2Fb?tags=x&tags=y']);
  });

  it("answers an API 404 as the resource's not found (-32602 with the URI, SEP-2164)", async () => {
    await expect(client.readResource({ uri: 'items://missing' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Reading items://missing: HTTP 404 Not Found from GET /items/{itemId}'),
    });
    await expect(client.readResource({ uri: 'other://1' })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('Resource other://1 not found'),
    });
  });

  it('lists and renders the guide prompt and the config prompt, tools named as they are', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['operations_guide', 'inspect_item']);
    const custom = await client.getPrompt({ name: 'inspect_item', arguments: { id: '42' } });
    expect(custom.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'Read item 42 with getItem, then list the others with listItems.' },
      },
    ]);
    const guide = await client.getPrompt({ name: 'operations_guide', arguments: { task: 'rename item 7' } });
    const text = String(guide.messages[0]!.content.text);
    expect(text).toMatch(/^# Request mapping fixture 1\.2\.3: operations guide/);
    expect(text).toMatch(/\nTask: rename item 7\n$/);
    await expect(client.getPrompt({ name: 'inspect_item', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
}

describe('stdio, 2026-07-28 client', () => {
  servesResourcesAndPrompts(() => connectModernStdio(project.entry, env()));
});

describe('stdio, 2025-11-25 client', () => {
  servesResourcesAndPrompts(() => connectLegacyStdio(project.entry, env()));
});

describe('HTTP, 2026-07-28 client', () => {
  servesResourcesAndPrompts(() => connectModernHttp(server.url));
});

describe('HTTP, 2025-11-25 client', () => {
  servesResourcesAndPrompts(() => connectLegacyHttp(server.url));
});
