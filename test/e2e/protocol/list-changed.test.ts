/**
 * list_changed (templates/runtime/reload/catalog-watch.ts): a running server whose project is regenerated in place by
 * the real CLI serves the new catalog and tells its client. Over stdio with the SDK v2 client (2026-07-28, on
 * the listen stream it opens) and the v1 client (2025-11-25, unsolicited); a half-written regeneration is not
 * served until it is complete; a call in flight during a swap completes. Over HTTP (MCP_WATCH_CATALOG=on) the
 * v2 client's listen stream gets the notification, and a v1 client, which stateless HTTP cannot notify, lists
 * the new tools.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import type { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { GENERATION_FILE } from '../../../templates/runtime/contract/generation.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import {
  connectLegacyHttp,
  connectLegacyStdio,
  connectModernHttp,
  connectModernStdio,
} from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';

const SPECS = join(REPO_ROOT, 'fixtures', 'specs', 'list-changed');
const V1 = join(SPECS, 'v1.yaml');
/** v1 without getStats, with listOwnerPets. */
const V2 = join(SPECS, 'v2.yaml');
const V1_TOOLS = ['getPet', 'getStats', 'listPets'];
const V2_TOOLS = ['getPet', 'listOwnerPets', 'listPets'];
const CLI = join(REPO_ROOT, 'dist', 'src', 'cli.js');
/** Well past the watch's debounce (150 ms) and a reload, on a busy machine. */
const NOTIFICATION_TIMEOUT_MS = 15_000;
const QUIET_MS = 1_500;
/** getPet of this id is answered only when the test lets it (a call in flight during a swap). */
const HELD_PET = 77;

let project: BuiltProject;
let upstream: MockUpstream;
let releaseHeld: () => void = () => undefined;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond((req) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: req.url }),
  }));
  project = await generateAndBuild(V1);
}, 120_000);

afterAll(async () => {
  releaseHeld();
  await upstream?.close();
  project?.cleanup();
});

/** The real CLI, regenerating the project in place. */
function regenerate(spec: string): void {
  execFileSync(process.execPath, [CLI, spec, '-o', project.dir], { stdio: 'pipe' });
}

const env = () => ({ API_BASE_URL: `${upstream.url}/v1` });

/** Resolves on the next notification; `expectNone` resolves after `ms` when none came, else rejects. */
class Notifications {
  private waiters: Array<() => void> = [];
  count = 0;
  /** The tools the v2 client fetched itself on each notification (its `autoRefresh`). */
  refreshed: string[][] = [];

  arrived = (_error?: unknown, tools?: Array<{ name: string }> | null) => {
    this.count++;
    if (tools) this.refreshed.push(names(tools));
    for (const waiter of this.waiters.splice(0)) waiter();
  };

  next(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no list_changed notification')), NOTIFICATION_TIMEOUT_MS);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** The v2 client caches tools/list for its ttlMs: every listing here asks the server. */
const BYPASS = { cacheMode: 'bypass' } as const;

const names = (tools: Array<{ name: string }>) => tools.map((t) => t.name).sort();

/** What a regeneration from v1 to v2 must give a connected client, whichever SDK it is. */
async function expectSwapToV2(
  listTools: () => Promise<Array<{ name: string }>>,
  callTool: (name: string, args: Record<string, unknown>) => Promise<unknown>,
  notified: Promise<void> | undefined,
): Promise<void> {
  expect(names(await listTools())).toEqual(V1_TOOLS);
  regenerate(V2);
  if (notified) await notified;
  expect(names(await listTools())).toEqual(V2_TOOLS);
  const before = upstream.requests.length;
  const result = (await callTool('listOwnerPets', { ownerId: 'ada lovelace', species: 'cat' })) as {
    isError?: boolean;
  };
  expect(result.isError).toBeFalsy();
  expect(upstream.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([
    'GET /v1/owners/ada%20lovelace/pets?species=cat',
  ]);
}

describe('stdio', () => {
  it('2026-07-28 (SDK v2 client): regenerating in place gives tools/list_changed and the new tool', async () => {
    regenerate(V1);
    const notifications = new Notifications();
    // As a host would: the client re-lists the tools itself when told they changed.
    const client = await connectModernStdio(project.entry, env(), undefined, {
      listChanged: { tools: { autoRefresh: true, debounceMs: 0, onChanged: notifications.arrived } },
    });
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      await expectSwapToV2(
        async () => (await client.listTools(undefined, BYPASS)).tools,
        (name, args) => client.callTool({ name, arguments: args }),
        notifications.next(),
      );
      expect(notifications.refreshed).toEqual([V2_TOOLS]);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('2025-11-25 (SDK v1 client): the same, as an unsolicited notification', async () => {
    regenerate(V1);
    const client = await connectLegacyStdio(project.entry, env());
    const notifications = new Notifications();
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => notifications.arrived());
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      await expectSwapToV2(
        async () => (await client.listTools()).tools,
        (name, args) => client.callTool({ name, arguments: args }),
        notifications.next(),
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it('serves a half-written regeneration only once it is complete', async () => {
    regenerate(V2);
    const notifications = new Notifications();
    const client = await connectModernStdio(project.entry, env(), undefined, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: notifications.arrived } },
    });
    try {
      expect(names((await client.listTools(undefined, BYPASS)).tools)).toEqual(V2_TOOLS);
      // v1's files, as a writer that stopped half-way would leave them: the manifest and the catalog, not the rest.
      const v1 = await generate({ spec: V1, out: project.dir, validate: false, write: false });
      const file = (path: string) => v1.files.find((f) => f.path === path)!;
      const write = (path: string) => writeFileSync(join(project.dir, path), file(path).contents);
      write(GENERATION_FILE);
      write('catalog.json');
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      expect(notifications.count).toBe(0);
      expect(names((await client.listTools(undefined, BYPASS)).tools)).toEqual(V2_TOOLS);
      const complete = notifications.next();
      for (const path of ['search-index.json', 'openapi.json', 'operations.md']) write(path);
      await complete;
      expect(names((await client.listTools(undefined, BYPASS)).tools)).toEqual(V1_TOOLS);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a call in flight during a swap completes', async () => {
    regenerate(V1);
    const held = new Promise<void>((resolve) => (releaseHeld = resolve));
    upstream.respond((req) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: req.url }),
      ...(req.url.endsWith(`/pets/${HELD_PET}`) ? { hold: held } : {}),
    }));
    const notifications = new Notifications();
    const client = await connectModernStdio(project.entry, env(), undefined, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: notifications.arrived } },
    });
    try {
      const before = upstream.requests.length;
      const call = client.callTool({ name: 'getPet', arguments: { petId: HELD_PET } });
      await waitFor(() => upstream.requests.length > before);
      const swapped = notifications.next();
      regenerate(V2);
      await swapped;
      releaseHeld();
      const result = (await call) as { isError?: boolean; structuredContent?: unknown };
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result)).toContain(`/v1/pets/${HELD_PET}`);
      expect(names((await client.listTools(undefined, BYPASS)).tools)).toEqual(V2_TOOLS);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('Streamable HTTP (MCP_WATCH_CATALOG=on)', () => {
  let server: HttpServerProcess;

  beforeAll(async () => {
    regenerate(V1);
    server = await startHttpServer(project.entry, { ...env(), MCP_WATCH_CATALOG: 'on' });
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('publishes tools/list_changed on the 2026-07-28 listen stream; a 2025-11-25 client lists the new tools', async () => {
    const notifications = new Notifications();
    const client: Client = await connectModernHttp(`${server.url}`, undefined, {
      listChanged: { tools: { autoRefresh: false, debounceMs: 0, onChanged: notifications.arrived } },
    });
    const legacy: LegacyClient = await connectLegacyHttp(server.url);
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      expect(names((await legacy.listTools()).tools)).toEqual(V1_TOOLS);
      await expectSwapToV2(
        async () => (await client.listTools(undefined, BYPASS)).tools,
        (name, args) => client.callTool({ name, arguments: args }),
        notifications.next(),
      );
      expect(names((await legacy.listTools()).tools)).toEqual(V2_TOOLS);
    } finally {
      await client.close();
      await legacy.close();
    }
  }, 60_000);

  it('is off over HTTP by default: no listChanged declared, the catalog of the start is served', async () => {
    regenerate(V1);
    const plain = await startHttpServer(project.entry, env());
    const client = await connectModernHttp(plain.url);
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(false);
      regenerate(V2);
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      expect(names((await client.listTools(undefined, BYPASS)).tools)).toEqual(V1_TOOLS);
    } finally {
      await client.close();
      await plain.stop();
    }
  }, 60_000);
});

async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + NOTIFICATION_TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
