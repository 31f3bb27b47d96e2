/** Reads the JSON data files the generator wrote next to the server (catalog.json, search-index.json). */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';

/**
 * The generator writes these files ASCII-only, so they decode as latin1 — a plain copy — instead of going
 * through UTF-8 decoding, which for a multi-megabyte catalog costs tens of milliseconds of every cold start.
 * A file edited by hand with non-ASCII characters still reads correctly, as UTF-8.
 */
export function readDataText(url: URL): string {
  const bytes = readFileSync(url);
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

export function readJsonFile<T>(url: URL): T {
  return JSON.parse(readDataText(url)) as T;
}
