/** The parts of a recorded multipart/form-data request, for asserting exactly what a server sent. */
import { expect } from 'vitest';
import type { RecordedRequest } from './mock-upstream.js';

export interface Part {
  headers: Record<string, string>;
  name?: string;
  filename?: string;
  contentType?: string;
  body: Buffer;
}

/** A minimal multipart/form-data parser over the raw bytes (boundary from the Content-Type header). */
export function parseMultipart(req: Pick<RecordedRequest, 'headers' | 'body'>): Part[] {
  const contentType = String(req.headers['content-type'] ?? '');
  const match = /^multipart\/form-data;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  expect(match, `multipart content-type: ${contentType}`).not.toBeNull();
  const boundary = match![1] ?? match![2]!;
  // latin1 maps every byte to one char and back, so slicing the string slices the bytes.
  const raw = req.body.toString('latin1');
  const delimiter = `--${boundary}`;
  expect(raw.startsWith(delimiter)).toBe(true);
  expect(raw.trimEnd().endsWith(`${delimiter}--`)).toBe(true);
  const sections = raw.split(`\r\n${delimiter}`);
  sections[0] = sections[0]!.slice(delimiter.length);
  const parts: Part[] = [];
  for (const section of sections) {
    if (section.startsWith('--')) break; // the closing delimiter
    expect(section.startsWith('\r\n')).toBe(true);
    const headerEnd = section.indexOf('\r\n\r\n');
    expect(headerEnd).toBeGreaterThan(0);
    const headers: Record<string, string> = {};
    for (const line of section.slice(2, headerEnd).split('\r\n')) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const disposition = headers['content-disposition'] ?? '';
    expect(disposition.startsWith('form-data')).toBe(true);
    const name = /;\s*name="([^"]*)"/.exec(disposition)?.[1];
    const filename = /;\s*filename="([^"]*)"/.exec(disposition)?.[1];
    parts.push({
      headers,
      ...(name !== undefined ? { name } : {}),
      ...(filename !== undefined ? { filename } : {}),
      ...(headers['content-type'] !== undefined ? { contentType: headers['content-type'] } : {}),
      body: Buffer.from(section.slice(headerEnd + 4), 'latin1'),
    });
  }
  return parts;
}
