/**
 * Generated TypeScript holds a few huge lists of literals: one mock route, tool name or test call per
 * element, one `name: 'METHOD /path'` per tool. prettier spends most of its time on them, yet their layout
 * is fixed: one element a line. So prettier formats the file with each big list cut down to two placeholder
 * elements, and the real elements are then written in the placeholders' place as prettier prints them
 * (string-literal.ts; a property breaks after its colon when it does not fit). A placeholder that does not
 * come out where and how expected means this file goes through prettier whole.
 *
 * The lists recognised: an array with one JSON string literal a line, an array of JSON string literals on
 * one line, and an object with one `"key": "value",` a line (what the templates and src/emit/code.ts write).
 */
import { PRINT_WIDTH, TAB_WIDTH } from './config.js';
import { prettierStringLiteral } from './string-literal.js';
/** Shorter lists are left to prettier: nothing to gain. */
const MIN_ITEMS = 8;

const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;
const LITERAL_LINE = new RegExp(String.raw`^\s*(${STRING}),\s*$`);
const PROPERTY_LINE = new RegExp(String.raw`^\s*(${STRING}): (${STRING}),\s*$`);
const INLINE_ARRAY = new RegExp(String.raw`\[(${STRING}(?:,${STRING})*)\]`, 'g');
const PLACEHOLDER = 'otm_splice';

type ListKind = 'elements' | 'properties';

interface List {
  kind: ListKind;
  /** The literals as written: elements, or [key, value] pairs. */
  items: string[] | Array<[string, string]>;
}

export interface CutFile {
  /** The file with every big list cut down to two placeholders: for prettier. */
  skeleton: string;
  /** Writes the real lists into prettier's output, or returns undefined when a placeholder moved. */
  splice(formatted: string): string | undefined;
}

/** The file cut down for prettier, or undefined when it has no big list (or already contains our marker). */
export function cutLists(text: string): CutFile | undefined {
  if (text.includes(PLACEHOLDER)) return undefined;
  const lists: List[] = [];
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    out.push(cutInlineArrays(line, lists));
    const opener = line.trimEnd().slice(-1);
    if (opener !== '[' && opener !== '{') continue;
    const kind: ListKind = opener === '[' ? 'elements' : 'properties';
    const pattern = kind === 'elements' ? LITERAL_LINE : PROPERTY_LINE;
    let end = i + 1;
    while (end < lines.length && pattern.test(lines[end]!)) end++;
    const closer = kind === 'elements' ? /^\s*\]/ : /^\s*\}/;
    if (end >= lines.length || !closer.test(lines[end]!)) continue;
    const rows = lines.slice(i + 1, end).map((l) => pattern.exec(l)!);
    const items = kind === 'elements' ? rows.map((m) => m[1]!) : rows.map((m) => [m[1]!, m[2]!] as [string, string]);
    if (!worthCutting(kind, items)) continue;
    const id = lists.push({ kind, items }) - 1;
    out.push(...placeholders(kind, id).map((p) => (kind === 'elements' ? `"${p}",` : `${p}: "x",`)));
    i = end - 1;
  }
  if (lists.length === 0) return undefined;
  return { skeleton: out.join('\n'), splice: (formatted) => splice(formatted, lists) };
}

function cutInlineArrays(line: string, lists: List[]): string {
  return line.replace(INLINE_ARRAY, (whole, inner: string) => {
    const items = inner.match(new RegExp(STRING, 'g'))!;
    if (items.join(',') !== inner || !worthCutting('elements', items)) return whole;
    const id = lists.push({ kind: 'elements', items }) - 1;
    return `[${placeholders('elements', id)
      .map((p) => `"${p}"`)
      .join(',')}]`;
  });
}

/**
 * Big enough to matter, and sure to be laid out one element a line: an array whose elements cannot share one
 * line (an object's layout is kept from the source, which has one property a line), all plain ASCII, so
 * widths are character counts.
 */
function worthCutting(kind: ListKind, items: string[] | Array<[string, string]>): boolean {
  if (items.length < MIN_ITEMS || !items.flat().every((s) => /^[\x20-\x7e]*$/.test(s))) return false;
  if (kind === 'properties') return true;
  const flatWidth = (items as string[]).reduce((sum, s) => sum + prettierStringLiteral(s).length + 2, 0);
  return flatWidth > PRINT_WIDTH;
}

/** Two per list, long enough that prettier cannot put the list on one line. */
function placeholders(kind: ListKind, id: number): [string, string] {
  const pad = kind === 'elements' ? `_${'x'.repeat(PRINT_WIDTH)}` : '';
  return [`${PLACEHOLDER}_${id}_0${pad}`, `${PLACEHOLDER}_${id}_1${pad}`];
}

function splice(formatted: string, lists: readonly List[]): string | undefined {
  const lines = formatted.split('\n');
  const out: string[] = [];
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const list = lists[next];
    const [first, second] = list ? placeholders(list.kind, next) : ['', ''];
    const printed = (p: string) => (list?.kind === 'elements' ? `'${p}',` : `${p}: 'x',`);
    const line = lines[i]!;
    if (!list || !line.includes(PLACEHOLDER)) {
      out.push(line);
      continue;
    }
    const indent = /^ */.exec(line)![0];
    if (line !== `${indent}${printed(first)}` || lines[i + 1] !== `${indent}${printed(second)}`) return undefined;
    out.push(...printList(list, indent));
    i++;
    next++;
  }
  return next === lists.length ? out.join('\n') : undefined;
}

function printList(list: List, indent: string): string[] {
  if (list.kind === 'elements') return (list.items as string[]).map((raw) => `${indent}${prettierStringLiteral(raw)},`);
  return (list.items as Array<[string, string]>).map(([key, value]) => printProperty(key, value, indent));
}

/**
 * A string property as prettier prints it: the key unquoted when it is an identifier; on one line when it
 * fits or the key is shorter than five characters, else broken after the colon.
 */
function printProperty(rawKey: string, rawValue: string, indent: string): string {
  const name = JSON.parse(rawKey) as string;
  const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : prettierStringLiteral(rawKey);
  const value = prettierStringLiteral(rawValue);
  const line = `${indent}${key}: ${value},`;
  if (line.length <= PRINT_WIDTH || key.length < TAB_WIDTH + 3) return line;
  return `${indent}${key}:\n${indent}${' '.repeat(TAB_WIDTH)}${value},`;
}
