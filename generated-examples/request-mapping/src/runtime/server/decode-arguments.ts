/**
 * Arguments made for a lowered schema, turned back into arguments for the full one (see ArgumentDecoding in
 * lower-schema.ts): a null where the property was optional means the model left it out, and a free-form value
 * the model wrote as JSON text is parsed. Anything else is left alone: the full schema's validation then says
 * what is wrong.
 */
import type { ArgumentDecoding } from '../contract/profiles/lower-schema.js';

export interface DecodedArguments {
  args: Record<string, unknown>;
  /** Dotted paths of JSON-text values that did not parse (kept as strings): a refusal should say to send JSON. */
  unparsed: string[];
}

export function decodeArguments(args: Record<string, unknown>, decoding: ArgumentDecoding): DecodedArguments {
  const unparsed: string[] = [];
  if (decoding.absentWhenNull.length === 0 && decoding.jsonText.length === 0) return { args, unparsed };
  const copy = structuredClone(args);
  // A JSON-text value has no lowered properties beneath it, so the two passes never meet.
  for (const path of decoding.absentWhenNull)
    visit(copy, path, (holder, key) => {
      if (holder[key] === null) delete holder[key];
    });
  for (const path of decoding.jsonText)
    visit(copy, path, (holder, key, at) => {
      const value = holder[key];
      if (typeof value !== 'string') return;
      try {
        holder[key] = JSON.parse(value) as unknown;
      } catch {
        // Not JSON: kept as the string it is (a free-form value may be one); validation decides.
        unparsed.push(at.join('.'));
      }
    });
  return { args: copy, unparsed };
}

/** What to add to a refusal of arguments that had JSON text that did not parse. */
export function unparsedHint(unparsed: readonly string[]): string {
  return `${unparsed.map((p) => `"${p}"`).join(', ')} ${unparsed.length === 1 ? 'is' : 'are'} text that does not parse as JSON: write the value as JSON text, e.g. {"key": "value"}`;
}

type Holder = Record<string, unknown>;

/** Calls `at` for every (container, key) the path reaches, with the concrete path; `*` walks every array item. */
function visit(
  value: unknown,
  path: readonly string[],
  at: (holder: Holder, key: string, where: string[]) => void,
  where: string[] = [],
): void {
  if (path.length === 0 || typeof value !== 'object' || value === null) return;
  const [head, ...rest] = path as [string, ...string[]];
  if (head === '*') {
    if (!Array.isArray(value)) return;
    value.forEach((item, i) => {
      if (rest.length === 0) at(value as unknown as Holder, String(i), [...where, String(i)]);
      else visit(item, rest, at, [...where, String(i)]);
    });
    return;
  }
  if (Array.isArray(value) || !Object.hasOwn(value, head)) return;
  if (rest.length === 0) at(value as Holder, head, [...where, head]);
  else visit((value as Holder)[head], rest, at, [...where, head]);
}
