/** Response links: signed tokens that expire, and pages of a body that keep UTF-8 characters whole. */
import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import type { UpstreamResponse } from '../../../templates/runtime/upstream/http-client.js';
import { pageResult } from '../../../templates/runtime/upstream/response.js';
import { createResponseLinker, LINK_PAGE_BYTES } from '../../../templates/runtime/primitives/response-links.js';
import { redactionOf, redactText } from '../../../templates/runtime/redaction/cut.js';
import { secretForms } from '../../../templates/runtime/redaction/redact.js';

function upstream(body: Buffer, contentType: string): UpstreamResponse {
  return {
    status: 200,
    statusText: 'OK',
    header: (name) =>
      name === 'content-type' ? contentType : name === 'content-length' ? String(body.byteLength) : null,
    readCapped: async (max, skip = 0) => {
      const skipped = Math.min(skip, body.byteLength);
      return { bytes: body.subarray(skipped, skipped + max), truncated: body.byteLength > skipped + max, skipped };
    },
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

  it('reads a page from a window of the body, and the pages still join up, secrets redacted whole', async () => {
    // Pages of 4 KiB: from the second one on, the body before the page's window is skipped, not held.
    const secret = 'sk-live-Q7vX2mN9pL4rT8wY';
    const words = Array.from({ length: 6_000 }, (_, i) => (i % 97 === 0 ? secret : i % 5 === 0 ? `é${i}€` : `w${i}`));
    const body = Buffer.from(words.join(' '));
    const redaction = redactionOf(secretForms([secret]));
    const opts = { ...OPTS, redaction };
    const texts: string[] = [];
    let skippedMost = 0;
    for (let index = 0, more = true; more; index++) {
      const response = upstream(body, 'text/plain; charset=utf-8');
      const read = response.readCapped.bind(response);
      response.readCapped = async (max, skip) => {
        skippedMost = Math.max(skippedMost, skip ?? 0);
        expect(max).toBeLessThan(4 * 4096);
        return read(max, skip);
      };
      const result = await pageResult(response, { index, size: 4096 }, opts);
      const text = (result.content[0] as { text: string }).text;
      expect(result.page!.offset).toBe(Buffer.byteLength(texts.join('').replaceAll('[redacted]', secret)));
      texts.push(text);
      more = result.page!.more;
    }
    expect(skippedMost).toBeGreaterThan(body.byteLength - 3 * 4096);
    const joined = texts.join('');
    expect(joined).toBe(redactText(words.join(' '), redaction));
    expect(joined.includes('\ufffd')).toBe(false);
    expect(texts.some((t) => /sk-l|Y\b/.test(t.replaceAll('[redacted]', '')))).toBe(false);
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
