/**
 * What a success response hands back that a later call can use: the objects it returns (the response itself,
 * or the items of a list in it, a couple of property steps down) with their scalar fields, and the spec's
 * response links. The operation search reads these (src/emit/search/suppliers.ts) to say which operation
 * supplies each required argument of another.
 */
import type { LinkModel, ReturnedObject } from '../ir/types.js';
import { primaryType, type ResolveRaw } from '../schema/outline.js';
import { isPlainObject } from '../util/stable.js';
import type { SuccessResponse } from './responses.js';

/**
 * Property steps from the root down to a list whose items are read: two reach `{tracks: {items: [...]}}`.
 * Deeper objects are mostly parts of an item (an album's images), not things a listing hands out.
 */
const MAX_DEPTH = 2;
const MAX_ALL_OF = 8;

/** With `memo`, keyed by the resolved root schema: operations that return the same schema share one list. */
export function returnedObjects(
  raw: unknown,
  resolve: ResolveRaw,
  memo?: Map<object, ReturnedObject[]>,
): ReturnedObject[] {
  const root = resolve(raw);
  if (!root) return [];
  const known = memo?.get(root);
  if (known) return known;
  const found: ReturnedObject[] = [];
  collect(raw, { resolve, found, seen: new Set() }, [], 0, false);
  memo?.set(root, found);
  return found;
}

interface Walk {
  resolve: ResolveRaw;
  found: ReturnedObject[];
  /** Schemas already walked: a cycle, or the same item type under two names, is read once. */
  seen: Set<object>;
}

/** Records the object `raw` describes (or its array's items), then the lists among its properties. */
function collect(raw: unknown, walk: Walk, path: readonly string[], depth: number, listed: boolean): void {
  const schema = walk.resolve(raw);
  if (!schema || walk.seen.has(schema)) return;
  walk.seen.add(schema);
  if (primaryType(schema) === 'array' || (schema['items'] !== undefined && !schema['properties'])) {
    collect(schema['items'], walk, path, depth, true);
    return;
  }
  const properties = objectProperties(schema, walk.resolve);
  if (!properties) return;
  const entity = entityNames(refName(raw), path);
  const fields = scalarFields(properties, walk.resolve);
  if (Object.keys(fields).length > 0) walk.found.push({ entity, fields, depth, listed });
  if (depth >= MAX_DEPTH) return;
  for (const [key, prop] of Object.entries(properties)) collectLists(prop, walk, [...path, key], depth + 1);
}

/**
 * What names the object: its schema's name, and the list it comes in, or for a generic list (`items`, `data`)
 * the property that holds it (`tracks` in `{tracks: {items: [...]}}`). Names higher up name the container.
 */
function entityNames(schemaName: string | undefined, path: readonly string[]): string[] {
  const names = schemaName ? [schemaName] : [];
  const list = path.at(-1);
  if (list !== undefined) names.push(list);
  if (list !== undefined && GENERIC_LISTS.has(list.toLowerCase()) && path.length >= 2) names.push(path.at(-2)!);
  return names;
}

const GENERIC_LISTS = new Set([
  'items',
  'data',
  'results',
  'entries',
  'values',
  'records',
  'list',
  'nodes',
  'elements',
]);

/** Follows a property toward a list: an array's items are recorded, an object is searched for arrays only. */
function collectLists(raw: unknown, walk: Walk, path: readonly string[], depth: number): void {
  const schema = walk.resolve(raw);
  if (!schema) return;
  if (primaryType(schema) === 'array') {
    collect(schema['items'], walk, path, depth, true);
    return;
  }
  if (depth >= MAX_DEPTH || walk.seen.has(schema)) return;
  const properties = objectProperties(schema, walk.resolve);
  if (!properties) return;
  walk.seen.add(schema);
  for (const [key, prop] of Object.entries(properties)) {
    const inner = walk.resolve(prop);
    if (inner && primaryType(inner) === 'array') collect(inner['items'], walk, [...path, key], depth + 1, true);
  }
}

/** Own properties, then those of allOf members; undefined when the schema describes no object. */
function objectProperties(
  schema: Record<string, unknown>,
  resolve: ResolveRaw,
  depth = 0,
): Record<string, unknown> | undefined {
  let merged: Record<string, unknown> | undefined;
  if (isPlainObject(schema['properties'])) merged = { ...schema['properties'] };
  if (Array.isArray(schema['allOf']) && depth < MAX_ALL_OF) {
    for (const member of schema['allOf']) {
      const resolved = resolve(member);
      const own = resolved && objectProperties(resolved, resolve, depth + 1);
      if (own) merged = { ...own, ...merged };
    }
  }
  return merged;
}

function scalarFields(properties: Record<string, unknown>, resolve: ResolveRaw): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, prop] of Object.entries(properties)) {
    const schema = resolve(prop);
    if (!schema || schema['writeOnly'] === true) continue;
    const type = primaryType(schema) ?? composedScalar(schema, resolve);
    if (type === undefined || type === 'object' || type === 'array' || isPlainObject(schema['properties'])) continue;
    fields[name] = type;
  }
  return fields;
}

/**
 * The type of an untyped field: `any` when nothing says otherwise; for a union (Stripe's expandable
 * `customer`: an id or a customer object) its first scalar branch; undefined when every branch is an object.
 */
function composedScalar(schema: Record<string, unknown>, resolve: ResolveRaw): string | undefined {
  const branches = [schema['oneOf'], schema['anyOf'], schema['allOf']].find(Array.isArray) as unknown[] | undefined;
  if (!branches) return isPlainObject(schema['properties']) ? undefined : 'any';
  for (const branch of branches) {
    const resolved = resolve(branch);
    const type = resolved && primaryType(resolved);
    if (type && type !== 'object' && type !== 'array') return type;
  }
  return undefined;
}

/** `#/components/schemas/TrackObject` → `TrackObject`: what a shared schema is named says what it is. */
function refName(raw: unknown): string | undefined {
  const ref = isPlainObject(raw) ? raw['$ref'] : undefined;
  return typeof ref === 'string' ? decodeURIComponent(ref.slice(ref.lastIndexOf('/') + 1)) : undefined;
}

/** The links of the success responses (OpenAPI 3 only; Swagger 2.0 has none). */
export function responseLinks(
  success: readonly SuccessResponse[],
  resolve: (node: unknown) => Record<string, unknown> | undefined,
): LinkModel[] {
  const links: LinkModel[] = [];
  for (const { response } of success) {
    const declared = response['links'];
    if (!isPlainObject(declared)) continue;
    for (const node of Object.values(declared)) {
      const link = resolve(node);
      const model = link && linkModel(link);
      if (model) links.push(model);
    }
  }
  return links;
}

function linkModel(link: Record<string, unknown>): LinkModel | undefined {
  const parameters = isPlainObject(link['parameters'])
    ? Object.keys(link['parameters']).map((name) => name.replace(/^(path|query|header|cookie)\./, ''))
    : [];
  if (parameters.length === 0) return undefined;
  const { operationId, operationRef } = link;
  if (typeof operationId === 'string') return { operationId, parameters };
  if (typeof operationRef === 'string') return { operationRef, parameters };
  return undefined;
}
