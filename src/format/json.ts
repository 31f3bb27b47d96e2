/**
 * Compact JSON (as `JSON.stringify` writes it) laid out exactly as prettier's `json` parser does with our
 * config, without prettier: a search index is a quarter of a megabyte of number arrays, which prettier takes
 * over a second to lay out. Objects go on one line when they fit in the print width, else one property a
 * line; arrays of numbers fill lines (prettier's `fill`); strings, numbers and keys print as written. Any value
 * outside that (arrays of non-numbers, numbers in exponent form, non-ASCII text, whose widths or layout
 * rules differ) returns undefined, and the caller runs prettier.
 */
import { PRINT_WIDTH, TAB_WIDTH } from './config.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export function layOutJson(text: string): string | undefined {
  // Only compact JSON: prettier keeps an object expanded when its source has a newline after `{`.
  if (!/^[\x20-\x7e]*\n?$/.test(text)) return undefined;
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return undefined;
  }
  if (`${JSON.stringify(value)}\n` !== (text.endsWith('\n') ? text : `${text}\n`) || !supported(value)) return undefined;
  return `${print(value, 0, 0, '')}\n`;
}

function supported(value: Json): boolean {
  if (typeof value === 'number') return !/e/i.test(String(value));
  if (Array.isArray(value)) return value.every((item) => typeof item === 'number' && supported(item));
  if (value !== null && typeof value === 'object') return Object.values(value).every(supported);
  return true;
}

/** `value` starting at `column` on a line indented by `indent`; `after` is what must fit after it (`,`). */
function print(value: Json, indent: number, column: number, after: string): string {
  const room = PRINT_WIDTH - column - after.length;
  const flat = printFlat(value, room);
  if (flat !== undefined || value === null || typeof value !== 'object') return flat ?? JSON.stringify(value);
  const inner = ' '.repeat(indent + TAB_WIDTH);
  const close = `\n${' '.repeat(indent)}`;
  if (Array.isArray(value)) {
    const numbers = value as number[];
    if (numbers.length === 1) return `[\n${inner}${numbers[0]}${close}]`;
    return `[\n${fill(numbers.map((n, i) => (i < numbers.length - 1 ? `${n},` : `${n}`)), inner)}${close}]`;
  }
  const entries = Object.entries(value);
  const lines = entries.map(([key, item], i) => {
    const head = `${inner}${JSON.stringify(key)}: `;
    return `${head}${print(item, indent + TAB_WIDTH, head.length, i < entries.length - 1 ? ',' : '')}`;
  });
  return `{\n${lines.join(',\n')}${close}}`;
}

/** The value on one line, or undefined when that is wider than `room` (and so is not needed). */
function printFlat(value: Json, room: number): string | undefined {
  if (value === null || typeof value !== 'object') {
    const text = JSON.stringify(value);
    return text.length <= room ? text : undefined;
  }
  const isArray = Array.isArray(value);
  const entries = isArray ? value.map((item) => ['', item] as const) : Object.entries(value);
  if (entries.length === 0) return isArray ? '[]' : '{}';
  const parts: string[] = [];
  let width = isArray ? 2 : 4; // brackets, or braces with their inner spaces
  for (const [key, item] of entries) {
    const head = isArray ? '' : `${JSON.stringify(key)}: `;
    const text = printFlat(item, room - width - head.length);
    if (text === undefined) return undefined;
    parts.push(`${head}${text}`);
    width += head.length + text.length + (parts.length > 1 ? 2 : 0);
    if (width > room) return undefined;
  }
  return isArray ? `[${parts.join(', ')}]` : `{ ${parts.join(', ')} }`;
}

/** prettier's fill: each item joins the line when the line, with it, still fits. */
function fill(items: readonly string[], indentation: string): string {
  const lines: string[] = [];
  let line = `${indentation}${items[0]}`;
  for (const item of items.slice(1)) {
    if (line.length + 1 + item.length <= PRINT_WIDTH) {
      line += ` ${item}`;
    } else {
      lines.push(line);
      line = `${indentation}${item}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}
