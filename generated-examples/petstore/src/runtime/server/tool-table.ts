/**
 * The catalog's tools, parsed one at a time when first needed. catalog.json holds one tool per line (the
 * generator writes it so), and a large API's catalog is megabytes. Names come from the catalog's name list,
 * so lookups by name never parse a tool they do not return.
 *
 * The figure this holds: GitHub's default-mode cold start (spawn to first tools/list over stdio) against a
 * one-tool SDK server, whose line is 1.3x. Measured at that line on the shared two-core machine (15
 * interleaved turns, twice, median of the turns' ratios): 1.06x and 1.09x with the lazy table, 1.42x and
 * 1.38x with the whole catalog parsed at start-up (mode all: 1.20x against 1.36x). It is the only reader of
 * catalog.json: a catalog in any other layout is refused, saying to regenerate.
 */
import type { CatalogHeader, CatalogTool } from '../contract/catalog.js';
import { Buffer, isAscii } from 'node:buffer';
import { decodeData } from './data-text.js';

export interface ToolTable {
  readonly length: number;
  names(): readonly string[];
  /** -1 when there is no tool of that name. */
  indexOf(name: string): number;
  at(index: number): CatalogTool;
}

/**
 * Splits catalog.json bytes into its header and a lazily parsed tool table. Only the header is decoded up
 * front; each tool's line is decoded and parsed when first needed, so a cold start touches the text of the
 * tools its first tools/list shows and no more (parsing GitHub's whole 2.6 MB catalog instead adds about 70 ms
 * to the start, a fifth of it). Bytes in any other layout than the generator's are refused, saying so.
 */
export function parseCatalog(bytes: Buffer): { header: CatalogHeader; tools: ToolTable } {
  const layout = splitLayout(bytes);
  if (typeof layout === 'string')
    throw new Error(`catalog.json is not as the generator writes it (${layout}): regenerate the server`);
  return layout;
}

const TOOLS_OPEN = '"tools":[';
const NEWLINE = 0x0a;
const CLOSE_BRACKET = 0x5d;

/** The header and tool table, or what is not as the generator writes it. */
function splitLayout(bytes: Buffer): { header: CatalogHeader; tools: ToolTable } | string {
  const open = bytes.indexOf(`\n${TOOLS_OPEN}`, 0, 'latin1');
  if (open < 0) return `no line starting with ${TOOLS_OPEN}`;
  const list = toolLinesSpan(bytes, open + 1 + TOOLS_OPEN.length);
  if (typeof list === 'string') return list;
  const { first, close, rest } = list;
  let header: CatalogHeader & { tools?: unknown };
  try {
    header = JSON.parse(
      `${decodeData(bytes.subarray(0, open + 1))}"tools":[]${decodeData(bytes.subarray(rest))}`,
    ) as CatalogHeader & { tools?: unknown };
  } catch (error) {
    return `its header is not JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
  delete header.tools;
  const names = header.toolNames;
  delete header.toolNames;
  if (!Array.isArray(names) || !names.every((name) => typeof name === 'string')) return 'no "toolNames" list';
  return { header, tools: lazyTable(names, lineReader(bytes, lazyLines(bytes, first, close), close)) };
}

/**
 * Where the tool lines are, from just after the list's `[`: an empty list is written `[]`, any other one
 * element per line, the list closed by the last line-initial `]` (the tools are the only list written one
 * entry per line, and a raw newline only ever separates lines: JSON escapes the ones inside strings).
 * `rest`: where the header resumes after the list.
 */
function toolLinesSpan(bytes: Buffer, listStart: number): { first: number; close: number; rest: number } | string {
  if (bytes[listStart] === CLOSE_BRACKET) return { first: listStart, close: listStart, rest: listStart + 1 };
  if (bytes[listStart] !== NEWLINE) return 'the tools are not one per line';
  const close = bytes.lastIndexOf('\n]', undefined, 'latin1');
  if (close < listStart) return 'the tool list is not closed on a line of its own';
  return { first: listStart + 1, close, rest: close + 2 };
}

/** Where each tool's line starts and ends, found as far as asked. */
interface ToolLines {
  /** The byte range of line `index`; undefined when the list has fewer lines. */
  range(index: number): [number, number] | undefined;
}

function lazyLines(bytes: Buffer, first: number, close: number): ToolLines {
  const starts: number[] = [];
  const ends: number[] = [];
  let next = first;
  return {
    range: (index) => {
      while (starts.length <= index && next < close) {
        const newline = bytes.indexOf(NEWLINE, next);
        const end = newline < 0 || newline > close ? close : newline;
        starts.push(next);
        ends.push(end);
        next = end + 1;
      }
      return index < starts.length ? [starts[index]!, ends[index]!] : undefined;
    },
  };
}

/**
 * Decodes tool lines a block at a time (most reads walk the catalog in order, page by page), handing out
 * each line as a slice of its block. A block with non-ASCII bytes is decoded line by line instead, where
 * byte offsets and character offsets part ways.
 */
function lineReader(bytes: Buffer, lines: ToolLines, close: number): (index: number) => string {
  let block = '';
  let blockFrom = 0;
  let blockTo = 0;
  return (i) => {
    const range = lines.range(i);
    if (range === undefined)
      throw new Error(`catalog.json names more tools than it has lines for: regenerate the server`);
    const [from, to] = range;
    if (from < blockFrom || to > blockTo) {
      const blockEnd = Math.max(to, Math.min(from + BLOCK_BYTES, close));
      const raw = bytes.subarray(from, blockEnd);
      if (!isAscii(raw)) return decodeData(bytes.subarray(from, to));
      block = raw.toString('latin1');
      blockFrom = from;
      blockTo = blockEnd;
    }
    return block.slice(from - blockFrom, to - blockFrom);
  };
}

const BLOCK_BYTES = 256 * 1024;

function lazyTable(names: string[], lineText: (index: number) => string): ToolTable {
  const parsed: Array<CatalogTool | undefined> = new Array(names.length);
  let index: Map<string, number> | undefined; // built on the first lookup: listing needs none
  return {
    length: names.length,
    names: () => names,
    indexOf: (name) => (index ??= indexByName(names)).get(name) ?? -1,
    at: (i) => {
      let tool = parsed[i];
      if (tool === undefined) {
        const line = lineText(i);
        tool = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as CatalogTool;
        if (tool.name !== names[i]) {
          throw new Error(
            `catalog.json lists tool ${i + 1} as "${names[i]}" but its line is "${tool.name}": regenerate the server`,
          );
        }
        parsed[i] = tool;
      }
      return tool;
    },
  };
}

function indexByName(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return index;
}
