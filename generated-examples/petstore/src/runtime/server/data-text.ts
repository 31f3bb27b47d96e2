/** Decodes the data files the generator writes (catalog.json, search-index.json), from any source of bytes. */
import { Buffer, isAscii } from 'node:buffer';

/**
 * The generator writes these files ASCII-only, so they decode as latin1 — a plain copy — instead of going
 * through UTF-8 decoding, which for a multi-megabyte catalog costs tens of milliseconds of every cold start.
 * A file edited by hand with non-ASCII characters still reads correctly, as UTF-8.
 */
export function decodeData(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/**
 * A data file as the catalog parser takes it: bytes as they were read, or the text a bundler imported
 * (a Workers `Text` module).
 */
export function dataBytes(data: Uint8Array | string): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  return Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
