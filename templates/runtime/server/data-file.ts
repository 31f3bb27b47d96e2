/**
 * Reads the JSON data files the generator wrote next to the server (catalog.json, search-index.json) from
 * the file system: the Node, Deno and Bun entries. Workers import them as modules instead (web.ts).
 */
import type { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { decodeData } from './data-text.js';

/**
 * Starts reading a data file at once, on libuv's thread pool. The entry point calls it before it loads the
 * MCP SDK, so the read of a multi-megabyte catalog overlaps module loading instead of following it.
 * The figure it holds: GitHub's default-mode cold start against a one-tool SDK server (line 1.3x), measured
 * on the shared two-core machine in 15 interleaved turns, twice: 1.06x and 1.09x with the read ahead, 1.24x
 * and 1.31x with the catalog read after the SDK loaded.
 */
export function readDataAhead(url: URL): Promise<Buffer> {
  const pending = readFile(url);
  pending.catch(() => undefined); // a failure is reported where the bytes are awaited
  return pending;
}

export function readJsonFile<T>(url: URL): T {
  return JSON.parse(decodeData(readFileSync(url))) as T;
}
