/**
 * The catalog's tools, parsed one at a time when first needed. catalog.json holds one tool per line (the
 * generator writes it so), and a large API's catalog is megabytes: a cold start that parsed every tool
 * before answering its first tools/list would spend most of its extra time there. Names come from the
 * start of each line, so lookups by name never parse a tool they do not return.
 */
import type { Catalog, CatalogHeader, CatalogTool } from './catalog.js';

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
 * Splits catalog.json text into its header and a lazily parsed tool table. Falls back to one full parse
 * when the text is not in the generator's layout (a catalog reformatted by hand still works).
 */
export function parseCatalogText(text: string): { header: CatalogHeader; tools: ToolTable } {
  return splitLayout(text) ?? wholeParse(text);
}

const TOOLS_OPEN = '"tools":[';
const NAME_AT_LINE_START = /^\{"name":("(?:[^"\\]|\\.)*")/;

function splitLayout(text: string): { header: CatalogHeader; tools: ToolTable } | undefined {
  const open = text.indexOf(`\n${TOOLS_OPEN}\n`);
  if (open < 0) return undefined;
  const first = open + TOOLS_OPEN.length + 2;
  const close = text.indexOf('\n]', first - 1);
  if (close < 0) return undefined;
  const lines = close > first ? text.slice(first, close).split('\n') : [];
  const names: string[] = [];
  for (const line of lines) {
    const match = NAME_AT_LINE_START.exec(line);
    if (!match) return undefined;
    names.push(JSON.parse(match[1]!) as string);
  }
  let header: CatalogHeader & { tools?: unknown };
  try {
    header = JSON.parse(`${text.slice(0, open + 1)}"tools":[]${text.slice(close + 2)}`) as CatalogHeader & { tools?: unknown };
  } catch {
    return undefined;
  }
  delete header.tools;
  return { header, tools: lazyTable(lines, names) };
}

function lazyTable(lines: string[], names: string[]): ToolTable {
  const parsed: Array<CatalogTool | undefined> = new Array(lines.length);
  const index = indexByName(names);
  return {
    length: lines.length,
    names: () => names,
    indexOf: (name) => index.get(name) ?? -1,
    at: (i) => {
      let tool = parsed[i];
      if (tool === undefined) {
        const line = lines[i]!;
        tool = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line) as CatalogTool;
        parsed[i] = tool;
        lines[i] = ''; // the text is not needed once parsed
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
