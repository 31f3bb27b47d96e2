/** Response links: signed tokens that expire, and pages of a body that keep UTF-8 characters whole. */
import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import type { UpstreamResponse } from '../../../templates/runtime/upstream/http-client.js';
import { pageResult } from '../../../templates/runtime/upstream/response.js';
import { createResponseLinker, LINK_PAGE_BYTES } from '../../../templates/runtime/primitives/response-links.js';

function upstream(body: Buffer, contentType: string): UpstreamResponse {
  return {
    status: 200,
    statusText: 'OK',
    header: (name) =>
      name === 'content-type' ? contentType : name === 'content-length' ? String(body.byteLength) : null,
    readCapped: async (max) => ({ bytes: body.subarray(0, max), truncated: body.byteLength > max }),
    discard: async () => undefined,
  } as UpstreamResponse;
}

const OPTS = { maxBytes: 1000, requestLabel: 'GET /x' };

describe('pageResult', () => {
  it('cuts pages on UTF-8 character boundaries, so they concatenate to the body', async () => {
    const body = Buffer.from('aé'.repeat(50)); // 150 bytes, two-byte characters at odd offsets
    const texts: string[] = [];
    for (let index = 0, more = true; more; index++) {
      const result = await pageResult(upstream(body, 'application/json'), { index, size: 16 }, OPTS);
      texts.push((result.content[0] as { text: string }).text);
      more = result.page!.more;
      expect(result.page).toMatchObject({ index, mimeType: 'application/json', totalBytes: 150 });
    }
    expect(texts.join('')).toBe('aé'.repeat(50));
    expect(texts.every((t) => !t.includes('\ufffd'))).toBe(true);
  });

  it('ends each page of text before the word it would split, and the next page starts there', async () => {
    const words = Array.from({ length: 300_000 }, (_, i) => `w${i}`).join(' '); // about 2.1 MB
    const body = Buffer.from(words);
    const texts: string[] = [];
    for (let index = 0, more = true; more; index++) {
      const result = await pageResult(upstream(body, 'text/plain'), { index, size: LINK_PAGE_BYTES }, OPTS);
      const text = (result.content[0] as { text: string }).text;
      texts.push(text);
      more = result.page!.more;
      if (more) expect(text.endsWith(' ')).toBe(true);
      expect(result.page!.offset).toBe(Buffer.byteLength(texts.slice(0, -1).join('')));
      expect(result.page!.bytes).toBe(Buffer.byteLength(text));
    }
    expect(texts.length).toBe(3);
    expect(texts.join('')).toBe(words);
  });

  it('gives binary pages as blobs of exactly the page size', async () => {
    const body = Buffer.from(Array.from({ length: 40 }, (_, i) => i));
    const second = await pageResult(upstream(body, 'application/pdf'), { index: 1, size: 16 }, OPTS);
    const blob = (second.content[0] as { resource: { blob: string } }).resource.blob;
    expect([...Buffer.from(blob, 'base64')]).toEqual([...body.subarray(16, 32)]);
    expect(second.page).toMatchObject({ offset: 16, bytes: 16, more: true });
  });
});

describe('createResponseLinker', () => {
  const tool = { name: 'getThing', request: { method: 'GET', path: '/things/{id}' } } as unknown as CatalogTool;
  const cut = { mimeType: 'application/pdf', binary: true, totalBytes: 5 };
  const result = { content: [{ type: 'text' as const, text: 'x' }], cut };

  it('links GET results only, and never lets the cut marker out', () => {
    const linker = createResponseLinker('k'.repeat(32));
    const linked = linker.linked(tool, { id: 1 }, result);
    expect(linked).not.toHaveProperty('cut');
    expect(linked.content.map((c) => c.type)).toEqual(['text', 'resource_link']);
    const post = { ...tool, request: { method: 'POST', path: '/things' } } as unknown as CatalogTool;
    expect(linker.linked(post, {}, result)).toEqual({ content: result.content });
  });

  it('reads a page only for a token it signed, before it expires', async () => {
    let now = 1_000_000_000_000;
    const linker = createResponseLinker('k'.repeat(32), () => now);
    const link = linker.linked(tool, { id: 1 }, result).content[1] as { uri: string };
    const calls: unknown[] = [];
    const template = linker.template(async (name, args, page) => {
      calls.push([name, args, page]);
      return {
        content: [{ type: 'resource', resource: { uri: 'u', mimeType: 'application/pdf', blob: 'AQID' } }],
        page: { index: 0, mimeType: 'application/pdf', offset: 0, bytes: 3, more: false },
      };
    });
    const token = link.uri.slice('response://upstream/'.length);
    const ctx = {} as Parameters<typeof template.read>[2];
    await expect(template.read(link.uri, { token }, ctx)).resolves.toMatchObject([{ blob: 'AQID' }]);
    expect(calls).toEqual([['getThing', { id: 1 }, { index: 0, size: LINK_PAGE_BYTES }]]);
    const other = createResponseLinker('o'.repeat(32)).template(async () => result);
    await expect(other.read(link.uri, { token }, ctx)).rejects.toThrow('not a link of this server');
    now += 3_601_000;
    await expect(template.read(link.uri, { token }, ctx)).rejects.toThrow('or expired');
    expect(calls).toHaveLength(1);
  });
});
