/**
 * The catalog's tools, parsed one at a time when first needed. catalog.json holds one tool per line (the
 * generator writes it so), and a large API's catalog is megabytes: a cold start that parsed every tool
 * before answering its first tools/list would spend most of its extra time there. Names come from the
 * start of each line, so lookups by name never parse a tool they do not return.
 */
import type { Catalog, CatalogHeader, CatalogTool } from './catalog.js';
import { Buffer, isAscii } from 'node:buffer';
import { decodeData } from './data-text.js';

export interface ToolTable {
  readonly length: number;
  names(): readonly string[];
  /** -1 when there is no tool of that name. */
  indexOf(name: string): number;
  at(index: number): CatalogTool;
}

/** A table over tools already in memory (tests, and catalogs not in the one-tool-per-line layout). */
export function toolTableOf(tools: readonly CatalogTool[]): ToolTable {
  const names = tools.map((t) => t.name);
  const index = indexByName(names);
  return {
    length: tools.length,
    names: () => names,
    indexOf: (name) => index.get(name) ?? -1,
    at: (i) => tools[i]!,
  };
}

/**
 * Splits catalog.json bytes into its header and a lazily parsed tool table. Only the header is decoded up
 * front; each tool's line is decoded and parsed when first needed, so a cold start touches the text of the
 * tools its first tools/list shows and no more. Falls back to one full parse when the bytes are not in the
 * generator's layout (a catalog reformatted by hand still works).
 */
export function parseCatalog(bytes: Buffer): { header: CatalogHeader; tools: ToolTable } {
  return splitLayout(bytes) ?? wholeParse(decodeData(bytes));
}

const TOOLS_OPEN = '"tools":[';
const NAME_AT_LINE_START = /^\{"name":("(?:[^"\\]|\\.)*")/;
const NEWLINE = 0x0a;
/** Enough of a line to hold `{"name":"…"` for the names the generator writes; longer ones read the whole line. */
const HEAD_BYTES = 128;

function splitLayout(bytes: Buffer): { header: CatalogHeader; tools: ToolTable } | undefined {
  const open = bytes.indexOf(`\n${TOOLS_OPEN}\n`, 0, 'latin1');
  if (open < 0) return undefined;
  const first = open + TOOLS_OPEN.length + 2;
  // The tools are the only list written one entry per line, so the last line-initial `]` closes it (a raw
  // newline only ever separates lines: JSON escapes the ones inside strings).
  const close = bytes.lastIndexOf('\n]', undefined, 'latin1');
  if (close < first - 1) return undefined;
  let header: CatalogHeader & { tools?: unknown };
  try {
    header = JSON.parse(
      `${decodeData(bytes.subarray(0, open + 1))}"tools":[]${decodeData(bytes.subarray(close + 2))}`,
    ) as CatalogHeader & { tools?: unknown };
  } catch {
    return undefined;
  }
  delete header.tools;
  const names = header.toolNames;
  delete header.toolNames;
  const listed = isNameList(names);
  const lines = listed ? lazyLines(bytes, first, close) : scannedLines(bytes, first, close);
  if (lines === undefined) return undefined;
  return { header, tools: lazyTable(listed ? names : lines.names!, lineReader(bytes, lines, close)) };
}

function isNameList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((name) => typeof name === 'string');
}

/** Where each tool's line starts and ends, found as far as asked: the catalog listed the names already. */
interface ToolLines {
  /** The byte range of line `index`; undefined when the list has fewer lines. */
  range(index: number): [number, number] | undefined;
  /** Set when the names were read from the lines themselves. */
  names?: string[];
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

/** A catalog without a name list (one made by hand): every line is found, and its name read, up front. */
function scannedLines(bytes: Buffer, first: number, close: number): ToolLines | undefined {
  const lines = lazyLines(bytes, first, close);
  const names: string[] = [];
  for (let i = 0, range = lines.range(0); range !== undefined; range = lines.range(++i)) {
    const name = nameAtLineStart(bytes, range[0], range[1]);
    if (name === undefined) return undefined;
    names.push(name);
  }
  return { range: lines.range, names };
}

/** The name a tool line starts with (`{"name":"…"`), read from the start of the line only. */
function nameAtLineStart(bytes: Buffer, start: number, end: number): string | undefined {
  const head = bytes.toString('latin1', start, Math.min(end, start + HEAD_BYTES));
  const quoted = (NAME_AT_LINE_START.exec(head) ?? NAME_AT_LINE_START.exec(bytes.toString('latin1', start, end)))?.[1];
  if (quoted === undefined) return undefined;
  // Generated names are plain ASCII; anything else goes through JSON (escapes) and UTF-8 decoding.
  if (/^"[\w.-]*"$/.test(quoted)) return quoted.slice(1, -1);
  return JSON.parse(decodeData(Buffer.from(quoted, 'latin1'))) as string;
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

function wholeParse(text: string): { header: CatalogHeader; tools: ToolTable } {
  const { tools, ...header } = JSON.parse(text) as Catalog;
  delete header.toolNames; // as the layout reader does: the names come from the tools themselves
  return { header, tools: toolTableOf(tools) };
}

function indexByName(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return index;
}
