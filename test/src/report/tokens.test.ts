/**
 * Token counts (src/report/tokens.ts): the built generator counts with the rank table `npm run build` wrote
 * (src/report/rank-table.ts), by gpt-tokenizer's algorithm, and must count exactly as gpt-tokenizer's own
 * o200k_base entry point: on hand-picked texts, on random Unicode, and on every path item of the public specs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const BUILT = join(REPO_ROOT, 'dist', 'src', 'report');
const SPECS = join(REPO_ROOT, '..', 'shared', 'specs');
const TEXTS = [
  JSON.stringify({
    tools: [{ name: 'repos_get', description: 'Gets a repository. "Quoted", curly ’quotes’ — dashes…' }],
  }),
  '東京の天気を取得します 🌧️ émoji, Ünïcode, עברית, русский',
  'A special-looking token in a spec: <|endoftext|> and <|fim_prefix|>',
  'a lone surrogate \uD800 and a combining mark a\u0301\u0302',
  // Byte order marks: gpt-tokenizer's decoder drops a leading one when it looks bytes up in a merge.
  '\uFEFF',
  '\uFEFFabc \uFEFF x\uFEFF\uFEFF',
  '',
];

const gptCount = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const built = async () => (await import(join(BUILT, 'tokens.js'))) as typeof import('../../../src/report/tokens.js');

/** Strings of random code points (seeded): half from the first 128, half from the first three planes. */
function randomTexts(count: number): string[] {
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  return Array.from({ length: count }, () =>
    Array.from({ length: 40 }, () => String.fromCodePoint(Math.floor(next() * (next() < 0.5 ? 0x80 : 0x30000)))).join(
      '',
    ),
  );
}

describe('o200k_base token counts (built)', () => {
  it('finds every rank gpt-tokenizer finds in the table', async () => {
    const { isValidUtf8, rankOf, readRankTable } = (await import(
      join(BUILT, 'rank-table.js')
    )) as typeof import('../../../src/report/rank-table.js');
    const table = readRankTable(readFileSync(join(BUILT, 'o200k_base.table.bin')));
    const encoder = new TextEncoder();
    expect(table.offsets.length).toBe(ranks.length + 1);
    ranks.forEach((r, rank) => {
      const bytes = typeof r === 'string' ? encoder.encode(r) : Uint8Array.from(r);
      // gpt-tokenizer never finds a rank it ships as bytes that are valid UTF-8: neither does the table.
      const found = typeof r === 'string' || !isValidUtf8(bytes, 0, bytes.length) ? rank : -1;
      if (rankOf(table, bytes, 0, bytes.length) !== found) expect.fail(`rank ${rank}: not ${found}`);
    });
  });

  it('counts as gpt-tokenizer counts', async () => {
    const { countListTokens } = await built();
    for (const text of [...TEXTS, ...randomTexts(3000)]) expect(await countListTokens(text)).toBe(gptCount(text));
  });

  it.skipIf(!existsSync(SPECS))('counts every path item of the public specs as gpt-tokenizer does', async () => {
    const count = await (await built()).tokenCounter();
    for (const spec of ['github/api.github.com.json', 'kubernetes/swagger.json', 'box/openapi.json']) {
      const paths = (JSON.parse(readFileSync(join(SPECS, spec), 'utf8')) as { paths: object }).paths;
      for (const [path, item] of Object.entries(paths)) {
        const text = JSON.stringify({ path, item });
        if (count(text) !== gptCount(text)) expect.fail(`${spec} ${path}: ${count(text)} vs ${gptCount(text)}`);
      }
    }
  });
});
