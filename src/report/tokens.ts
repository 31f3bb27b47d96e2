/**
 * The o200k_base token count of a text, as gpt-tokenizer's o200k_base encoding counts it with no special tokens
 * (a spec's text that looks like one, as Box's does, counts as plain text).
 *
 * gpt-tokenizer's algorithm over a table that is read instead of built (rank-table.ts): the text is split by
 * o200k_base's pattern (gpt-tokenizer's own), a piece that is a token counts 1, and any other is merged pair by
 * pair, the adjacent pair of lowest rank first, until no pair is a token (gpt-tokenizer's and tiktoken's
 * bytePairMerge); it counts the parts left. `npm run build` writes the table from gpt-tokenizer's ranks
 * (scripts/write-token-ranks.ts): without it the count fails, saying to build. test/src/report/tokens.test.ts
 * holds the counts to gpt-tokenizer's on every tool text of the corpus.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { packageRoot } from '../util/package-root.js';
import { rankOf, rankTableFile, readRankTable, type RankTable } from './rank-table.js';

export const PREBUILT_TABLE = join(packageRoot(), 'dist', 'src', 'report', 'o200k_base.table.bin');

/** One counter for the process: the tool texts, the listing and the report repeat the same pieces. */
let counter: Counter | undefined;

export async function countListTokens(text: string): Promise<number> {
  return (await tokenCounter())(text);
}

/** The same count, synchronous once the table is loaded (for choices that weigh many small texts). */
export async function tokenCounter(): Promise<(text: string) => number> {
  counter ??= new Counter(loadTable());
  const loaded = counter;
  return (text) => loaded.count(text);
}

function loadTable(): RankTable {
  if (!existsSync(PREBUILT_TABLE))
    throw new Error(`openapi-to-mcp: ${PREBUILT_TABLE} is missing; run \`npm run build\``);
  return readRankTable(readFileSync(PREBUILT_TABLE));
}

/** The table file of gpt-tokenizer's o200k_base ranks (written by `npm run build`). */
export async function prebuiltTableFile(): Promise<Uint8Array> {
  const { default: ranks } = await import('gpt-tokenizer/bpeRanks/o200k_base');
  return rankTableFile(ranks);
}

/** Most pieces of a tool list recur (property names, JSON punctuation): their counts are remembered. */
const MAX_REMEMBERED_MERGES = 50_000;

class Counter {
  private readonly split = new RegExp(O200K_TOKEN_SPLIT_REGEX);
  private readonly encoder = new TextEncoder();
  private bytes = new Uint8Array(256);
  private readonly merged = new Map<string, number>();

  constructor(private readonly table: RankTable) {}

  count(text: string): number {
    let tokens = 0;
    this.split.lastIndex = 0;
    for (let match = this.split.exec(text); match !== null; match = this.split.exec(text))
      tokens += this.pieceTokens(match[0]);
    return tokens;
  }

  private pieceTokens(piece: string): number {
    const remembered = this.merged.get(piece);
    if (remembered !== undefined) return remembered;
    // A UTF-16 code unit is at most 3 UTF-8 bytes.
    if (this.bytes.length < piece.length * 3) this.bytes = new Uint8Array(piece.length * 3);
    const { written } = this.encoder.encodeInto(piece, this.bytes);
    const parts = rankOf(this.table, this.bytes, 0, written) >= 0 ? 1 : mergedParts(this.table, this.bytes, written);
    if (this.merged.size >= MAX_REMEMBERED_MERGES) this.merged.clear();
    this.merged.set(piece, parts);
    return parts;
  }
}

/** gpt-tokenizer's bytePairMerge of `piece[0, length)`, counting the parts it returns. */
function mergedParts(table: RankTable, piece: Uint8Array, length: number): number {
  const starts: number[] = [];
  const ranks: number[] = [];
  const pairRank = (index: number): number => {
    const end = starts[index + 2];
    if (end === undefined) return Infinity;
    const rank = rankOf(table, piece, starts[index]!, end);
    return rank < 0 ? Infinity : rank;
  };
  for (let i = 0; i <= length; i++) starts.push(i);
  for (let i = 0; i <= length; i++) ranks.push(i < length - 1 ? pairRank(i) : Infinity);
  while (starts.length > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < ranks.length - 1; i++) {
      if (ranks[i]! < lowest) {
        lowest = ranks[i]!;
        at = i;
      }
    }
    if (at === -1) break;
    starts.splice(at + 1, 1);
    ranks.splice(at, 1);
    ranks[at] = pairRank(at);
    if (at > 0) ranks[at - 1] = pairRank(at - 1);
  }
  return starts.length - 1;
}
