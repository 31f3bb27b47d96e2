/** Reads the JSON data files the generator wrote next to the server (catalog.json, search-index.json). */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

/**
 * The generator writes these files ASCII-only, so they decode as latin1 — a plain copy — instead of going
 * through UTF-8 decoding, which for a multi-megabyte catalog costs tens of milliseconds of every cold start.
 * A file edited by hand with non-ASCII characters still reads correctly, as UTF-8.
 */
export function decodeData(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * Starts reading a data file at once, on libuv's thread pool. The entry point calls it before it loads the
 * MCP SDK, so the read of a multi-megabyte catalog overlaps module loading instead of following it.
 */
export function readDataAhead(url: URL): Promise<Buffer> {
  const pending = readFile(url);
  pending.catch(() => undefined); // a failure is reported where the bytes are awaited
  return pending;
}

export function readJsonFile<T>(url: URL): T {
  return JSON.parse(decodeData(readFileSync(url))) as T;
}
