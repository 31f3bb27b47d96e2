/**
 * gpt-tokenizer's o200k_base merge ranks as one binary file that is read, not parsed: each token's bytes, and an
 * open-addressing hash table from bytes to rank. Building gpt-tokenizer's encoding from its ranks (parse 200,000
 * strings, then a Map of them) took 0.1 s of every generation, a third of a small spec's; reading this file
 * takes a few milliseconds. gpt-tokenizer looks a byte sequence up by its string when it is valid UTF-8 and
 * by its bytes when not, so a rank it ships as bytes that are valid UTF-8 (`EF BB BF`, a byte order mark) is
 * never found: the table leaves those out, and finds every other rank by its bytes. (Its decoder also drops a
 * leading byte order mark, `EF BB BF`, from what it looks up; no merge of o200k_base's ranks forms such bytes
 * as a pair, which test/src/report/tokens.test.ts would find as a count that differs.)
 *
 * Layout (little-endian u32 words): magic, token count N, slot count M (a power of two), byte length B; then
 * N + 1 offsets into the bytes (token r is bytes[offsets[r], offsets[r + 1])), M slots (a rank, or EMPTY),
 * and the B bytes.
 */
const MAGIC = 0x6f32306b; // 'o20k'
const HEADER_WORDS = 4;
const EMPTY = 0xffffffff;

export interface RankTable {
  offsets: Uint32Array;
  slots: Uint32Array;
  bytes: Uint8Array;
  mask: number;
}

/** The table file of `ranks` (gpt-tokenizer's: per rank, its text, or its bytes when they are not UTF-8). */
export function rankTableFile(ranks: ReadonlyArray<string | readonly number[]>): Uint8Array {
  const encoder = new TextEncoder();
  const tokens = ranks.map((r) => (typeof r === 'string' ? encoder.encode(r) : Uint8Array.from(r)));
  const size = tokens.reduce((n, t) => n + t.length, 0);
  // Load under 0.4: a lookup that misses (most pairs in a merge) ends after a probe or two.
  let slotCount = 1;
  while (slotCount < tokens.length * 2.5) slotCount *= 2;
  const words = new Uint32Array(HEADER_WORDS + tokens.length + 1 + slotCount);
  words.set([MAGIC, tokens.length, slotCount, size]);
  const offsets = words.subarray(HEADER_WORDS, HEADER_WORDS + tokens.length + 1);
  const slots = words.subarray(HEADER_WORDS + tokens.length + 1).fill(EMPTY);
  const bytes = new Uint8Array(size);
  let at = 0;
  tokens.forEach((token, rank) => {
    offsets[rank] = at;
    bytes.set(token, at);
    at += token.length;
    if (typeof ranks[rank] !== 'string' && isValidUtf8(token, 0, token.length)) return;
    let slot = hash(token, 0, token.length) & (slotCount - 1);
    while (slots[slot] !== EMPTY) slot = (slot + 1) & (slotCount - 1);
    slots[slot] = rank;
  });
  offsets[tokens.length] = at;
  const file = new Uint8Array(words.byteLength + size);
  file.set(new Uint8Array(words.buffer), 0);
  file.set(bytes, words.byteLength);
  return file;
}

/** The table a file holds (copied once when the file's bytes are not 4-byte aligned). */
export function readRankTable(file: Uint8Array): RankTable {
  const aligned = file.byteOffset % 4 === 0 ? file : file.slice();
  const word = (i: number) => new Uint32Array(aligned.buffer, aligned.byteOffset + 4 * i, 1)[0]!;
  const [count, slotCount, size] = [word(1), word(2), word(3)];
  if (word(0) !== MAGIC || aligned.byteLength !== 4 * (HEADER_WORDS + count + 1 + slotCount) + size)
    throw new Error('openapi-to-mcp: the token rank table is malformed; run `npm run build`');
  const offsets = new Uint32Array(aligned.buffer, aligned.byteOffset + 4 * HEADER_WORDS, count + 1);
  const slots = new Uint32Array(aligned.buffer, offsets.byteOffset + offsets.byteLength, slotCount);
  const bytes = new Uint8Array(aligned.buffer, slots.byteOffset + slots.byteLength, size);
  return { offsets, slots, bytes, mask: slotCount - 1 };
}

/** The rank of the token whose bytes are `key[start, end)`, or -1 when no token has them. */
export function rankOf(table: RankTable, key: Uint8Array, start: number, end: number): number {
  const { offsets, slots, bytes, mask } = table;
  const length = end - start;
  for (let slot = hash(key, start, end) & mask; ; slot = (slot + 1) & mask) {
    const rank = slots[slot]!;
    if (rank === EMPTY) return -1;
    const from = offsets[rank]!;
    if (offsets[rank + 1]! - from !== length) continue;
    let i = 0;
    while (i < length && bytes[from + i] === key[start + i]) i++;
    if (i === length) return rank;
  }
}

/** FNV-1a, 32 bits. */
function hash(key: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ key[i]!, 0x01000193);
  return h >>> 0;
}

/** gpt-tokenizer's test of UTF-8 (utfUtil.ts): no overlong forms, surrogates or code points past U+10FFFF. */
export function isValidUtf8(key: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end;) {
    const lead = key[i]!;
    const [size, min, first] =
      lead <= 0x7f
        ? [1, 0, lead]
        : lead >= 0xc2 && lead <= 0xdf
          ? [2, 0x80, lead & 0x1f]
          : (lead & 0xf0) === 0xe0
            ? [3, 0x800, lead & 0x0f]
            : (lead & 0xf8) === 0xf0 && lead <= 0xf4
              ? [4, 0x10000, lead & 0x07]
              : [0, 0, 0];
    if (size === 0 || i + size > end) return false;
    let codePoint = first;
    for (let j = 1; j < size; j++) {
      const byte = key[i + j]!;
      if ((byte & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    if (codePoint < min || (codePoint >= 0xd800 && codePoint <= 0xdfff) || codePoint > 0x10ffff) return false;
    i += size;
  }
  return true;
}
