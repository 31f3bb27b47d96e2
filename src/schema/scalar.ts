/** Keywords about a single value: type, nullability, enums, numeric and string bounds, formats. */
import type { JsonSchema } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';
import { linearPattern } from '../../templates/runtime/contract/linear-pattern.js';

const JSON_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'array', 'object', 'null']);

const COPIED_AS_IS = [
  'format',
  'default',
  'const',
  'multipleOf',
  'maximum',
  'minimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'uniqueItems',
  'maxProperties',
  'minProperties',
  'deprecated',
  'contentMediaType',
  'contentEncoding',
] as const;

/** Normalizes `type`: Swagger's `file` becomes a binary string; unknown names are dropped. */
export function convertType(type: unknown): string | string[] | undefined {
  const list = (Array.isArray(type) ? type : [type]).map((t) => (t === 'file' ? 'string' : t));
  const valid = [...new Set(list.filter((t): t is string => typeof t === 'string' && JSON_TYPES.has(t)))];
  if (valid.length === 0) return undefined;
  return valid.length === 1 ? valid[0] : valid;
}

export function copyScalarKeywords(source: Record<string, unknown>, target: JsonSchema): void {
  for (const key of COPIED_AS_IS) {
    if (source[key] !== undefined) target[key] = source[key];
  }
  if (source['type'] === 'file' && target['format'] === undefined) target['format'] = 'binary';
  fixDefault(target);
  copyExclusiveBounds(source, target);
  copyEnum(source, target);
  copyPattern(source, target);
}

/**
 * Specs often give an array parameter a scalar default (`default: available`): wrap it, so the schema stays
 * self-consistent for samplers and validators; a default of another type entirely is dropped.
 */
function fixDefault(target: JsonSchema): void {
  if (!('default' in target)) return;
  const type = target['type'];
  const value = target['default'];
  if (type === 'array' && !Array.isArray(value)) {
    target['default'] = [value];
  } else if (typeof type === 'string' && type !== 'array' && !matchesType(value, type)) {
    delete target['default'];
  }
}

function matchesType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'string':
    case 'boolean':
      return typeof value === type;
    case 'object':
      return isPlainObject(value);
    default:
      return true;
  }
}

/** OpenAPI 3.0 (draft-04 style) uses booleans for exclusive bounds; 2020-12 uses the bound itself. */
function copyExclusiveBounds(source: Record<string, unknown>, target: JsonSchema): void {
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = source[flag];
    if (typeof value === 'number') target[flag] = value;
    else if (value === true && typeof source[bound] === 'number') {
      target[flag] = source[bound];
      delete target[bound];
    }
  }
}

function copyEnum(source: Record<string, unknown>, target: JsonSchema): void {
  if (Array.isArray(source['enum']) && source['enum'].length > 0) target['enum'] = [...source['enum']];
}

/**
 * The server matches patterns in linear time (contract/linear-pattern.ts): one that is not valid ECMAScript, or
 * that needs backtracking (lookaround, backreferences), is dropped; the tool accepts a superset, and the API
 * still validates.
 */
function copyPattern(source: Record<string, unknown>, target: JsonSchema): void {
  const pattern = source['pattern'];
  if (typeof pattern === 'string' && linearPattern(pattern)) target['pattern'] = pattern;
}

/** Why a spec's pattern is not in the tool's schema (see copyPattern). */
export function droppedPatternReason(pattern: string): string {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'is not a valid ECMAScript regular expression';
  }
  return 'needs lookaround or backreferences, which the server cannot check in linear time';
}

/** Applies OpenAPI 3.0 `nullable: true` (or Swagger's `x-nullable`) the 2020-12 way. */
export function applyNullable(schema: JsonSchema): JsonSchema {
  const type = schema['type'];
  if (Array.isArray(schema['enum']) && !schema['enum'].includes(null)) schema['enum'] = [...schema['enum'], null];
  if (typeof type === 'string') {
    schema['type'] = type === 'null' ? 'null' : [type, 'null'];
    return schema;
  }
  if (Array.isArray(type)) {
    if (!type.includes('null')) schema['type'] = [...type, 'null'];
    return schema;
  }
  if (Object.keys(schema).length === 0) return schema;
  const { description, ...rest } = schema;
  const nullable: JsonSchema = { anyOf: [rest, { type: 'null' }] };
  if (description !== undefined) nullable['description'] = description;
  return nullable;
}
