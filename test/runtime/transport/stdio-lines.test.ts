/**
 * The bounded line reader in front of the SDK's stdio transport (templates/runtime/transport/stdio-lines.ts): lines too
 * long or malformed are answered, never passed on, and never stop the lines after them.
 */
import { describe, expect, it } from 'vitest';
import { BoundedLines, idAtEnds, type RefusedLine } from '../../../templates/runtime/transport/stdio-lines.js';

const LIMIT = 1024;
const CHUNK = 64 * 1024;

/** Feeds `input` in chunks of `chunkSize` bytes; what was passed on (as text) and what was refused. */
async function read(input: string | Buffer, chunkSize = CHUNK, limit = LIMIT) {
  const refused: RefusedLine[] = [];
  const passed: string[] = [];
  const lines = new BoundedLines(limit, (r) => refused.push(r));
  lines.on('data', (chunk: Buffer) => passed.push(chunk.toString()));
  const bytes = Buffer.from(input);
  for (let start = 0; start < bytes.length; start += chunkSize) {
    await new Promise<void>((resolve, reject) =>
      lines.write(bytes.subarray(start, start + chunkSize), (e) => (e ? reject(e) : resolve())),
    );
  }
  return { passed, refused };
}

const message = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: {} });
/** As the SDK's client writes a request: the id last. */
const idLast = (id: number | string, filler: string) =>
  JSON.stringify({
    method: 'tools/call',
    params: { name: 'execute', arguments: { code: filler } },
    jsonrpc: '2.0',
    id,
  });

describe('BoundedLines', () => {
  it('passes JSON-RPC lines on byte for byte, each with its newline, however the input is cut', async () => {
    const input = `${message(1)}\n${message(2)}\r\n\n   \n${message(3)}\n`;
    for (const chunkSize of [1, 7, CHUNK]) {
      const { passed, refused } = await read(input, chunkSize);
      expect(passed).toEqual([`${message(1)}\n`, `${message(2)}\r\n`, `${message(3)}\n`]);
      expect(refused).toEqual([]);
    }
  });

  it('skips a 12 MiB line as it streams, answers it with its id, and passes the next line', async () => {
    const huge = idLast(42, 'x'.repeat(12 * 1024 * 1024));
    const { passed, refused } = await read(`${huge}\n${message(2)}\n`);
    expect(refused).toEqual([
      { id: 42, code: -32600, message: expect.stringContaining('MCP_STDIO_MAX_MESSAGE_BYTES'), bytes: huge.length },
    ]);
    expect(passed).toEqual([`${message(2)}\n`]);
  });

  it('reads a line exactly at the limit, and refuses one byte more', async () => {
    const base = idLast(1, '');
    const at = idLast(1, 'y'.repeat(LIMIT - base.length));
    const over = idLast(2, 'y'.repeat(LIMIT - base.length + 1));
    const { passed, refused } = await read(`${at}\n${over}\n`, 100);
    expect(passed).toEqual([`${at}\n`]);
    expect(refused.map((r) => [r.id, r.bytes])).toEqual([[2, LIMIT + 1]]);
  });

  it('answers a line that is not JSON with a parse error and id null', async () => {
    const { passed, refused } = await read(`{"jsonrpc":"2.0","id":3,"method":"tools/list"\n${message(4)}\n`);
    expect(refused).toEqual([{ id: null, code: -32700, message: expect.stringContaining('not JSON'), bytes: 45 }]);
    expect(passed).toEqual([`${message(4)}\n`]);
  });

  it('answers JSON that is not a JSON-RPC message with an invalid-request error, with its id when it has one', async () => {
    const { passed, refused } = await read(
      ['{"jsonrpc":"2.0","id":5,"method":7}', '[1,2]', '{"jsonrpc":"2.0","id":{"x":1},"method":"a"}', message(6)].join(
        '\n',
      ) + '\n',
    );
    expect(refused.map((r) => [r.id, r.code])).toEqual([
      [5, -32600],
      [null, -32600],
      [null, -32600],
    ]);
    expect(passed).toEqual([`${message(6)}\n`]);
  });
});

describe('idAtEnds', () => {
  it('reads the id among the first members, or as the last one', () => {
    expect(idAtEnds('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"argu', '')).toBe(7);
    expect(idAtEnds('{"id":"a\\"b","jsonrpc":"2.0","par', '')).toBe('a"b');
    expect(idAtEnds('{"method":"tools/call","params":{"', 'xxx"}},"jsonrpc":"2.0","id":"req-9"}\r')).toBe('req-9');
  });

  it('never takes the id of a nested object or one written inside a string', () => {
    expect(idAtEnds('{"method":"tools/call","params":{"id":3,', 'xx"}}')).toBeNull();
    expect(idAtEnds('{"method":"x","params":{"', '"a":{"id":3}}}')).toBeNull();
    expect(idAtEnds('{"method":"x","params":{"', '"code":"return {\\"id\\":3}"}}')).toBeNull();
    expect(idAtEnds('{"params":{"id":1}', 'x')).toBeNull();
  });
});
