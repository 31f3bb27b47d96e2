/**
 * Attack: a caller makes the server hold a whole upstream body in memory by reading a far page of a response link.
 * A response link is read one 1 MiB page at a time, each read replaying the GET; `?page=N` may name any page up to
 * 999,999. A body that is large (a download) or endless (a stream the API never ends) then had the server keep
 * every byte before the page: reading page N held N MiB, for as long as the API kept sending within the call's
 * time budget, and each concurrent read as much again, until the process ran out of memory for every caller.
 *
 * The server here is the real one (createServer, node:http to an upstream on 127.0.0.1); the upstream streams
 * text until the server stops reading, or until a bound this test sets, so the test ends by itself.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createServer as createHttpServer, type Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer } from '../../../templates/runtime/server/create-server.js';
import { LINK_PAGE_BYTES } from '../../../templates/runtime/primitives/response-links.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

/** The far page read: the attack asks for page 200, 200 MiB into the body. */
const FAR_PAGE = 200;
/** The upstream stops after this much, whatever happens (the test's own bound). */
const UPSTREAM_LIMIT_BYTES = (FAR_PAGE + 8) * LINK_PAGE_BYTES;
const TOKEN = 'oat-Zq8LmW3xT7rYc2Vb9Nk4Hs6Pd1';

let upstream: Server;
let upstreamUrl = '';
let sentBytes = 0;

/** Words of text, 64 KiB at a time, until the reader goes away or the limit is reached. */
function streamText(res: import('node:http').ServerResponse): void {
  const chunk = Buffer.from('lorem ipsum dolor sit amet '.repeat(2_500).slice(0, 65_536));
  let sent = 0;
  const pump = () => {
    while (sent < UPSTREAM_LIMIT_BYTES && !res.destroyed) {
      sent += chunk.byteLength;
      sentBytes += chunk.byteLength;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

beforeAll(async () => {
  upstream = createHttpServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    streamText(res);
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const address = upstream.address();
  upstreamUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  upstream.closeAllConnections();
  await new Promise((resolve) => upstream.close(resolve));
});

it('reading a far page of a link to an endless body holds about one page of it, not everything before', async () => {
  const server = await createServer({
    catalogUrl: pathToFileURL(`${REPO_ROOT}/generated-examples/petstore/catalog.json`),
    env: { API_BASE_URL: upstreamUrl, PETSTORE_AUTH_TOKEN: TOKEN, API_TIMEOUT_MS: '60000' },
  });
  const endpoint = await server.endpoint();
  const client = new Client(
    { name: 'attack', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => endpoint.fetch(new Request(url, init)),
    }),
  );
  try {
    const called = await client.callTool({ name: 'getPetById', arguments: { petId: 1 } });
    const link = (called.content as Array<{ type: string; uri?: string }>).find((c) => c.type === 'resource_link');
    expect(link?.uri).toMatch(/^response:\/\/upstream\//);

    const baseline = process.memoryUsage().arrayBuffers;
    let peak = baseline;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 5);
    sentBytes = 0;
    let page: Awaited<ReturnType<Client['readResource']>>;
    try {
      page = await client.readResource({ uri: `${link!.uri}?page=${FAR_PAGE}` });
    } finally {
      clearInterval(sampler);
    }
    const held = peak - baseline;
    console.log(
      `page ${FAR_PAGE}: upstream sent ${(sentBytes / 2 ** 20).toFixed(0)} MiB, server held ${(held / 2 ** 20).toFixed(1)} MiB at peak`,
    );

    // The page is served, and it is the right one: it starts 200 MiB (less a dropped edge word) into the body.
    const meta = page.contents[0]!._meta!['openapi-to-mcp/page'] as { offset: number; bytes: number; next?: string };
    expect(meta.offset).toBeGreaterThan(FAR_PAGE * LINK_PAGE_BYTES - 600);
    expect(meta.offset).toBeLessThanOrEqual(FAR_PAGE * LINK_PAGE_BYTES);
    expect(meta.bytes).toBeGreaterThan(LINK_PAGE_BYTES - 1_200);
    expect(meta.next).toMatch(/\?page=201$/);
    // Generous (dropped chunks wait for the garbage collector): before the fix the server held all 200 MiB
    // before the page, 217 MiB at peak; since, 25–35 MiB whatever the page.
    expect(held).toBeLessThan(96 * 2 ** 20);
  } finally {
    await client.close();
    await endpoint.close();
  }
}, 120_000);
