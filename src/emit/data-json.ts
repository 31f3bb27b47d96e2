/**
 * JSON data files the generated server reads at start-up (catalog.json, search-index.json), written for
 * the reader that matters most: the server's cold start.
 *
 * - No indentation: whitespace is a third of an indented catalog, and every byte is read and parsed.
 * - ASCII only (`\uXXXX` escapes): Node decodes an ASCII file as latin1 with a plain copy, while UTF-8
 *   decoding of a multi-megabyte file with a handful of non-ASCII characters costs tens of milliseconds.
 * - One line per entry of the listed arrays and objects (tools, shared schemas): a regenerated server's
 *   diff still shows which tools changed, line by line.
 */
import { isPlainObject } from '../util/stable.js';

/** Serializes `value`; the members named in `linePerEntry` get one line per element (arrays) or key (objects). */
export function dataJson(value: object, linePerEntry: readonly string[] = []): string {
  const members = Object.entries(value)
    .filter(([, v]) => v !== undefined)
    .map(([key, v]) => `${asciiJson(key)}:${linePerEntry.includes(key) ? entryLines(v) : asciiJson(v)}`);
  return `{${members.join(',\n')}}\n`;
}

/**
 * A list whose entries the caller has already stringified (`JSON.stringify` of each, for another use too):
 * written as a listed array would be, without serializing them again.
 */
export class StringifiedEntries {
  constructor(readonly json: readonly string[]) {}
}

function entryLines(value: unknown): string {
  if (value instanceof StringifiedEntries) return arrayLines(value.json);
  if (Array.isArray(value)) return arrayLines(value.map((v) => JSON.stringify(v)));
  if (isPlainObject(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    return entries.length === 0
      ? '{}'
      : `{\n${entries.map(([k, v]) => `${asciiJson(k)}:${asciiJson(v)}`).join(',\n')}\n}`;
  }
  return asciiJson(value);
}

function arrayLines(json: readonly string[]): string {
  return json.length === 0 ? '[]' : `[\n${json.map(asciiText).join(',\n')}\n]`;
}

/** JSON.stringify, with every non-ASCII code unit escaped (JSON.parse restores the same string). */
export function asciiJson(value: unknown): string {
  return asciiText(JSON.stringify(value));
}

/** JSON text with every non-ASCII code unit escaped. */
function asciiText(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
