/**
 * The catalog's tools, parsed one at a time when first needed. catalog.json holds one tool per line (the
 * generator writes it so), and a large API's catalog is megabytes: a cold start that parsed every tool
 * before answering its first tools/list would spend most of its extra time there. Names come from the
 * start of each line, so lookups by name never parse a tool they do not return.
 */
import type { Catalog, CatalogHeader, CatalogTool } from './catalog.js';
import { isAscii } from 'node:buffer';
import { decodeData } from './data-file.js';

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
const CLOSING_BRACKET = 0x5d;
/** Enough of a line to hold `{"name":"…"` for the names the generator writes; longer ones read the whole line. */
const HEAD_BYTES = 128;

function splitLayout(bytes: Buffer): { header: CatalogHeader; tools: ToolTable } | undefined {
  const open = bytes.indexOf(`\n${TOOLS_OPEN}\n`, 0, 'latin1');
  if (open < 0) return undefined;
  const starts: number[] = [];
  const ends: number[] = [];
  const names: string[] = [];
  // One tool per line up to the line that closes the list (a raw newline only ever separates lines: JSON
  // escapes the ones inside strings).
  let start = open + TOOLS_OPEN.length + 2;
  for (; start < bytes.length && bytes[start] !== CLOSING_BRACKET; ) {
    const newline = bytes.indexOf(NEWLINE, start);
    if (newline < 0) return undefined;
    const name = nameAtLineStart(bytes, start, newline);
    if (name === undefined) return undefined;
    starts.push(start);
    ends.push(newline);
    names.push(name);
    start = newline + 1;
  }
  if (start >= bytes.length) return undefined;
  const close = start - 1;
  let header: CatalogHeader & { tools?: unknown };
  try {
    header = JSON.parse(`${decodeData(bytes.subarray(0, open + 1))}"tools":[]${decodeData(bytes.subarray(close + 2))}`) as CatalogHeader & { tools?: unknown };
  } catch {
    return undefined;
  }
  delete header.tools;
  return { header, tools: lazyTable(names, lineReader(bytes, starts, ends)) };
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
function lineReader(bytes: Buffer, starts: readonly number[], ends: readonly number[]): (index: number) => string {
  let block = '';
  let blockFrom = 0;
  let blockTo = 0;
  return (i) => {
    const from = starts[i]!;
    const to = ends[i]!;
    if (from < blockFrom || to > blockTo) {
      const blockEnd = Math.max(to, Math.min(from + BLOCK_BYTES, ends[ends.length - 1]!));
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
  const index = indexByName(names);
  return {
    length: names.length,
    names: () => names,
    indexOf: (name) => index.get(name) ?? -1,
    at: (i) => {
      let tool = parsed[i];
      if (tool === undefined) {
        const line = lineText(i);
        tool = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as CatalogTool;
        parsed[i] = tool;
      }
      return tool;
    },
  };
}

function wholeParse(text: string): { header: CatalogHeader; tools: ToolTable } {
  const { tools, ...header } = JSON.parse(text) as Catalog;
  return { header, tools: toolTableOf(tools) };
}

function indexByName(names: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    if (!index.has(name)) index.set(name, i);
  });
  return index;
}
