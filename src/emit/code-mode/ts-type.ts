/**
 * JSON Schema → TypeScript type text, for code mode's declarations: what a model reads to write
 * `api.*` calls. It describes, it does not validate (the server validates every call against the full
 * schema), so it favours short readable types: `$ref`s are inlined a few levels deep (a recursive one, or one
 * past the depth, is named in a comment), long enums and unions collapse to their base type, and a
 * budget on the whole text keeps one operation's declaration within a search result's means.
 */
import type { JsonSchema } from '../../ir/types.js';
import { isPlainObject } from '../../util/stable.js';
import { plainStart } from '../plain-text.js';

export interface TypeTextOptions {
  /** Shared schemas `#/$defs/<name>` refers to. */
  defs: Record<string, JsonSchema>;
  /** Nesting levels written out in full; deeper objects are `object` (with a comment naming them). */
  maxDepth: number;
  /** Property descriptions as `/** … *\/` comments. */
  docs: boolean;
  /** Indentation of the first line's content. */
  indent: string;
}

const MAX_ENUM_VALUES = 25;
/** Schema nodes written per type, and nested unions or intersections followed: past either, `unknown`. */
const NODE_BUDGET = 2_000;
const MAX_NESTING = 64;
const MAX_UNION_BRANCHES = 6;
const DOC_CHARS = 160;
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

export function typeText(schema: unknown, options: TypeTextOptions): string {
  return new TypeWriter(options).type(schema, 0, options.indent, []);
}

/** A property name as TypeScript writes it: bare when an identifier, else quoted. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** A comment's text: one plain line (no HTML or Markdown), no `*\/`, cut at a sentence or DOC_CHARS. */
export function docText(text: string, max = DOC_CHARS): string {
  const line = plainStart(text, max * 2).replace(/\*\//g, '*\\/');
  if (line.length <= max) return line;
  const sentence = line.slice(0, max).match(/^.*?[.!?](?=\s|$)/)?.[0];
  return sentence && sentence.length > max / 3 ? sentence : `${line.slice(0, max - 1).trimEnd()}…`;
}

class TypeWriter {
  private nodes = NODE_BUDGET;
  private nesting = 0;

  constructor(private readonly options: TypeTextOptions) {}

  type(raw: unknown, depth: number, indent: string, refs: readonly string[]): string {
    if (!isPlainObject(raw) || this.nodes <= 0 || this.nesting >= MAX_NESTING) return 'unknown';
    this.nodes -= 1;
    this.nesting += 1;
    try {
      return this.node(raw, depth, indent, refs);
    } finally {
      this.nesting -= 1;
    }
  }

  private node(raw: JsonSchema, depth: number, indent: string, refs: readonly string[]): string {
    const ref = typeof raw['$ref'] === 'string' ? /^#\/\$defs\/(.+)$/.exec(raw['$ref'])?.[1] : undefined;
    if (ref !== undefined) return this.refType(decodeURIComponent(ref), raw, depth, indent, refs);
    if ('const' in raw) return literal(raw['const']);
    if (Array.isArray(raw['enum'])) return this.enumType(raw['enum'], raw);
    const union = (raw['oneOf'] ?? raw['anyOf']) as unknown;
    if (Array.isArray(union) && union.length > 0 && !isPlainObject(raw['properties'])) {
      if (union.length > MAX_UNION_BRANCHES) return this.baseType(raw, depth, indent, refs);
      return unionOf(union.map((b) => this.type(b, depth, indent, refs)));
    }
    if (Array.isArray(raw['allOf']) && raw['allOf'].length > 0 && !isPlainObject(raw['properties'])) {
      const parts = raw['allOf'].map((m) => this.type(m, depth, indent, refs)).filter((t) => t !== 'unknown');
      return parts.length === 0 ? 'unknown' : parts.length === 1 ? parts[0]! : parts.map(parenthesized).join(' & ');
    }
    return this.baseType(raw, depth, indent, refs);
  }

  private refType(name: string, raw: JsonSchema, depth: number, indent: string, refs: readonly string[]): string {
    const target = this.options.defs[name];
    if (!target) return 'unknown';
    if (refs.includes(name)) return `object /* ${name}, recursive */`;
    const { $ref: _ref, ...siblings } = raw;
    const merged = Object.keys(siblings).length > 0 ? { ...target, ...siblings } : target;
    return this.type(merged, depth, indent, [...refs, name]);
  }

  private enumType(values: unknown[], raw: JsonSchema): string {
    if (values.length === 0) return 'never';
    if (values.length > MAX_ENUM_VALUES) return this.scalar(raw) ?? 'unknown';
    return unionOf(values.map(literal));
  }

  private baseType(raw: JsonSchema, depth: number, indent: string, refs: readonly string[]): string {
    const types = typeList(raw);
    if (types.length > 1) {
      return unionOf(types.map((t) => this.baseType({ ...raw, type: t }, depth, indent, refs)));
    }
    const type = types[0];
    if (type === 'array' || (type === undefined && raw['items'] !== undefined)) {
      return `${parenthesized(this.type(raw['items'] ?? {}, depth, indent, refs))}[]`;
    }
    if (type === 'object' || (type === undefined && isPlainObject(raw['properties']))) {
      return this.objectType(raw, depth, indent, refs);
    }
    return this.scalar(raw) ?? 'unknown';
  }

  private scalar(raw: JsonSchema): string | undefined {
    const type = typeList(raw)[0];
    if (type === 'integer' || type === 'number') return 'number';
    if (type === 'string' || type === 'boolean' || type === 'null') return type;
    return undefined;
  }

  private objectType(raw: JsonSchema, depth: number, indent: string, refs: readonly string[]): string {
    const properties = isPlainObject(raw['properties']) ? raw['properties'] : {};
    const names = Object.keys(properties);
    const extra = raw['additionalProperties'];
    const extraType =
      extra === false ? undefined : isPlainObject(extra) ? this.type(extra, depth + 1, indent, refs) : 'unknown';
    if (names.length === 0) return extraType === undefined ? '{}' : `Record<string, ${extraType}>`;
    if (depth >= this.options.maxDepth)
      return `object /* ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''} */`;
    const required = new Set(Array.isArray(raw['required']) ? raw['required'] : []);
    const inner = `${indent}  `;
    const lines: string[] = [];
    for (const name of names) {
      const prop = properties[name];
      const doc = this.options.docs && isPlainObject(prop) ? describe(prop, this.options.defs) : undefined;
      if (doc) lines.push(`${inner}/** ${docText(doc)} */`);
      const optional = required.has(name) ? '' : '?';
      lines.push(`${inner}${propertyKey(name)}${optional}: ${this.type(prop, depth + 1, inner, refs)};`);
    }
    if (extraType !== undefined && extra !== undefined) lines.push(`${inner}[key: string]: ${extraType};`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
}

/** A property's description, or that of the schema its `$ref` names. */
function describe(prop: JsonSchema, defs: Record<string, JsonSchema>): string | undefined {
  if (typeof prop['description'] === 'string' && prop['description'].trim()) return prop['description'];
  const ref = typeof prop['$ref'] === 'string' ? /^#\/\$defs\/(.+)$/.exec(prop['$ref'])?.[1] : undefined;
  const target = ref !== undefined ? defs[decodeURIComponent(ref)] : undefined;
  return typeof target?.['description'] === 'string' && target['description'].trim()
    ? target['description']
    : undefined;
}

function typeList(raw: JsonSchema): string[] {
  const type = raw['type'];
  if (typeof type === 'string') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

function literal(value: unknown): string {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) ? JSON.stringify(value) : 'unknown';
}

function unionOf(types: string[]): string {
  const unique = [...new Set(types)];
  if (unique.includes('unknown')) return 'unknown';
  return unique.map(parenthesized).join(' | ');
}

/** Wraps a union or intersection type that is about to be combined with another. */
function parenthesized(type: string): string {
  return isCompound(type) ? `(${type})` : type;
}

/** A `|` or `&` outside every bracket and comment. */
function isCompound(type: string): boolean {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const ch = type[i]!;
    if (ch === '/' && type[i + 1] === '*') {
      const end = type.indexOf('*/', i + 2);
      i = end < 0 ? type.length : end + 1;
    } else if (ch === '"') {
      i = type.indexOf('"', i + 1) < 0 ? type.length : skipString(type, i);
    } else if ('{(<['.includes(ch)) depth++;
    else if ('})>]'.includes(ch)) depth--;
    else if (depth === 0 && (ch === '|' || ch === '&')) return true;
  }
  return false;
}

/** The index of the quote closing the JSON string that opens at `start`. */
function skipString(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return text.length;
}
