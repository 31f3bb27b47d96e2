/**
 * Arguments made for a lowered schema, turned back into arguments for the full one (see ArgumentDecoding in
 * lower-schema.ts): a null where the property was optional means the model left it out, and a free-form value
 * the model wrote as JSON text is parsed. Anything else is left alone: the full schema's validation then says
 * what is wrong.
 */
import type { ArgumentDecoding } from './lower-schema.js';

export function decodeArguments(args: Record<string, unknown>, decoding: ArgumentDecoding): Record<string, unknown> {
  if (decoding.absentWhenNull.length === 0 && decoding.jsonText.length === 0) return args;
  const copy = structuredClone(args);
  // A JSON-text value has no lowered properties beneath it, so the two passes never meet.
  for (const path of decoding.absentWhenNull) visit(copy, path, (holder, key) => {
    if (holder[key] === null) delete holder[key];
  });
  for (const path of decoding.jsonText) visit(copy, path, (holder, key) => {
    const value = holder[key];
    if (typeof value !== 'string') return;
    try {
      holder[key] = JSON.parse(value) as unknown;
    } catch {
      // Not JSON: kept as the string it is (a free-form value may be one).
    }
  });
  return copy;
}

type Holder = Record<string, unknown>;

/** Calls `at` for every (container, key) the path reaches; `*` walks every item of an array. */
function visit(value: unknown, path: readonly string[], at: (holder: Holder, key: string) => void): void {
  if (path.length === 0 || typeof value !== 'object' || value === null) return;
  const [head, ...rest] = path as [string, ...string[]];
  if (head === '*') {
    if (!Array.isArray(value)) return;
    if (rest.length === 0) value.forEach((_, i) => at(value as unknown as Holder, String(i)));
    else for (const item of value) visit(item, rest, at);
    return;
  }
  if (Array.isArray(value) || !Object.hasOwn(value, head)) return;
  if (rest.length === 0) at(value as Holder, head);
  else visit((value as Holder)[head], rest, at);
}
