/**
 * Strict base64 (RFC 4648): the standard alphabet (section 4) or the URL-safe one (section 5), not mixed, padded
 * with `=` to a multiple of 4 characters, and canonical (the unused bits of the last character are zero). A lenient
 * check would let a plain word through: `string` is 6 letters of the alphabet, and an API that decodes base64
 * refuses it, or stores garbage.
 */
import { Buffer } from 'node:buffer';
import type { Base64Alphabet } from '../contract/catalog.js';

const STANDARD = /^[A-Za-z0-9+/]*={0,2}$/;
const URL_SAFE = /^[A-Za-z0-9_-]*={0,2}$/;

export function isBase64(text: string): boolean {
  if (text.length % 4 !== 0) return false;
  const urlSafe = !STANDARD.test(text);
  if (urlSafe && !URL_SAFE.test(text)) return false;
  const standard = urlSafe ? text.replace(/-/g, '+').replace(/_/g, '/') : text;
  return Buffer.from(standard, 'base64').toString('base64') === standard;
}

/** The same base64 text in the alphabet the API asked for: the caller may write either, the bytes are the same. */
export function inAlphabet(text: string, alphabet: Base64Alphabet): string {
  return alphabet === 'base64url'
    ? text.replace(/\+/g, '-').replace(/\//g, '_')
    : text.replace(/-/g, '+').replace(/_/g, '/');
}

/** What to tell a caller whose value is not base64. */
export function base64Hint(label: string): string {
  return `"${label}" must be base64 (RFC 4648, standard or URL-safe alphabet, padded with "=" to a multiple of 4 characters, no data: prefix): encode the file's bytes, e.g. "aGVsbG8=" for "hello".`;
}
