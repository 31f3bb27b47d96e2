/**
 * End to end: large and binary GET responses come back as a `resource_link` the client reads in pages
 * (templates/runtime/primitives/response-links.ts). A 20 MB body is read back whole, page by page, by the SDK v2 client
 * over HTTP and the v1 client over stdio; every page replays the exact upstream request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { connectLegacyStdio, connectModernHttp } from '../helpers/mcp-clients.js';
import { startHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/requests.yaml`;
const PAGE = 1_048_576;

/** 20,000,000 bytes of JSON with two-byte characters, so pages have UTF-8 characters to keep whole. */
const BIG = (() => {
  const item = '"caf\u00e9",'; // 8 bytes
  const count = Math.floor((20_000_000 - 2) / 8);
  const rest = 20_000_000 - 2 - count * 8;
  return Buffer.from(`[${item.repeat(count)}0${' '.repeat(rest - 1)}]`);
})();
const PDF = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 256));

let upstream: MockUpstream;
let project: BuiltProject;
let server: HttpServerProcess;

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(SPEC);
  server = await startHttpServer(project.entry, env());
});

afterAll(async () => {
  await server?.stop();
  await upstream?.close();
  project?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond((req) => {
    if (req.url.startsWith('/v1/items/big'))
      return { headers: { 'content-type': 'application/json', 'content-length': String(BIG.byteLength) }, body: BIG };
    if (req.url.startsWith('/v1/items/doc'))
      return { headers: { 'content-type': 'application/pdf', 'content-length': String(PDF.byteLength) }, body: PDF };
    return {
      headers: { 'content-type': 'application/json' } as Record<string, string>,
      body: BIG.subarray(0, 300_000),
    };
  });
});

function env(): Record<string, string> {
  return { API_BASE_URL: `${upstream.url}/v1` };
}

type Content = { type: string; text?: string; uri?: string; size?: number; mimeType?: string };
type PageContent = { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: Record<string, unknown> };

interface LinkClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  readResource(params: { uri: string }): Promise<{ contents: unknown[] }>;
  close(): Promise<void>;
}

/** Reads a link from page 0 while each page names a next one. */
async function readAllPages(client: LinkClient, uri: string): Promise<PageContent[]> {
  const pages: PageContent[] = [];
  for (let next: string | undefined = uri; next;) {
    const page = (await client.readResource({ uri: next })).contents[0] as PageContent;
    pages.push(page);
    next = (page._meta?.['openapi-to-mcp/page'] as { next?: string } | undefined)?.next;
  }
  return pages;
}

function linksLargeBodies(connect: () => Promise<LinkClient>) {
  let client: LinkClient;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('gives what fits of a 20 MB body and a link that reads the whole body in 1 MiB pages', async () => {
    const result = (await client.callTool({ name: 'getItem', arguments: { itemId: 'big' } })) as {
      content: Content[];
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    expect(result.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
    expect(result.content[0]!.text).toMatch(/…\[truncated: 19900\d{3} more bytes not shown\]$/);
    const link = result.content[1]!;
    expect(link).toMatchObject({ mimeType: 'application/json', size: 20_000_000 });
    expect(link.uri).toMatch(/^response:\/\/upstream\/[\w-]+\.[\w-]+$/);

    const pages = await readAllPages(client, link.uri!);
    expect(BIG.byteLength).toBe(20_000_000);
    expect(pages).toHaveLength(Math.ceil(BIG.byteLength / PAGE));
    // Compared as a flag: a failing toEqual on 20 MB would print (and build) a diff of every byte.
    expect(Buffer.from(pages.map((p) => p.text).join('')).equals(BIG)).toBe(true);
    expect(pages.every((p) => p.mimeType === 'application/json')).toBe(true);
    expect(pages[1]!._meta).toEqual({
      'openapi-to-mcp/page': {
        index: 1,
        offset: Buffer.byteLength(pages[0]!.text!),
        bytes: Buffer.byteLength(pages[1]!.text!),
        totalBytes: 20_000_000,
        next: `${link.uri}?page=2`,
      },
    });
    // The call once, then one replay of the same GET per page.
    expect(upstream.requests).toHaveLength(1 + pages.length);
    expect(new Set(upstream.requests.map((r) => `${r.method} ${r.url}`))).toEqual(new Set(['GET /v1/items/big']));
  });

  it('gives a binary download as a link, read back as the same bytes', async () => {
    const result = (await client.callTool({ name: 'getItem', arguments: { itemId: 'doc' } })) as {
      content: Content[];
    };
    expect(result.content[0]).toEqual({
      type: 'text',
      text: '300000 bytes of application/pdf: read it from the resource link.',
    });
    expect(result.content[1]).toMatchObject({ type: 'resource_link', mimeType: 'application/pdf', size: 300_000 });
    const pages = await readAllPages(client, result.content[1]!.uri!);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.mimeType).toBe('application/pdf');
    expect(Buffer.from(pages[0]!.blob!, 'base64').equals(PDF)).toBe(true);
  });

  it('refuses a link whose token was changed, and a page past the end, sending nothing for the first', async () => {
    const result = (await client.callTool({ name: 'getItem', arguments: { itemId: 'doc' } })) as {
      content: Content[];
    };
    const uri = result.content[1]!.uri!;
    upstream.requests.length = 0;
    const [body, mac] = uri.slice('response://upstream/'.length).split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(body!, 'base64url').toString()), a: { itemId: 'big' } }),
    ).toString('base64url');
    await expect(client.readResource({ uri: `response://upstream/${forged}.${mac}` })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('not a link of this server, or expired'),
    });
    expect(upstream.requests).toEqual([]);
    await expect(client.readResource({ uri: `${uri}?page=3` })).rejects.toMatchObject({
      message: expect.stringContaining('the body has fewer than 4 pages'),
    });
  });

  it('links only GET responses: another method is only truncated, since replaying it could repeat its effect', async () => {
    const result = (await client.callTool({ name: 'createItem', arguments: { body: { name: 'n' } } })) as {
      content: Content[];
    };
    expect(result.content.map((c) => c.type)).toEqual(['text']);
    expect(result.content[0]!.text).toMatch(/…\[truncated: more bytes not shown\]$/);
  });
}

describe('HTTP, 2026-07-28 client', () => {
  linksLargeBodies(() => connectModernHttp(server.url));
});

describe('stdio, 2025-11-25 client', () => {
  linksLargeBodies(() => connectLegacyStdio(project.entry, env()));
});
