/** Locale-independent ordering, so output never depends on the machine's language settings. */
export function codePointCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export { isPlainObject } from '../../templates/runtime/contract/plain-object.js';
