/**
 * Input schema comparison for the tool-surface diff. Each input schema is flattened to argument paths
 * (`petId`, `body.name`, `body.tags[]`), each with what a caller must satisfy: required or not, accepted
 * types, allowed values and bounds. Comparing two flattenings finds the breaking changes (a caller that was
 * valid before is rejected now): a new required argument, a removed argument, a narrowed type, fewer
 * allowed values, tighter bounds; and the compatible ones worth mentioning.
 */
import type { JsonSchema } from '../ir/types.js';
import { unescapeToken } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';

const MAX_DEPTH = 4;
const MAX_ENTRIES = 400;

export interface ArgFacts {
  required: boolean;
  /** Sorted JSON types; `any` when unconstrained. */
  types: string[];
  /** JSON texts of the allowed values, when the schema lists them (enum / const). */
  values?: string[];
  bounds: Record<string, number | string>;
}

export type Flattened = Map<string, ArgFacts>;

export interface InputChanges {
  breaking: string[];
  compatible: string[];
}

export function flattenInput(inputSchema: JsonSchema, defs: Record<string, JsonSchema>): Flattened {
  const out: Flattened = new Map();
  walkObject(inputSchema, '', defs, out, 0, new Set());
  return out;
}

function deref(
  schema: unknown,
  defs: Record<string, JsonSchema>,
  seen: Set<string>,
): { schema: Record<string, unknown>; refs: string[] } | undefined {
  let current = schema;
  const refs: string[] = [];
  for (let hops = 0; hops < 16 && isPlainObject(current); hops++) {
    const ref = current['$ref'];
    if (typeof ref !== 'string') return { schema: current, refs };
    const name = /^#\/\$defs\/(.+)$/.exec(ref)?.[1];
    if (name === undefined || seen.has(name)) return undefined;
    refs.push(name);
    // Siblings of $ref (a description) do not constrain; the target does.
    current = defs[unescapeToken(decodeURIComponent(name))];
  }
  return isPlainObject(current) ? { schema: current, refs } : undefined;
}

function walkObject(
  schema: unknown,
  prefix: string,
  defs: Record<string, JsonSchema>,
  out: Flattened,
  depth: number,
  seen: Set<string>,
): void {
  const resolved = deref(schema, defs, seen);
  if (!resolved || depth >= MAX_DEPTH) return;
  const inner = new Set([...seen, ...resolved.refs]);
  const { properties, required } = objectShape(resolved.schema, defs, inner);
  for (const [name, prop] of Object.entries(properties)) {
    if (out.size >= MAX_ENTRIES) return;
    const path = prefix ? `${prefix}.${name}` : name;
    walk(prop, path, required.has(name), defs, out, depth + 1, inner);
  }
}

function walk(
  schema: unknown,
  path: string,
  required: boolean,
  defs: Record<string, JsonSchema>,
  out: Flattened,
  depth: number,
  seen: Set<string>,
): void {
  const resolved = deref(schema, defs, seen);
  if (!resolved) {
    out.set(path, { required, types: ['any'], bounds: {} });
    return;
  }
  const s = resolved.schema;
  const inner = new Set([...seen, ...resolved.refs]);
  const values = allowedValues(s);
  out.set(path, { required, types: typesOf(s, defs, inner), ...(values ? { values } : {}), bounds: boundsOf(s) });
  if (depth >= MAX_DEPTH) return;
  const types = typesOf(s, defs, inner);
  if (types.includes('object')) walkObject(s, path, defs, out, depth, inner);
  if (types.includes('array') && s['items'] !== undefined && out.size < MAX_ENTRIES)
    walk(s['items'], `${path}[]`, false, defs, out, depth + 1, inner);
}

function objectShape(
  schema: Record<string, unknown>,
  defs: Record<string, JsonSchema>,
  seen: Set<string>,
): { properties: Record<string, unknown>; required: Set<string> } {
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const add = (s: Record<string, unknown>) => {
    if (isPlainObject(s['properties']))
      for (const [k, v] of Object.entries(s['properties'])) if (!(k in properties)) properties[k] = v;
    if (Array.isArray(s['required'])) for (const r of s['required']) if (typeof r === 'string') required.add(r);
  };
  add(schema);
  if (Array.isArray(schema['allOf'])) {
    for (const member of schema['allOf']) {
      const resolved = deref(member, defs, seen);
      if (resolved) add(resolved.schema);
    }
  }
  return { properties, required };
}

function typesOf(schema: Record<string, unknown>, defs: Record<string, JsonSchema>, seen: Set<string>): string[] {
  const types = new Set<string>();
  const type = schema['type'];
  if (typeof type === 'string') {
    types.add(type);
  } else if (Array.isArray(type)) {
    for (const t of type) if (typeof t === 'string') types.add(t);
  } else if ('const' in schema) {
    types.add(jsonType(schema['const']));
  } else if (Array.isArray(schema['enum'])) {
    for (const v of schema['enum']) types.add(jsonType(v));
  } else {
    const branches = [
      ...(Array.isArray(schema['anyOf']) ? schema['anyOf'] : []),
      ...(Array.isArray(schema['oneOf']) ? schema['oneOf'] : []),
    ];
    for (const branch of branches) {
      const resolved = deref(branch, defs, seen);
      if (!resolved) return ['any'];
      for (const t of typesOf(resolved.schema, defs, new Set([...seen, ...resolved.refs]))) types.add(t);
    }
    if (branches.length === 0) {
      const member = Array.isArray(schema['allOf'])
        ? schema['allOf'].map((m) => deref(m, defs, seen)).find((r) => r !== undefined)
        : undefined;
      if (member) return typesOf(member.schema, defs, new Set([...seen, ...member.refs]));
      if (isPlainObject(schema['properties'])) types.add('object');
    }
  }
  if (types.size === 0 || types.has('any')) return ['any'];
  return [...types].sort();
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function allowedValues(schema: Record<string, unknown>): string[] | undefined {
  if ('const' in schema) return [JSON.stringify(schema['const'])];
  if (Array.isArray(schema['enum'])) return schema['enum'].map((v) => JSON.stringify(v)).sort();
  return undefined;
}

const LOWER_BOUNDS = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
const UPPER_BOUNDS = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;

function boundsOf(schema: Record<string, unknown>): Record<string, number | string> {
  const bounds: Record<string, number | string> = {};
  for (const key of [...LOWER_BOUNDS, ...UPPER_BOUNDS])
    if (typeof schema[key] === 'number') bounds[key] = schema[key] as number;
  if (typeof schema['pattern'] === 'string') bounds['pattern'] = schema['pattern'];
  if (typeof schema['multipleOf'] === 'number') bounds['multipleOf'] = schema['multipleOf'];
  return bounds;
}

export function compareInputs(before: Flattened, after: Flattened): InputChanges {
  const breaking: string[] = [];
  const compatible: string[] = [];
  const removed = [...before.keys()].filter((path) => !after.has(path));
  for (const path of removed) {
    // Reported once, at the outermost removed argument.
    if (!removed.some((p) => p !== path && (path.startsWith(`${p}.`) || path.startsWith(`${p}[]`))))
      breaking.push(`removed argument "${path}"`);
  }
  for (const [path, now] of after) {
    const old = before.get(path);
    if (!old) {
      // A new field inside a new optional object is optional for callers; only required-all-the-way counts.
      if (now.required && requiredChain(after, path) && !newParent(before, path))
        breaking.push(`new required argument "${path}"`);
      else if (!newParent(before, path)) compatible.push(`added optional argument "${path}"`);
      continue;
    }
    if (now.required && !old.required && requiredChain(after, path))
      breaking.push(`argument "${path}" is now required`);
    if (!now.required && old.required) compatible.push(`argument "${path}" is no longer required`);
    const lost = old.types.filter((t) => !accepts(now.types, t));
    const gained = now.types.filter((t) => !accepts(old.types, t));
    if (lost.length > 0) breaking.push(`narrowed type of "${path}": ${old.types.join('|')} → ${now.types.join('|')}`);
    else if (gained.length > 0)
      compatible.push(`widened type of "${path}": ${old.types.join('|')} → ${now.types.join('|')}`);
    if (now.values && !old.values) breaking.push(`"${path}" is now limited to ${now.values.join(', ')}`);
    else if (now.values && old.values) {
      const removed = old.values.filter((v) => !now.values!.includes(v));
      const added = now.values.filter((v) => !old.values!.includes(v));
      if (removed.length > 0) breaking.push(`"${path}" no longer accepts ${removed.join(', ')}`);
      if (added.length > 0) compatible.push(`"${path}" also accepts ${added.join(', ')}`);
    }
    const tighter = tightenedBounds(old.bounds, now.bounds);
    if (tighter.length > 0) breaking.push(`narrowed "${path}": ${tighter.join(', ')}`);
  }
  return { breaking, compatible };
}

/** `body.owner.name` counts as required for callers only when `body` and `body.owner` are required too. */
function requiredChain(flat: Flattened, path: string): boolean {
  const parts = path.split('.');
  for (let i = 1; i < parts.length; i++) {
    const parent = flat.get(parts.slice(0, i).join('.'));
    if (parent && !parent.required) return false;
    if (parts[i - 1]!.endsWith('[]')) return false;
  }
  return true;
}

/** True when some ancestor of `path` did not exist before (the whole subtree is new; reported once). */
function newParent(before: Flattened, path: string): boolean {
  const parts = path.split('.');
  for (let i = 1; i < parts.length; i++) if (!before.has(parts.slice(0, i).join('.'))) return true;
  return false;
}

function accepts(types: string[], type: string): boolean {
  return types.includes('any') || types.includes(type) || (type === 'integer' && types.includes('number'));
}

function tightenedBounds(old: ArgFacts['bounds'], now: ArgFacts['bounds']): string[] {
  const out: string[] = [];
  for (const key of LOWER_BOUNDS) {
    const [a, b] = [old[key], now[key]];
    if (typeof b === 'number' && (typeof a !== 'number' || b > a)) out.push(`${key} ${a ?? 'none'} → ${b}`);
  }
  for (const key of UPPER_BOUNDS) {
    const [a, b] = [old[key], now[key]];
    if (typeof b === 'number' && (typeof a !== 'number' || b < a)) out.push(`${key} ${a ?? 'none'} → ${b}`);
  }
  if (now['pattern'] !== undefined && now['pattern'] !== old['pattern'])
    out.push(`pattern ${old['pattern'] ?? 'none'} → ${now['pattern']}`);
  if (now['multipleOf'] !== undefined && now['multipleOf'] !== old['multipleOf'])
    out.push(`multipleOf ${old['multipleOf'] ?? 'none'} → ${now['multipleOf']}`);
  return out;
}
