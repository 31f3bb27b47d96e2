/**
 * The shape of an operation's success response, for code mode's declarations (`Promise<…>` of each
 * `api.*` function): types and property names a few levels deep, so a program knows which fields to read.
 * Refs are followed (a cycle ends at `object`), allOf members merged, and nothing else kept but short enums:
 * it describes, it never validates. A node budget keeps the shape of a large response (GitHub's repository
 * has 80 properties, each an object) readable in a search result.
 */
import type { JsonSchema } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';
import { primaryType, type ResolveRaw } from './outline.js';

const MAX_DEPTH = 3;
/** Properties and items described in full per response; past it, properties get their type only. */
const NODE_BUDGET = 120;
const MAX_ENUM = 10;
const MAX_BRANCHES = 4;

/** With `memo`, keyed by the resolved root: a shape depends on nothing else (the budget starts afresh per root). */
export function resultShape(
  raw: unknown,
  resolve: ResolveRaw,
  memo?: Map<object, JsonSchema | undefined>,
): JsonSchema | undefined {
  if (raw === undefined) return undefined;
  const root = resolve(raw);
  if (root && memo?.has(root)) return memo.get(root);
  const shape = shapeOf(raw, resolve, 0, new Set(), { nodes: NODE_BUDGET });
  if (root) memo?.set(root, shape);
  return shape;
}

interface Budget {
  nodes: number;
}

function shapeOf(raw: unknown, resolve: ResolveRaw, depth: number, seen: Set<object>, budget: Budget): JsonSchema {
  const schema = resolve(raw);
  if (!schema) return {};
  const type = typeOf(schema);
  if (seen.has(schema) || depth >= MAX_DEPTH || budget.nodes <= 0) return type ? { type } : {};
  const inner = new Set(seen).add(schema);
  const branches = (Array.isArray(schema['oneOf']) ? schema['oneOf'] : schema['anyOf']) as unknown;
  if (Array.isArray(branches) && branches.length > 0 && !isPlainObject(schema['properties'])) {
    // Each branch counts as a level and a node: unions nested in unions stay bounded too.
    return {
      anyOf: branches.slice(0, MAX_BRANCHES).map((b) => {
        budget.nodes -= 1;
        return shapeOf(b, resolve, depth + 1, inner, budget);
      }),
    };
  }
  const properties = mergedProperties(schema, resolve);
  if (properties) {
    const shaped: Record<string, JsonSchema> = {};
    for (const [name, prop] of Object.entries(properties)) {
      budget.nodes -= 1;
      shaped[name] = shapeOf(prop, resolve, depth + 1, inner, budget);
    }
    return { type: 'object', properties: shaped };
  }
  if (type === 'array') {
    budget.nodes -= 1;
    return { type: 'array', items: shapeOf(schema['items'], resolve, depth + 1, inner, budget) };
  }
  const result: JsonSchema = type ? { type } : {};
  if (Array.isArray(schema['enum']) && schema['enum'].length <= MAX_ENUM) result['enum'] = schema['enum'];
  if (isPlainObject(schema['additionalProperties'])) {
    result['additionalProperties'] = shapeOf(schema['additionalProperties'], resolve, depth + 1, inner, budget);
  }
  return result;
}

/** Own properties, then those of allOf members (the first definition of a name wins); undefined when none. */
function mergedProperties(
  schema: Record<string, unknown>,
  resolve: ResolveRaw,
  depth = 0,
): Record<string, unknown> | undefined {
  if (depth > 8) return undefined;
  const merged: Record<string, unknown> = {};
  let found = false;
  if (isPlainObject(schema['properties'])) {
    found = true;
    for (const [name, prop] of Object.entries(schema['properties'])) {
      if (resolve(prop)?.['writeOnly'] !== true) merged[name] = prop;
    }
  }
  if (Array.isArray(schema['allOf'])) {
    for (const member of schema['allOf']) {
      const resolved = resolve(member);
      const own = resolved ? mergedProperties(resolved, resolve, depth + 1) : undefined;
      if (!own) continue;
      found = true;
      for (const [name, prop] of Object.entries(own)) if (!(name in merged)) merged[name] = prop;
    }
  }
  return found ? merged : undefined;
}

/** The declared type, else the one its keywords imply. */
function typeOf(schema: Record<string, unknown>): string | undefined {
  const declared = primaryType(schema);
  if (declared) return declared;
  if (isPlainObject(schema['properties'])) return 'object';
  return schema['items'] !== undefined ? 'array' : undefined;
}
