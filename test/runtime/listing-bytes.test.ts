/**
 * Pre-serialized tools/list pages (templates/runtime/listing-bytes.ts) and the stdio transport that writes
 * them (templates/runtime/stdio.ts): the bytes a client receives are the message the SDK would have written.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serializedListing, serializedListingText, serializedTools, spliceSerializedTools } from '../../templates/runtime/listing-bytes.js';
import { SerializedPagesTransport } from '../../templates/runtime/stdio.js';

const TOOLS = [
  { name: 'getItem', description: 'Gets an item: "quoted", and Ünïcode ✓', inputSchema: { type: 'object' } },
  { name: 'listItems', description: 'Lists items', inputSchema: { type: 'object', properties: { page: { type: 'integer' } } } },
  { name: 'x.y-z', description: '', inputSchema: { type: 'object' } },
];

function fileOf(tools: readonly object[]): Buffer {
  return Buffer.from(serializedListingText(tools.map((t) => JSON.stringify(t))));
}

function page(listingBytes: Buffer, names: string[]): Buffer {
  const listing = serializedListing(listingBytes)!;
  const lines = names.map((name, i) => listing.at(i, name)!);
  return Buffer.concat(lines.flatMap((line, i) => (i === 0 ? [line] : [Buffer.from(','), line])));
}

describe('tools-list.json', () => {
  it('gives each tool its own line, byte for byte JSON.stringify of the entry', () => {
    const listing = serializedListing(fileOf(TOOLS))!;
    TOOLS.forEach((tool, i) => expect(listing.at(i, tool.name)?.toString('utf8')).toBe(JSON.stringify(tool)));
  });

  it('refuses a line that is not the named tool, an index past the end, and another layout', () => {
    const listing = serializedListing(fileOf(TOOLS))!;
    expect(listing.at(1, 'getItem')).toBeUndefined();
    expect(listing.at(0, 'get')).toBeUndefined();
    expect(listing.at(3, 'other')).toBeUndefined();
    expect(serializedListing(Buffer.from(JSON.stringify({ tools: TOOLS }, null, 2)))).toBeUndefined();
    expect(serializedListing(Buffer.from(fileOf(TOOLS).toString().replace(/\n/g, '\r\n')))).toBeUndefined(); // a CRLF checkout
    const cut = fileOf(TOOLS).subarray(0, fileOf(TOOLS).indexOf('Ünïcode')); // the first line, cut inside its description
    expect(serializedListing(cut)!.at(0, 'getItem')).toBeUndefined();
    expect(serializedListing(fileOf([]))!.at(0, 'getItem')).toBeUndefined();
  });
});

describe('a message with a pre-serialized page', () => {
  const message = (tools: unknown) => ({ result: { tools, nextCursor: '1', _meta: { server: 'x "y"' } }, jsonrpc: '2.0', id: 7 });

  it('is written as the SDK would write the message with the tools in place, on one line', () => {
    const entries = page(fileOf(TOOLS), TOOLS.map((t) => t.name));
    const parts = spliceSerializedTools(message(serializedTools(entries)))!;
    const bytes = Buffer.concat(parts);
    expect(bytes.toString('utf8')).toBe(`${JSON.stringify(message(TOOLS))}\n`);
    expect(bytes.indexOf('\n')).toBe(bytes.length - 1);
    expect(parts).toContain(entries); // the page itself is not copied again
  });

  it('leaves every other message alone, an ordinary empty tools list included', () => {
    expect(spliceSerializedTools(message([]))).toBeUndefined();
    expect(spliceSerializedTools({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } })).toBeUndefined();
    expect(spliceSerializedTools({ jsonrpc: '2.0', method: 'notifications/x' })).toBeUndefined();
  });
});

describe('the stdio transport', () => {
  function transport() {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    return { wire: new SerializedPagesTransport(stdin, stdout), written: () => Buffer.concat(chunks).toString('utf8') };
  }

  it('writes pre-serialized pages in place and everything else as the SDK does', async () => {
    const { wire, written } = transport();
    await wire.start();
    const entries = page(fileOf(TOOLS), TOOLS.map((t) => t.name));
    await wire.send(message(serializedTools(entries)) as never);
    await wire.send({ jsonrpc: '2.0', id: 8, result: { content: [] } });
    expect(written()).toBe(`${JSON.stringify(message(TOOLS))}\n${JSON.stringify({ jsonrpc: '2.0', id: 8, result: { content: [] } })}\n`);
    await wire.close();
  });

  it('refuses to send once closed, pre-serialized pages included', async () => {
    const { wire, written } = transport();
    await wire.start();
    await wire.close();
    await expect(wire.send(message(serializedTools(page(fileOf(TOOLS), ['getItem']))) as never)).rejects.toThrow(/closed/);
    expect(written()).toBe('');
  });

  function message(tools: unknown) {
    return { result: { tools }, jsonrpc: '2.0' as const, id: 7 };
  }
});
