/**
 * multipart/form-data written by hand rather than with FormData: FormData can only give a part a
 * Content-Type by making it a Blob, and fetch then adds `filename="blob"`, which turns a JSON field into a
 * file upload for multer, FastAPI and others. Here a part has a filename only when it is a file.
 */
import { Buffer } from 'node:buffer';
import { randomBytes } from 'node:crypto';

export interface MultipartPart {
  name: string;
  data: string | Uint8Array;
  filename?: string;
  contentType?: string;
}

export function encodeMultipart(parts: readonly MultipartPart[]): { body: Uint8Array; contentType: string } {
  const boundary = `----openapi-to-mcp-${randomBytes(12).toString('hex')}`;
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${partHeaders(part)}\r\n`, 'utf8'));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data);
    chunks.push(Buffer.from('\r\n', 'utf8'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: new Uint8Array(Buffer.concat(chunks)), contentType: `multipart/form-data; boundary=${boundary}` };
}

function partHeaders(part: MultipartPart): string {
  const filename = part.filename !== undefined ? `; filename="${quote(part.filename)}"` : '';
  const type = part.contentType !== undefined ? `Content-Type: ${part.contentType.replace(/[\r\n]/g, '')}\r\n` : '';
  return `Content-Disposition: form-data; name="${quote(part.name)}"${filename}\r\n${type}`;
}

/** RFC 7578 §4.2: names are quoted strings; CR, LF and `"` are percent-encoded, as browsers do. */
function quote(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}
