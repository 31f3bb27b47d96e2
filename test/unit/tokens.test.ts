/**
 * Token counts (src/report/tokens.ts): the built generator builds gpt-tokenizer's o200k_base encoding from
 * the ranks `npm run build` wrote as JSON, and counts exactly as gpt-tokenizer's own o200k_base entry point.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import ranks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { REPO_ROOT } from '../helpers/generated-project.js';

const BUILT = join(REPO_ROOT, 'dist', 'src', 'report');
const TEXTS = [
  JSON.stringify({
    tools: [{ name: 'repos_get', description: 'Gets a repository. "Quoted", curly ’quotes’ — dashes…' }],
  }),
  '東京の天気を取得します 🌧️ émoji, Ünïcode, עברית, русский',
  'A special-looking token in a spec: <|endoftext|> and <|fim_prefix|>',
  '',
];

describe('o200k_base token counts (built)', () => {
  it('writes the ranks gpt-tokenizer ships, unchanged', () => {
    expect(JSON.parse(readFileSync(join(BUILT, 'o200k_base.ranks.json'), 'utf8'))).toEqual(ranks);
  });

  it('counts as gpt-tokenizer counts', async () => {
    const built = (await import(join(BUILT, 'tokens.js'))) as typeof import('../../src/report/tokens.js');
    for (const text of TEXTS)
      expect(await built.countListTokens(text)).toBe(countTokens(text, { disallowedSpecial: new Set() }));
  });
});
