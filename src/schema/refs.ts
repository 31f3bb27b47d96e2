/**
 * Shared schemas: every local `$ref` to a schema becomes a named entry under `$defs`, converted once. Tools
 * reference these by name, which keeps recursive schemas finite and shared ones from being copied inline.
 */
import type { JsonSchema } from '../ir/types.js';
import { parseLocalRef } from '../util/json-pointer.js';

const DEF_PREFIX = '#/$defs/';

/** Picks a readable, `$defs`-safe, unique name for a ref like `#/components/schemas/Pet`. */
export class DefNames {
  private readonly byRef = new Map<string, string>();
  private readonly taken = new Set<string>();

  nameFor(ref: string): { name: string; isNew: boolean } {
    const existing = this.byRef.get(ref);
    if (existing) return { name: existing, isNew: false };
    const base = baseNameFor(ref);
    let name = base;
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) name = `${base}_${n}`;
    this.taken.add(name.toLowerCase());
    this.byRef.set(ref, name);
    return { name, isNew: true };
  }
}

function baseNameFor(ref: string): string {
  const tokens = parseLocalRef(ref) ?? [ref];
  const isComponent =
    (tokens[0] === 'components' && tokens[1] === 'schemas' && tokens.length === 3) ||
    (tokens[0] === 'definitions' && tokens.length === 2);
  // Bundled multi-file specs point into paths (`#/paths/~1v2~1x/get/.../schema`): name them by their tail.
  const words = isComponent ? [tokens[tokens.length - 1]!] : tokens.slice(-3);
  const name = words
    .join('_')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (name || 'Schema').slice(0, 80);
}

export function defRef(name: string): JsonSchema {
  return { $ref: `${DEF_PREFIX}${name}` };
}

/** Names of every `#/$defs/…` reference inside a schema (not following them). */
export function directDefRefs(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) {
    for (const item of schema) directDefRefs(item, into);
  } else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(DEF_PREFIX))
        into.add(value.slice(DEF_PREFIX.length));
      else directDefRefs(value, into);
    }
  }
  return into;
}

/** Names of every def a schema needs, transitively, sorted for deterministic output. */
export function transitiveDefs(schema: JsonSchema, defs: Record<string, JsonSchema>): string[] {
  const seen = new Set<string>();
  const queue = [...directDefRefs(schema)];
  while (queue.length > 0) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const def = defs[name];
    if (def) for (const next of directDefRefs(def)) if (!seen.has(next)) queue.push(next);
  }
  return [...seen].sort();
}
