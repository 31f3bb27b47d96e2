/**
 * The o200k_base token count of a text, with gpt-tokenizer's o200k_base encoding.
 *
 * The encoding is built from its merge ranks. gpt-tokenizer ships them as a 2.4 MB JavaScript module;
 * `npm run build` writes the same ranks as JSON (scripts/write-token-ranks.ts). That file is the one source of
 * the ranks: without it the count fails, saying to build. The figure it holds: the first count took 0.78 s
 * through gpt-tokenizer's o200k_base entry, 0.45 s from the JSON (medians of 5 on a busy two-core machine),
 * part of the margin that keeps generating GitHub within 3× swagger-parser's parse + dereference (issue 29). The encoding is gpt-tokenizer's own
 * (`GptEncoding.getEncodingApi('o200k_base', …)`, as its o200k_base entry point calls it), so the counts are
 * the same.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../util/package-root.js';

type Encoding = Pick<import('gpt-tokenizer/GptEncoding').GptEncoding, 'countTokens'>;
type Ranks = typeof import('gpt-tokenizer/bpeRanks/o200k_base').default;

export const PREBUILT_RANKS = join(packageRoot(), 'dist', 'src', 'report', 'o200k_base.ranks.json');

let encoding: Promise<Encoding> | undefined;

export async function countListTokens(text: string): Promise<number> {
  encoding ??= loadEncoding();
  // Specs can contain text that looks like a special token (Box's does): count it as plain text.
  return (await encoding).countTokens(text, { disallowedSpecial: new Set() });
}

/** The same count, synchronous once the encoding is loaded (for choices that weigh many small texts). */
export async function tokenCounter(): Promise<(text: string) => number> {
  encoding ??= loadEncoding();
  const loaded = await encoding;
  return (text) => loaded.countTokens(text, { disallowedSpecial: new Set() });
}

async function loadEncoding(): Promise<Encoding> {
  if (!existsSync(PREBUILT_RANKS))
    throw new Error(`openapi-to-mcp: ${PREBUILT_RANKS} is missing; run \`npm run build\``);
  const ranks = JSON.parse(readFileSync(PREBUILT_RANKS, 'utf8')) as Ranks;
  const { GptEncoding } = await import('gpt-tokenizer/GptEncoding');
  return GptEncoding.getEncodingApi('o200k_base', () => ranks);
}

/**
 * The text of the prebuilt ranks file: gpt-tokenizer's o200k_base ranks as JSON, in UTF-8 (with `\u` escapes
 * the strings of a few thousand ranks become two-byte, and the encoding builds a quarter slower).
 */
export async function prebuiltRanksFile(): Promise<string> {
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  return JSON.stringify(ranks);
}
