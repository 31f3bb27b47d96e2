/**
 * OpenAPI Schema Object (Swagger 2.0, 3.0 or 3.1) → JSON Schema 2020-12, for tool inputs.
 * - Local `$ref`s become `#/$defs/<name>` entries converted once (recursion stays finite).
 * - 3.0-isms are rewritten (`nullable`, boolean exclusive bounds, `example`); vendor extensions,
 *   `discriminator`, `xml` and other annotations that cost tokens without helping a caller are dropped.
 * - `readOnly` properties are left out: a caller never sends them.
 */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { JsonSchema, SpecDialect } from '../ir/types.js';
import { joinPointer, parseLocalRef, resolvePointer } from '../util/json-pointer.js';
import { jsonFitsIn } from '../util/json-size.js';
import { isPlainObject } from '../util/stable.js';
import { isEmptySchema, mergeAllOf } from './composition.js';
import { DefNames, defRef } from './refs.js';
import { applyNullable, convertType, copyScalarKeywords, droppedPatternReason } from './scalar.js';

/** Descriptions of parameters and bodies are cut here: tool lists are read by models with finite context. */
export const MAX_SCHEMA_DESCRIPTION = 600;
/**
 * Descriptions of properties inside schemas keep their first sentence, at most this long. Shared schemas are
 * repeated in every tool that uses them (clients need self-contained schemas), and in large APIs their prose
 * is most of the tool list (three quarters of Kubernetes's).
 */
export const MAX_NESTED_DESCRIPTION = 200;
const MAX_EXAMPLE_JSON = 200;
/**
 * Schemas nested (through properties, items, combinators and refs) deeper than this are free-form below: no
 * real API nests a tool input this deep, and a hostile one must not overflow the stack (each level is a few
 * frames here and in every later stage that walks the schema).
 */
export const MAX_CONVERSION_DEPTH = 64;
/** Schema objects one conversion may meet again through YAML aliases before the rest is free-form. */
export const MAX_ALIAS_REPEATS = 10_000;

export class SchemaConverter {
  readonly defs: Record<string, JsonSchema> = {};
  private readonly names = new DefNames();
  private readonly reportedRefs = new Set<string>();
  /** Nesting depth of the conversion under way, refs followed included (a chain of refs nests too). */
  private depth = 0;
  /** The conversion under way (from depth 0): the objects being converted, those converted, repeats (see aliasing). */
  private converting: { chain: Set<object>; seen: WeakSet<object>; repeats: number } = {
    chain: new Set(),
    seen: new WeakSet(),
    repeats: 0,
  };

  constructor(
    private readonly document: Record<string, unknown>,
    private readonly diags: Diagnostics,
    private readonly dialect: SpecDialect,
  ) {}

  /** Converts the schema at `pointer` (used in diagnostics) for use as tool input. */
  convert(schema: unknown, pointer: string): JsonSchema {
    if (schema === true || schema === undefined) return {};
    if (schema === false) return { not: {} };
    if (!isPlainObject(schema)) return {};
    if (this.depth >= MAX_CONVERSION_DEPTH) return this.tooDeep(pointer);
    if (this.depth === 0) this.converting = { chain: new Set(), seen: new WeakSet(), repeats: 0 };
    const aliased = this.aliasing(schema, pointer);
    if (aliased) return aliased;
    this.depth++;
    this.converting.chain.add(schema);
    try {
      return '$ref' in schema ? this.convertRef(schema, pointer) : this.convertObject(schema, pointer);
    } finally {
      this.converting.chain.delete(schema);
      this.depth--;
    }
  }

  /**
   * A parsed JSON document is a tree: within one conversion no schema object comes twice. YAML aliases share
   * objects, and can nest them inside themselves (a cycle) or double them at each level (a few lines that
   * expand to billions of nodes): a cycle, or more than MAX_ALIAS_REPEATS repeats, is free-form from there.
   */
  private aliasing(schema: Record<string, unknown>, pointer: string): JsonSchema | undefined {
    const { chain, seen } = this.converting;
    if (chain.has(schema)) {
      this.diags.info(
        'OTM_SCHEMA_SIMPLIFIED',
        pointer,
        'the schema contains itself (a YAML alias inside its own anchor); it is accepted free-form here',
      );
      return { description: 'Free-form value (the spec nests this schema inside itself)' };
    }
    if (!seen.has(schema)) {
      seen.add(schema);
      return undefined;
    }
    if (++this.converting.repeats <= MAX_ALIAS_REPEATS) return undefined;
    if (this.converting.repeats === MAX_ALIAS_REPEATS + 1)
      this.diags.info(
        'OTM_SCHEMA_SIMPLIFIED',
        pointer,
        `YAML aliases repeat schemas here more than ${MAX_ALIAS_REPEATS} times; further repeats are accepted free-form`,
      );
    return { description: 'Free-form value (the spec repeats this schema through YAML aliases too often)' };
  }

  private tooDeep(pointer: string): JsonSchema {
    this.diags.info(
      'OTM_SCHEMA_SIMPLIFIED',
      pointer,
      `the schema is nested more than ${MAX_CONVERSION_DEPTH} levels deep here; deeper values are accepted free-form`,
    );
    return {
      description: `Free-form value (the spec nests its schema more than ${MAX_CONVERSION_DEPTH} levels deep here)`,
    };
  }

  /**
   * Follows a top-level `$ref` (and `allOf` merges) so that callers can see an object's properties, e.g. to
   * map multipart file fields. Returns the raw OpenAPI schema, not a converted one.
   */
  resolveRaw(schema: unknown, depth = 0): Record<string, unknown> | undefined {
    if (!isPlainObject(schema) || depth > 20) return undefined;
    const ref = schema['$ref'];
    if (typeof ref !== 'string') return schema;
    const tokens = parseLocalRef(ref);
    return tokens ? this.resolveRaw(resolvePointer(this.document, tokens), depth + 1) : undefined;
  }

  private convertRef(schema: Record<string, unknown>, pointer: string): JsonSchema {
    const ref = schema['$ref'];
    const tokens = typeof ref === 'string' ? parseLocalRef(ref) : undefined;
    const target = tokens ? resolvePointer(this.document, tokens) : undefined;
    if (typeof ref !== 'string' || target === undefined) {
      this.reportUnresolved(String(ref), pointer);
      return { description: `Free-form value (the spec's reference ${String(ref)} could not be resolved)` };
    }
    const { name, isNew } = this.names.nameFor(ref);
    if (isNew) {
      this.defs[name] = {}; // placeholder first: a recursive ref to itself finds the name already taken
      this.defs[name] = this.convert(target, ref);
    }
    return this.withRefSiblings(defRef(name), schema, pointer);
  }

  /**
   * OpenAPI 3.0 and Swagger 2.0 ignore the siblings of a `$ref` (`{ $ref: Id, type: string }` is an Id); only a
   * description is kept, which changes nothing a call sends. OpenAPI 3.1 schemas are JSON Schema 2020-12, where
   * siblings apply next to the reference, so they are converted and kept.
   */
  private withRefSiblings(ref: JsonSchema, schema: Record<string, unknown>, pointer: string): JsonSchema {
    const { $ref: _ref, nullable, ...siblings } = schema;
    if (this.dialect !== 'openapi-3.1') {
      const description = siblings['description'];
      if (typeof description === 'string' && description.trim()) ref['description'] = firstSentence(description);
      return ref;
    }
    const result = { ...ref, ...this.convertObject(siblings, pointer) };
    return nullable === true ? applyNullable(result) : result;
  }

  private convertObject(source: Record<string, unknown>, pointer: string): JsonSchema {
    const target: JsonSchema = {};
    const type = convertType(source['type']);
    if (type !== undefined) target['type'] = type;
    copyScalarKeywords(source, target);
    if (typeof source['pattern'] === 'string' && target['pattern'] === undefined) {
      this.diags.info(
        'OTM_SCHEMA_SIMPLIFIED',
        pointer,
        `pattern ${JSON.stringify(source['pattern'])} ${droppedPatternReason(source['pattern'])}; it is left out`,
      );
    }
    this.copyDescription(source, target);
    this.copyExample(source, target);
    this.convertStructure(source, target, pointer);
    const combined = this.convertComposition(source, target, pointer);
    if (type === 'array' && combined['items'] === undefined && combined['prefixItems'] === undefined)
      combined['items'] = {};
    const nullable = source['nullable'] === true || source['x-nullable'] === true;
    return nullable ? applyNullable(combined) : combined;
  }

  private copyDescription(source: Record<string, unknown>, target: JsonSchema): void {
    const text = [source['description'], source['title']].find(
      (t): t is string => typeof t === 'string' && t.trim() !== '',
    );
    if (text) target['description'] = firstSentence(text);
  }

  private copyExample(source: Record<string, unknown>, target: JsonSchema): void {
    const examples = Array.isArray(source['examples'])
      ? source['examples']
      : source['example'] !== undefined
        ? [source['example']]
        : [];
    const small = examples.filter((e) => e !== null && jsonFitsIn(e, MAX_EXAMPLE_JSON)).slice(0, 2);
    if (small.length > 0) target['examples'] = small;
  }

  private convertStructure(source: Record<string, unknown>, target: JsonSchema, pointer: string): void {
    const properties = source['properties'];
    const declaredRequired = Array.isArray(source['required'])
      ? source['required'].filter((r): r is string => typeof r === 'string')
      : [];
    if (isPlainObject(properties) || declaredRequired.length > 0) {
      const converted: Record<string, JsonSchema> = {};
      const readOnly = new Set<string>();
      for (const [name, propSchema] of Object.entries(isPlainObject(properties) ? properties : {})) {
        if (this.isReadOnly(propSchema)) readOnly.add(name);
        else converted[name] = this.convert(propSchema, joinPointer(pointer, 'properties', name));
      }
      const required = declaredRequired.filter((r) => !readOnly.has(r));
      // A required name with no property here is either described by an allOf member, or not at all (a common
      // spec slip). Either way the API requires it: declare it free-form here (the members still constrain
      // it), rather than drop the requirement.
      for (const name of required) {
        if (!(name in converted))
          converted[name] = hasComposition(source)
            ? {}
            : { description: 'Required by the API (not described by the spec).' };
      }
      if (Object.keys(converted).length > 0 || isPlainObject(properties)) target['properties'] = converted;
      if (required.length > 0) target['required'] = required;
    }
    const additional = source['additionalProperties'];
    if (typeof additional === 'boolean') target['additionalProperties'] = additional;
    else if (isPlainObject(additional))
      target['additionalProperties'] = this.convert(additional, joinPointer(pointer, 'additionalProperties'));
    if (isPlainObject(source['patternProperties'])) {
      const converted: Record<string, JsonSchema> = {};
      for (const [pattern, s] of Object.entries(source['patternProperties'])) {
        converted[pattern] = this.convert(s, joinPointer(pointer, 'patternProperties', pattern));
      }
      target['patternProperties'] = converted;
    }
    const items = source['items'];
    if (Array.isArray(items))
      target['prefixItems'] = items.map((s, i) => this.convert(s, joinPointer(pointer, 'items', i)));
    else if (items !== undefined) target['items'] = this.convert(items, joinPointer(pointer, 'items'));
    if (Array.isArray(source['prefixItems'])) {
      target['prefixItems'] = source['prefixItems'].map((s, i) =>
        this.convert(s, joinPointer(pointer, 'prefixItems', i)),
      );
    }
  }

  private convertComposition(source: Record<string, unknown>, target: JsonSchema, pointer: string): JsonSchema {
    for (const keyword of ['oneOf', 'anyOf'] as const) {
      const members = source[keyword];
      if (Array.isArray(members) && members.length > 0) {
        target[keyword] = members.map((m, i) => this.convert(m, joinPointer(pointer, keyword, i)));
      }
    }
    if (source['not'] !== undefined) target['not'] = this.convert(source['not'], joinPointer(pointer, 'not'));
    const allOf = source['allOf'];
    if (!Array.isArray(allOf) || allOf.length === 0) return target;
    const members = allOf
      .map((m, i) => this.convert(m, joinPointer(pointer, 'allOf', i)))
      .filter((m) => !isEmptySchema(m));
    const merged = mergeAllOf(isEmptySchema(withoutDescription(target)) ? members : [...members, target]);
    if (merged && isEmptySchema(withoutDescription(target))) {
      if (target['description'] !== undefined) merged['description'] = target['description'];
      return merged;
    }
    if (merged) return merged;
    if (members.length > 0) target['allOf'] = members;
    return target;
  }

  private isReadOnly(schema: unknown): boolean {
    const resolved = this.resolveRaw(schema);
    return resolved?.['readOnly'] === true || (isPlainObject(schema) && schema['readOnly'] === true);
  }

  private reportUnresolved(ref: string, pointer: string): void {
    if (this.reportedRefs.has(ref)) return;
    this.reportedRefs.add(ref);
    this.diags.warn('OTM_UNRESOLVED_REF', pointer, `$ref ${ref} does not resolve inside the document`);
  }
}

function hasComposition(schema: Record<string, unknown>): boolean {
  return ['allOf', 'oneOf', 'anyOf'].some((k) => Array.isArray(schema[k]));
}

function withoutDescription(schema: JsonSchema): JsonSchema {
  const { description: _ignored, ...rest } = schema;
  return rest;
}

export function trimDescription(text: string, max = MAX_SCHEMA_DESCRIPTION): string {
  const clean = plainPunctuation(text)
    .trim()
    .replace(/\r\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const sentenceEnd = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('.\n'));
  return `${sentenceEnd > max / 2 ? cut.slice(0, sentenceEnd + 1) : cut.trimEnd()}...`;
}

/**
 * Typographic punctuation (curly quotes, dashes, ellipses, odd spaces) as its ASCII twin: the same text for a
 * model, and tool lists in Latin-script languages then serialize as one-byte strings, which the server
 * stringifies and encodes about a third faster than two-byte ones (a single such character makes the whole
 * tools/list answer two-byte).
 */
export function plainPunctuation(text: string): string {
  return text.replace(TYPOGRAPHIC, (ch) => ASCII_TWIN[ch] ?? ch);
}

const ASCII_TWIN: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '--',
  '\u2015': '--',
  '\u2212': '-',
  '\u2026': '...',
  '\u2022': '*',
  '\u00a0': ' ',
  '\u2002': ' ',
  '\u2003': ' ',
  '\u2009': ' ',
  '\u202f': ' ',
  '\u200b': '',
  '\ufeff': '',
};
const TYPOGRAPHIC = new RegExp(`[${Object.keys(ASCII_TWIN).join('')}]`, 'g');

/** The first sentence of a description (or its start, cut at a word), for properties inside schemas. */
export function firstSentence(text: string, max = MAX_NESTED_DESCRIPTION): string {
  const clean = plainPunctuation(text).trim().replace(/\s+/g, ' ');
  const end = sentenceEnd(clean);
  const sentence = end >= 0 ? clean.slice(0, end + 1) : clean;
  if (sentence.length <= max) return sentence;
  const cut = sentence.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[,;:]$/, '')}...`;
}

/** Index of the period ending the first sentence: one followed by the end, or by a space and a capital letter. */
function sentenceEnd(text: string): number {
  const pattern = /[.!?](?=$|\s+[A-Z`"'([])/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    const before = text.slice(Math.max(0, match.index - 4), match.index + 1).toLowerCase();
    if (!/(\be\.g\.|\bi\.e\.|\betc\.|\bvs\.)$/.test(before)) return match.index;
  }
  return -1;
}
