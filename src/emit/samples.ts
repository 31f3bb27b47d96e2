/**
 * Sample arguments for the generated project's own tests: the required arguments of a tool, each from its
 * schema's example, default, const or first enum value, else a value of the right type within its bounds.
 * Returns undefined when it cannot be confident the value validates (a pattern no stock value matches, an
 * unresolvable reference, a required value nested too deep): the test then skips that tool, saying why.
 */
import type { JsonSchema } from '../ir/types.js';
import { unescapeToken } from '../util/json-pointer.js';
import { stringSample } from '../util/samples.js';
import { isPlainObject } from '../util/stable.js';
import { linearPattern } from '../../templates/runtime/contract/linear-pattern.js';

const MAX_DEPTH = 6;

type Sample = { value: unknown } | undefined;

export function sampleArguments(
  inputSchema: JsonSchema,
  defs: Record<string, JsonSchema>,
): Record<string, unknown> | undefined {
  const sample = sampleObject(inputSchema, defs, 0, true);
  return sample && isPlainObject(sample.value) ? sample.value : undefined;
}

function sampleOf(raw: unknown, defs: Record<string, JsonSchema>, depth: number): Sample {
  if (depth > MAX_DEPTH) return undefined;
  if (raw === true) return { value: 'x' };
  if (!isPlainObject(raw)) return undefined;
  const schema = raw;
  if (typeof schema['$ref'] === 'string') {
    const match = /^#\/\$defs\/(.+)$/.exec(schema['$ref']);
    const target = match ? defs[unescapeToken(decodeURIComponent(match[1]!))] : undefined;
    return target ? sampleOf(target, defs, depth + 1) : undefined;
  }
  if ('const' in schema) return { value: schema['const'] };
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0)
    return { value: schema['enum'].find((v) => v !== null) ?? null };
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return { value: schema['examples'][0] };
  if (schema['default'] !== undefined) return { value: schema['default'] };
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    // The first branch that can be sampled (for oneOf, a value that also matches a later branch would fail).
    for (const branch of branches) {
      const sample = sampleOf(branch, defs, depth + 1);
      if (sample) return sample;
    }
    return undefined;
  }
  if (Array.isArray(schema['allOf'])) return undefined;
  const type = primaryType(schema);
  switch (type) {
    case 'object':
      return sampleObject(schema, defs, depth, false);
    case 'array': {
      const min = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
      if (min === 0) return { value: [] };
      const item = sampleOf(schema['items'], defs, depth + 1);
      return item ? { value: Array.from({ length: min }, () => item.value) } : undefined;
    }
    case 'string':
      return stringValue(schema);
    case 'integer':
    case 'number':
      return numberValue(schema, type === 'integer');
    case 'boolean':
      return { value: true };
    case 'null':
      return { value: null };
    default:
      return isPlainObject(schema['properties']) ? sampleObject(schema, defs, depth, false) : { value: 'x' };
  }
}

function sampleObject(
  schema: Record<string, unknown>,
  defs: Record<string, JsonSchema>,
  depth: number,
  root: boolean,
): Sample {
  const properties = isPlainObject(schema['properties']) ? schema['properties'] : {};
  const required = Array.isArray(schema['required'])
    ? schema['required'].filter((r): r is string => typeof r === 'string')
    : [];
  const value: Record<string, unknown> = {};
  for (const name of required) {
    const sample = sampleOf(properties[name] ?? (root ? undefined : true), defs, depth + 1);
    if (!sample) return undefined;
    value[name] = sample.value;
  }
  const min = typeof schema['minProperties'] === 'number' ? schema['minProperties'] : 0;
  return required.length >= min ? { value } : undefined;
}

function primaryType(schema: Record<string, unknown>): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type))
    return (
      type.find((t): t is string => typeof t === 'string' && t !== 'null') ??
      (type.includes('null') ? 'null' : undefined)
    );
  return undefined;
}

function stringValue(schema: Record<string, unknown>): Sample {
  const formatted = stringSample(typeof schema['format'] === 'string' ? schema['format'] : undefined);
  if (formatted !== undefined) return { value: formatted };
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 1;
  const max = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : Infinity;
  if (typeof schema['pattern'] === 'string') {
    const pattern = linearPattern(schema['pattern']);
    const value = pattern && PATTERN_CANDIDATES.find((c) => c.length >= min && c.length <= max && pattern.test(c));
    return value ? { value } : undefined;
  }
  const length = Math.max(min, Math.min(1, max));
  return length > max ? undefined : { value: 'x'.repeat(length) };
}

/** Tried against a `pattern` that has no example: ids, numbers, words, codes, dates. */
const PATTERN_CANDIDATES = [
  '1',
  '123456789012345678',
  'x',
  'abc',
  'ABC',
  'a1',
  'A1B2',
  'example',
  'example-1',
  'US',
  'en',
  'en-US',
  '2024-01-01',
  '00000000-0000-4000-8000-000000000000',
  'user@example.com',
  'https://example.com',
];

function numberValue(schema: Record<string, unknown>, integer: boolean): Sample {
  const num = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : undefined);
  const multipleOf = num('multipleOf');
  let value = multipleOf ?? 1;
  const min = num('minimum');
  const exclusiveMin = num('exclusiveMinimum');
  if (min !== undefined && value < min) value = min;
  if (exclusiveMin !== undefined && value <= exclusiveMin) value = exclusiveMin + 1;
  if (integer) value = Math.ceil(value);
  if (multipleOf !== undefined && value % multipleOf !== 0) value = Math.ceil(value / multipleOf) * multipleOf;
  const max = num('maximum');
  const exclusiveMax = num('exclusiveMaximum');
  if ((max !== undefined && value > max) || (exclusiveMax !== undefined && value >= exclusiveMax)) return undefined;
  return { value };
}
