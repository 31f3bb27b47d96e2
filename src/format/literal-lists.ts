/**
 * Generated TypeScript holds one huge list of literals: src/tools.ts's `TOOLS`, one `name: 'METHOD /path'` per
 * tool. prettier spends most of a large API's formatting on it (GitHub: 0.45 s of 0.5 s), yet its layout is
 * fixed: one property a line. So prettier formats the file with each big list cut down to two placeholder
 * properties, and the real properties are then written in the placeholders' place as prettier prints them
 * (string-literal.ts; a property breaks after its colon when it does not fit). A placeholder that does not come
 * out where and how expected fails the formatting.
 *
 * The lists recognised: an object with one `"key": "value",` a line (what src/emit/code-mode/code.ts writes).
 */
import { PRINT_WIDTH, TAB_WIDTH } from './config.js';
import { prettierStringLiteral } from './string-literal.js';
/** Shorter lists are left to prettier: nothing to gain. */
const MIN_ITEMS = 8;

const STRING = String.raw`"(?:[^"\\\n]|\\.)*"`;
const PROPERTY_LINE = new RegExp(String.raw`^\s*(${STRING}): (${STRING}),\s*$`);
const PLACEHOLDER = 'otm_splice';

/** The literals of one list as written: [key, value] pairs. */
type List = Array<[string, string]>;

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
    out.push(line);
    if (!line.trimEnd().endsWith('{')) continue;
    let end = i + 1;
    while (end < lines.length && PROPERTY_LINE.test(lines[end]!)) end++;
    if (end >= lines.length || !/^\s*\}/.test(lines[end]!)) continue;
    const items = lines.slice(i + 1, end).map((l) => {
      const match = PROPERTY_LINE.exec(l)!;
      return [match[1]!, match[2]!] as [string, string];
    });
    if (!worthCutting(items)) continue;
    const id = lists.push(items) - 1;
    out.push(...placeholders(id).map((p) => `${p}: "x",`));
    i = end - 1;
  }
  if (lists.length === 0) return undefined;
  return { skeleton: out.join('\n'), splice: (formatted) => splice(formatted, lists) };
}

/**
 * Big enough to matter, and all plain ASCII, so widths are character counts. An object's layout, one property
 * a line, is kept from the source.
 */
function worthCutting(items: List): boolean {
  return items.length >= MIN_ITEMS && items.flat().every((s) => /^[\x20-\x7e]*$/.test(s));
}

function placeholders(id: number): [string, string] {
  return [`${PLACEHOLDER}_${id}_0`, `${PLACEHOLDER}_${id}_1`];
}

function splice(formatted: string, lists: readonly List[]): string | undefined {
  const lines = formatted.split('\n');
  const out: string[] = [];
  let next = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const list = lists[next];
    if (!list || !line.includes(PLACEHOLDER)) {
      out.push(line);
      continue;
    }
    const [first, second] = placeholders(next);
    const indent = /^ */.exec(line)![0];
    if (line !== `${indent}${first}: 'x',` || lines[i + 1] !== `${indent}${second}: 'x',`) return undefined;
    out.push(...list.map(([key, value]) => printProperty(key, value, indent)));
    i++;
    next++;
  }
  return next === lists.length ? out.join('\n') : undefined;
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
