/**
 * Whether `JSON.stringify(value)` is at most `limit` characters long, worked out without writing more of it
 * than `limit`: a large spec's examples can be long, and the checks that use this only need to know when one
 * is too long. A value that JSON.stringify leaves out (undefined, a function) does not fit. Anything other than
 * plain JSON data (a Date read from YAML, a value with toJSON) is measured by JSON.stringify itself.
 */
export function jsonFitsIn(value: unknown, limit: number): boolean {
  return jsonLength(value, limit) <= limit;
}

const TOO_LONG = Number.POSITIVE_INFINITY;

/** The length of the value's JSON text, or TOO_LONG as soon as it is known to pass `budget`. */
function jsonLength(value: unknown, budget: number): number {
  if (value === null) return 4;
  switch (typeof value) {
    case 'boolean':
      return value ? 4 : 5;
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'string':
      // The quotes alone add two; escapes only add more.
      return value.length + 2 > budget ? TOO_LONG : JSON.stringify(value).length;
    case 'object':
      return Array.isArray(value)
        ? arrayLength(value, budget)
        : isPlainData(value)
          ? objectLength(value as Record<string, unknown>, budget)
          : viaStringify(value);
    default:
      return viaStringify(value);
  }
}

function arrayLength(items: readonly unknown[], budget: number): number {
  let total = 2 + Math.max(items.length - 1, 0); // brackets and commas
  for (const item of items) {
    if (total > budget) return TOO_LONG;
    total += isOmitted(item) ? 4 : jsonLength(item, budget - total); // left-out values become null in arrays
  }
  return total > budget ? TOO_LONG : total;
}

function objectLength(object: Record<string, unknown>, budget: number): number {
  let total = 2; // braces
  let members = 0;
  for (const key of Object.keys(object)) {
    const item = object[key];
    if (isOmitted(item)) continue; // left out of objects
    if (members++ > 0) total += 1; // comma
    total += JSON.stringify(key).length + 1; // "key":
    if (total > budget) return TOO_LONG;
    total += jsonLength(item, budget - total);
  }
  return total > budget ? TOO_LONG : total;
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function isPlainData(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (value as { toJSON?: unknown }).toJSON !== 'function';
}

function viaStringify(value: unknown): number {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? TOO_LONG : text.length;
}
