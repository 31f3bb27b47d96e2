/**
 * Compact input schemas: what a listing shows of a tool whose input schema is too large to list whole (a
 * Kubernetes create inlines a whole pod). Deep structure is summarized: a structured value (an object with
 * properties, an array of them, a union) nested deeper than a few levels becomes a schema of its type alone,
 * whose description names its keys and says where the full schema is (`describe_operation`); the
 * descriptions below the arguments are cut to their first sentence (the arguments' own too, when that is not
 * enough). The arguments themselves (the root's properties) are always shown.
 *
 * A compact schema accepts every value the full one accepts (it only ever loosens), so a model that follows it
 * never writes a call the listing forbids but the API takes; the server validates every call against the full
 * schema, and its errors name what to change. It is self-contained: `$ref`s are inlined (a recursive one is
 * summarized where it recurs), and it carries no `$defs`.
 *
 * Only a listing that also lists `describe_operation` (hybrid mode) shows compact schemas; mode `all` lists
 * every schema whole.
 */
import type { JsonSchema } from '../../templates/runtime/contract/catalog.js';
import { DESCRIBE_TOOL } from '../../templates/runtime/contract/meta-definitions.js';
import { isPlainObject } from '../../templates/runtime/contract/plain-object.js';
import { summary } from '../../templates/runtime/contract/profiles/lower-schema.js';
import { jsonFitsIn } from '../util/json-size.js';

/**
 * A listed input schema longer than this (JSON characters, about 3.5 a token) is compacted: about 570 tokens,
 * so that fifteen core tools and the meta-tools fit the listing budget with their descriptions
 * (src/emit/search/tool-modes.ts).
 */
export const INPUT_SCHEMA_BUDGET_CHARS = 2_000;

/** The levels tried, deepest first: structure at most this deep is shown (the arguments are level 1). */
const DEPTHS = [4, 3, 2, 1] as const;
/** A description below the arguments keeps its first sentence, at most this long. */
const NESTED_DESCRIPTION_CHARS = 160;

export const COMPACT_NOTE = `full schema: ${DESCRIBE_TOOL}`;

/** Keywords holding one subschema one level down (a value inside the value), and maps of them. */
const CHILD_KEYWORDS = ['items', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'contains'];
const CHILD_MAP_KEYWORDS = ['properties', 'patternProperties'];
const CHILD_LIST_KEYWORDS = ['prefixItems'];
/** Keywords holding subschemas that apply to the value itself (same level). */
const SAME_KEYWORDS = ['not', 'if', 'then', 'else', 'propertyNames'];
const SAME_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf'];
const SAME_MAP_KEYWORDS = ['dependentSchemas'];
const SUBSCHEMA_KEYWORDS = new Set([
  ...CHILD_KEYWORDS,
  ...CHILD_MAP_KEYWORDS,
  ...CHILD_LIST_KEYWORDS,
  ...SAME_KEYWORDS,
  ...SAME_LIST_KEYWORDS,
  ...SAME_MAP_KEYWORDS,
]);

/**
 * The schema a hybrid listing shows for an input schema (`$defs` included, as assembleInputSchema gives it),
 * or undefined when it fits `budget` characters whole. Tried level by level, deepest first: the first that
 * fits; else the shallowest, with the arguments' descriptions cut to their first sentence as well.
 */
export function compactInputSchema(
  schema: JsonSchema,
  budget: number = INPUT_SCHEMA_BUDGET_CHARS,
): JsonSchema | undefined {
  if (jsonFitsIn(schema, budget)) return undefined;
  const defs = isPlainObject(schema['$defs']) ? (schema['$defs'] as Record<string, JsonSchema>) : {};
  for (const depth of DEPTHS) {
    const compact = new Compaction(defs, depth, false).node(schema, 0, []);
    if (jsonFitsIn(compact, budget)) return compact;
  }
  // Still over (many arguments, each described at length: a Kubernetes list): their descriptions too.
  return new Compaction(defs, DEPTHS.at(-1)!, true).node(schema, 0, []);
}

class Compaction {
  constructor(
    private readonly defs: Record<string, JsonSchema>,
    private readonly maxDepth: number,
    /** The arguments' descriptions cut to their first sentence too. */
    private readonly shortArguments: boolean,
  ) {}

  /** `depth`: 0 at the root, 1 for an argument, 2 for a property of an argument, … `refs`: defs being inlined. */
  node(input: unknown, depth: number, refs: readonly string[]): JsonSchema {
    if (input === true || input === undefined) return {};
    if (input === false) return { not: {} };
    if (!isPlainObject(input)) return {};
    const resolved = this.resolved(input, refs);
    if (resolved === undefined) return summarized(input, this.described(input, depth), 'recursive');
    const { node, refs: inside } = resolved;
    if (depth > this.maxDepth && isStructured(node))
      return summarized(node, this.described(node, depth), summary(this.merged(node, inside)));
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$defs' || key === '$ref' || key === '$schema' || key === '$id') continue;
      if (key === 'description') {
        const text = this.described(node, depth);
        if (text) out[key] = text;
      } else if (!SUBSCHEMA_KEYWORDS.has(key)) out[key] = value;
      else out[key] = this.subschemas(key, value, depth, inside);
    }
    return out;
  }

  private subschemas(key: string, value: unknown, depth: number, refs: readonly string[]): unknown {
    const level = CHILD_KEYWORDS.includes(key) || CHILD_MAP_KEYWORDS.includes(key) || CHILD_LIST_KEYWORDS.includes(key);
    const at = level ? depth + 1 : depth;
    if (typeof value === 'boolean') return value;
    if (Array.isArray(value)) return value.map((v) => this.node(v, at, refs));
    if (!isPlainObject(value)) return value;
    if (CHILD_MAP_KEYWORDS.includes(key) || SAME_MAP_KEYWORDS.includes(key))
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.node(v, at, refs)]));
    return this.node(value, at, refs);
  }

  /** The node with its `$ref` replaced by the target (its own keywords win); undefined where it recurs. */
  private resolved(
    node: Record<string, unknown>,
    refs: readonly string[],
  ): { node: Record<string, unknown>; refs: readonly string[] } | undefined {
    let current = node;
    let inside = refs;
    for (let hops = 0; typeof current['$ref'] === 'string' && hops < 16; hops++) {
      const name = defName(current['$ref']);
      const target = name === undefined ? undefined : this.defs[name];
      if (name === undefined || !isPlainObject(target)) {
        const { $ref: _ref, ...rest } = current;
        return { node: rest, refs: inside };
      }
      if (inside.includes(name)) return undefined;
      inside = [...inside, name];
      const { $ref: _ref, ...siblings } = current;
      current = { ...target, ...siblings };
    }
    return { node: current, refs: inside };
  }

  /** For a summary: the node with the properties of its `allOf` members (resolved) merged in. */
  private merged(node: Record<string, unknown>, refs: readonly string[]): JsonSchema {
    // A nullable type says its other type (the summary is of the shape; the type beside it says null).
    if (Array.isArray(node['type'])) {
      const types = (node['type'] as unknown[]).filter((t) => t !== 'null');
      node = { ...node, type: types.length === 1 ? types[0] : types };
    }
    // An array names its items' keys, not the name of their shared schema.
    if (isPlainObject(node['items'])) {
      const items = this.resolved(node['items'], refs);
      if (items) node = { ...node, items: this.merged(items.node, items.refs) };
    }
    if (!Array.isArray(node['allOf'])) return node;
    const properties: Record<string, unknown> = {};
    const required: unknown[] = [];
    for (const member of [node, ...(node['allOf'] as unknown[])]) {
      const resolved = isPlainObject(member) ? this.resolved(member, refs) : undefined;
      if (!resolved) continue;
      const { node: m } = resolved;
      if (isPlainObject(m['properties'])) Object.assign(properties, m['properties']);
      if (Array.isArray(m['required'])) required.push(...(m['required'] as unknown[]));
    }
    const { allOf: _allOf, ...rest } = node;
    return { ...rest, type: rest['type'] ?? 'object', properties, required };
  }

  /** A node's description: whole on the arguments (unless `shortArguments`), else its first sentence. */
  private described(node: Record<string, unknown>, depth: number): string | undefined {
    const text = node['description'];
    if (typeof text !== 'string' || text === '') return undefined;
    return depth <= 1 && !this.shortArguments ? text : firstSentence(text, NESTED_DESCRIPTION_CHARS);
  }
}

/** The summary of a structured value: its type, and a description naming its keys and where the rest is. */
function summarized(node: Record<string, unknown>, description: string | undefined, shape: string): JsonSchema {
  const out: JsonSchema = {};
  if (typeof node['type'] === 'string' || Array.isArray(node['type'])) out['type'] = node['type'];
  const note = `(${shape}; ${COMPACT_NOTE})`;
  out['description'] = description ? `${description} ${note}` : note;
  return out;
}

/** A value with structure to show: keys, items, alternatives or conditions. */
function isStructured(node: Record<string, unknown>): boolean {
  for (const key of SUBSCHEMA_KEYWORDS) {
    const value = node[key];
    if (value === undefined || typeof value === 'boolean') continue;
    if (isPlainObject(value) && Object.keys(value).length === 0) continue;
    return true;
  }
  return false;
}

/** The text up to its first sentence end (". " before a capital or the end), cut at a word within `max`. */
export function firstSentence(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const end = /[.!?](?=\s+[A-Z(["`]|$)/.exec(flat);
  const sentence = end ? flat.slice(0, end.index + 1) : flat;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`;
}

function defName(ref: string): string | undefined {
  return ref.startsWith('#/$defs/')
    ? decodeURIComponent(ref.slice('#/$defs/'.length)).replace(/~1/g, '/').replace(/~0/g, '~')
    : undefined;
}
