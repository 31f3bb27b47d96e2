/**
 * Output schemas are outlines: a relaxation of the spec's response schema that keeps what helps a model read
 * the answer (top-level property names and their types) and drops everything that could make a client reject
 * a good answer: `required`, `additionalProperties: false`, enums, formats, bounds, and any detail below the
 * first level. Every type also admits null. So any response that conforms to the spec validates.
 */
import type { JsonSchema } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';
import { convertType } from './scalar.js';

export type ResolveRaw = (schema: unknown) => Record<string, unknown> | undefined;

/** `wrap` is true when the root is not an object: the tool then returns `{ result: <value> }`. */
export interface OutputOutline {
  schema: JsonSchema;
  wrap: boolean;
}

export function outlineOutputSchema(
  raw: unknown,
  resolve: ResolveRaw,
  memo?: Map<object, OutputOutline | undefined>,
): OutputOutline | undefined {
  const root = resolve(raw);
  if (!root) return undefined;
  if (memo?.has(root)) return memo.get(root);
  const outline = outlineOf(root, resolve);
  memo?.set(root, outline);
  return outline;
}

function outlineOf(root: Record<string, unknown>, resolve: ResolveRaw): OutputOutline | undefined {
  const merged = mergedObject(root, resolve);
  if (merged) return { schema: { type: 'object', properties: merged }, wrap: false };
  const type = primaryType(root);
  if (type === undefined || type === 'object') return undefined;
  return {
    schema: {
      type: 'object',
      properties: { result: { description: `The response (${type === 'array' ? 'an array' : `a ${type}`}).` } },
    },
    wrap: true,
  };
}

/** Properties of an object schema, following refs and allOf; undefined when the root is not a plain object. */
function mergedObject(
  schema: Record<string, unknown>,
  resolve: ResolveRaw,
  depth = 0,
): Record<string, JsonSchema> | undefined {
  if (depth > 8) return undefined;
  const props: Record<string, JsonSchema> = {};
  let isObject = primaryType(schema) === 'object' || isPlainObject(schema['properties']);
  if (isPlainObject(schema['properties'])) {
    for (const [name, prop] of Object.entries(schema['properties'])) {
      const resolved = resolve(prop);
      if (resolved?.['writeOnly'] === true) continue;
      props[name] = propertyOutline(resolved);
    }
  }
  if (Array.isArray(schema['allOf'])) {
    for (const member of schema['allOf']) {
      const resolved = resolve(member);
      const memberProps = resolved ? mergedObject(resolved, resolve, depth + 1) : undefined;
      if (!memberProps) continue;
      isObject = true;
      for (const [name, outline] of Object.entries(memberProps)) if (!(name in props)) props[name] = outline;
    }
  }
  return isObject && (Object.keys(props).length > 0 || (schema['oneOf'] === undefined && schema['anyOf'] === undefined))
    ? props
    : undefined;
}

function propertyOutline(schema: Record<string, unknown> | undefined): JsonSchema {
  const type = schema ? convertType(schema['type']) : undefined;
  if (typeof type === 'string') return { type: type === 'null' ? 'null' : [type, 'null'] };
  if (Array.isArray(type)) return { type: type.includes('null') ? type : [...type, 'null'] };
  if (schema && isPlainObject(schema['properties'])) return { type: ['object', 'null'] };
  return {};
}

/** The schema's type, the first that is not null when it lists several. */
export function primaryType(schema: Record<string, unknown>): string | undefined {
  const type = convertType(schema['type']);
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null');
  return undefined;
}
