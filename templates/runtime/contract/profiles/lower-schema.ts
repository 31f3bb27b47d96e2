/**
 * Lowering: a tool's inputSchema rewritten into the subset of JSON Schema one host accepts (the rules of each
 * host are in profiles.ts). Pure and deterministic: the same schema and rules give the same bytes.
 *
 * Lowering changes only what the model sees. The server still validates every call against the full schema,
 * so whatever a rule takes out of a node (a union's other branches, a bound, a format, a recursive `$ref`) is
 * written into that node's `description`, where the model can still read it. Two rules change the shape of
 * the arguments themselves (OpenAI strict mode): an optional property becomes required and nullable, and a
 * free-form value becomes a string of JSON text. Both are recorded as paths (`decoding`), and the call path
 * undoes them (decode-arguments.ts) before validating.
 */
import type { JsonSchema } from '../catalog.js';
import { isPlainObject } from '../plain-object.js';

/** The rules, by the name the generation report and the README use. */
export type RuleId =
  | 'inline-refs'
  | 'merge-unions'
  | 'merge-root-unions'
  | 'single-types'
  | 'typed-nodes'
  | 'string-enums'
  | 'const-as-enum'
  | 'keyword-subset'
  | 'format-subset'
  | 'object-properties'
  | 'array-items'
  | 'drop-additional-properties'
  | 'strict-objects'
  | 'free-form-as-json-text'
  | 'max-depth';

export interface LoweringRules {
  /** `$ref`s are replaced by their target; a recursive one is inlined RECURSION_COPIES times, then free-form. */
  inlineRefs: boolean;
  /** `keep`; `root`: no combinator at the root; `all`: none anywhere (branches merged into one schema). */
  unions: 'keep' | 'root' | 'all';
  /** `keep`; `single`: one type per node, null said in words; `nullable-keyword`: OpenAPI 3.0's `nullable: true`. */
  typeArrays: 'keep' | 'single' | 'nullable-keyword';
  /** Every node has a `type` (inferred, or `object` for a free-form value). */
  typedNodes: boolean;
  /** `enum` only on strings; other enums are described instead. */
  stringEnums: boolean;
  /** `const` becomes a one-value `enum`. */
  constAsEnum: boolean;
  /** Keywords kept; any other is described (undefined: all kept but `droppedKeywords`). */
  keywords?: ReadonlySet<string>;
  droppedKeywords?: ReadonlySet<string>;
  /** Formats kept (undefined: all). */
  formats?: ReadonlySet<string>;
  /** Every object has `properties`, every array `items`. */
  objectProperties: boolean;
  arrayItems: boolean;
  /** `additionalProperties` is removed (described when it allowed more keys). */
  dropAdditionalProperties: boolean;
  /**
   * OpenAI strict mode: every object lists its properties, all required, `additionalProperties: false`;
   * optional ones are nullable (null = absent); free-form values and objects without properties are JSON text.
   */
  strictObjects: boolean;
  /** Nesting depth (objects and arrays) beyond which a value is free-form. */
  maxDepth?: number;
}

/** Where the arguments a model sends differ in shape from the full schema's (see decode-arguments.ts). */
export interface ArgumentDecoding {
  /** Properties that were optional: null there means "left out". Path segments; `*` is any array item. */
  absentWhenNull: string[][];
  /** Values the model sends as a string of JSON text. */
  jsonText: string[][];
}

export interface LoweredSchema {
  schema: JsonSchema;
  /** The rules that changed something, in a fixed order. */
  fired: RuleId[];
  decoding: ArgumentDecoding;
}

/** A recursive `$ref` is inlined this many times inside itself; the next occurrence is free-form. */
export const RECURSION_COPIES = 1;
/** Inlining stops this deep (nested objects and arrays): past it a value is free-form, whatever the profile. */
const MAX_INLINE_DEPTH = 12;
const NOTE_VALUE_CHARS = 120;

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Formats a pattern can stand for (a date pattern lets 02-30 through: the full schema still refuses it, by name). */
const FORMAT_PATTERNS: Readonly<Record<string, string>> = {
  uuid: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
  date: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$',
};
/** Keywords holding one subschema, or a map or list of them, that are not handled one by one below. */
const SUBSCHEMA_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
];
const SUBSCHEMA_MAP_KEYWORDS = ['patternProperties', 'dependentSchemas'];
/** Keywords lowering reads and writes itself; the keyword subset never drops them. */
const STRUCTURAL = new Set([
  'type',
  'properties',
  'required',
  'items',
  'description',
  'additionalProperties',
  'enum',
  '$ref',
  '$defs',
  'anyOf',
  'oneOf',
  'allOf',
  'const',
  'nullable',
]);

export function lowerSchema(schema: JsonSchema, rules: LoweringRules): LoweredSchema {
  const run = new Lowering(rules, (schema['$defs'] as Record<string, JsonSchema> | undefined) ?? {});
  const root = run.node(schema, { path: [], depth: 0, refs: [], root: true });
  if (rules.inlineRefs) delete root['$defs'];
  else if (schema['$defs']) {
    root['$defs'] = Object.fromEntries(
      Object.entries(schema['$defs'] as Record<string, JsonSchema>).map(([name, def]) => [
        name,
        run.node(def, { path: [], depth: 1, refs: [name], root: false, inDefs: true }),
      ]),
    );
  }
  root['type'] = 'object';
  return { schema: root, fired: RULE_ORDER.filter((r) => run.fired.has(r)), decoding: run.decoding };
}

/** The order rules are reported in (roughly the order lowering applies them). */
export const RULE_ORDER: readonly RuleId[] = [
  'inline-refs',
  'merge-unions',
  'merge-root-unions',
  'single-types',
  'typed-nodes',
  'string-enums',
  'const-as-enum',
  'keyword-subset',
  'format-subset',
  'object-properties',
  'array-items',
  'drop-additional-properties',
  'strict-objects',
  'free-form-as-json-text',
  'max-depth',
];

interface At {
  path: string[];
  depth: number;
  /** `$defs` names being inlined around this node (recursion detection). */
  refs: string[];
  root: boolean;
  /** Inside a `$defs` entry kept as such: paths there mean nothing to the arguments. */
  inDefs?: boolean;
}

class Lowering {
  readonly fired = new Set<RuleId>();
  readonly decoding: ArgumentDecoding = { absentWhenNull: [], jsonText: [] };

  constructor(
    private readonly rules: LoweringRules,
    private readonly defs: Record<string, JsonSchema>,
  ) {}

  node(input: unknown, at: At): JsonSchema {
    const notes: string[] = [];
    let node = this.resolved(asSchema(input), at, notes);
    if (node === undefined) return this.freeForm(at, notes);
    node = this.withoutUnions(node, at, notes);
    // The root is level 1: a structured node at depth d is on level d + 1.
    const depthCap = Math.min(this.rules.maxDepth ?? Infinity, this.rules.inlineRefs ? MAX_INLINE_DEPTH : Infinity);
    if (at.depth >= depthCap && isStructured(node)) {
      this.fired.add(
        this.rules.maxDepth !== undefined && at.depth >= this.rules.maxDepth ? 'max-depth' : 'inline-refs',
      );
      notes.push(`nested too deep to show: ${summary(node)}`);
      return this.freeForm(at, notes, node['description'], node);
    }
    const out: JsonSchema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === 'description') continue;
      if (this.dropsKeyword(key)) {
        if (key !== '$schema' && key !== '$comment' && key !== '$id') notes.push(describeKeyword(key, value));
        this.fired.add('keyword-subset');
        continue;
      }
      out[key] = value;
    }
    this.types(out, notes);
    this.constAndEnum(out, notes);
    this.format(out, notes);
    this.children(out, at, notes);
    if (this.rules.typedNodes && out['type'] === undefined) {
      out['type'] = inferredType(out);
      this.fired.add('typed-nodes');
      if (out['type'] === 'object' && out['properties'] === undefined) notes.push('any JSON value');
    }
    if (this.rules.objectProperties && hasType(out, 'object') && out['properties'] === undefined) {
      out['properties'] = {};
      this.fired.add('object-properties');
    }
    if (this.rules.strictObjects && !at.root && isFreeFormObject(out))
      return this.freeForm(at, notes, node['description'], out);
    if (this.rules.strictObjects && hasType(out, 'object')) this.strictObject(out, node, at);
    return withNotes(out, node['description'], notes);
  }

  /** The node with its `$ref` replaced by the target (siblings win), or undefined when it must be free-form. */
  private resolved(node: JsonSchema, at: At, notes: string[]): JsonSchema | undefined {
    if (typeof node['$ref'] !== 'string' || !this.rules.inlineRefs) return node;
    this.fired.add('inline-refs');
    return this.inlined(node, at, notes);
  }

  /** A `$ref`'s target with the referring node's other keywords over it; undefined for an unknown or too deep a recursive one. */
  private inlined(node: JsonSchema, at: At, notes: string[]): JsonSchema | undefined {
    const ref = node['$ref'] as string;
    const name = defName(ref);
    const target = name === undefined ? undefined : this.defs[name];
    if (name === undefined || target === undefined) {
      notes.push(`schema ${ref} not shown`);
      return undefined;
    }
    if (at.refs.filter((r) => r === name).length > RECURSION_COPIES) {
      notes.push(`recursive: the same shape as the enclosing ${name}`);
      return undefined;
    }
    at.refs = [...at.refs, name];
    const merged = { ...asSchema(target), ...omit(node, ['$ref']) };
    // A target that is itself a $ref (an alias) resolves in turn.
    return typeof merged['$ref'] === 'string' ? this.inlined(merged, at, notes) : merged;
  }

  private withoutUnions(node: JsonSchema, at: At, notes: string[]): JsonSchema {
    const merging = this.rules.unions === 'all' || (this.rules.unions === 'root' && at.root);
    if (!merging || !COMBINATORS.some((k) => Array.isArray(node[k]))) return node;
    this.fired.add(this.rules.unions === 'all' ? 'merge-unions' : 'merge-root-unions');
    let merged: JsonSchema = omit(node, COMBINATORS);
    const branchesOf = (key: string) => (node[key] as unknown[]).map((b) => this.resolvedBranch(b, at, notes));
    if (Array.isArray(node['allOf']))
      merged = branchesOf('allOf').reduce((acc, branch) => mergeAll(acc, branch), merged);
    for (const key of ['anyOf', 'oneOf'] as const) {
      if (Array.isArray(node[key])) merged = mergeAll(merged, this.mergedAlternatives(branchesOf(key), notes));
    }
    // A merged branch can bring combinators of its own: they are merged in turn.
    return this.withoutUnions(merged, at, notes);
  }

  /** A union branch to merge: its `$ref` is followed whatever the profile (merging needs the branch's keywords). */
  private resolvedBranch(branch: unknown, at: At, notes: string[]): JsonSchema {
    const schema = asSchema(branch);
    return typeof schema['$ref'] === 'string' ? (this.inlined(schema, at, notes) ?? {}) : schema;
  }

  /** One schema standing for alternatives: objects merge (only what all require stays required), else the first. */
  private mergedAlternatives(branches: JsonSchema[], notes: string[]): JsonSchema {
    const nonNull = branches.filter((b) => !isNullSchema(b));
    if (nonNull.length < branches.length) notes.push('may be null');
    if (nonNull.length === 0) return {};
    if (nonNull.length === 1) return nonNull[0]!;
    const shapes = nonNull.map(summary);
    if (nonNull.every(isObjectLike)) {
      notes.push(`one of these shapes (* required): ${shapes.join(' | ')}`);
      const required = nonNull
        .map((b) => asStrings(b['required']))
        .reduce((acc, r) => acc.filter((name) => r.includes(name)));
      const byName = new Map<string, JsonSchema[]>();
      for (const b of nonNull)
        for (const [k, v] of Object.entries(asSchema(b['properties'])))
          byName.set(k, [...(byName.get(k) ?? []), asSchema(v)]);
      const properties = Object.fromEntries([...byName].map(([k, schemas]) => [k, this.mergedProperty(schemas)]));
      return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
    }
    const values = nonNull.map(allowedValues);
    const types = new Set(nonNull.map((b) => b['type'] ?? (values[0] ? jsonType(values[0][0]) : undefined)));
    if (types.size === 1 && values.every((v) => v !== undefined)) {
      const type = [...types][0];
      return { ...(typeof type === 'string' ? { type } : {}), enum: [...new Set(values.flat())] };
    }
    notes.push(`also accepts: ${shapes.slice(1).join(' | ')}`);
    return nonNull[0]!;
  }

  /** One property that several merged branches declare: the same schema, or their alternatives merged. */
  private mergedProperty(schemas: JsonSchema[]): JsonSchema {
    const first = JSON.stringify(schemas[0]);
    if (schemas.every((s) => JSON.stringify(s) === first)) return schemas[0]!;
    const notes: string[] = [];
    const merged = this.mergedAlternatives(schemas, notes);
    return notes.length > 0
      ? { ...merged, description: joinNotes(merged['description'] as string | undefined, notes) }
      : merged;
  }

  private dropsKeyword(key: string): boolean {
    if (STRUCTURAL.has(key))
      return (
        key === 'const' &&
        this.rules.keywords !== undefined &&
        !this.rules.keywords.has('const') &&
        !this.rules.constAsEnum
      );
    if (this.rules.keywords) return !this.rules.keywords.has(key);
    return this.rules.droppedKeywords?.has(key) ?? false;
  }

  private types(out: JsonSchema, notes: string[]): void {
    const type = out['type'];
    if (out['nullable'] === true && this.rules.typeArrays !== 'nullable-keyword') {
      // OpenAPI 3.0's keyword, left in a schema by hand: the same as a null in the type.
      delete out['nullable'];
      if (typeof type === 'string') out['type'] = [type, 'null'];
    }
    // A host that states null only as `nullable` has no null type either (Vercel's `{type: "null"}`).
    if (type === 'null' && this.rules.typeArrays === 'nullable-keyword') out['type'] = ['null'];
    if (!Array.isArray(out['type']) || this.rules.typeArrays === 'keep') return;
    const all = out['type'] as unknown[];
    const nonNull = all.filter((t) => t !== 'null');
    if (this.rules.strictObjects) {
      // Strict mode takes `[type, "null"]`; more than one other type is cut down to the first.
      if (nonNull.length <= 1) return;
      this.fired.add('single-types');
      notes.push(`also accepts: ${nonNull.slice(1).join(' | ')}`);
      out['type'] = all.includes('null') ? [nonNull[0], 'null'] : nonNull[0];
      return;
    }
    this.fired.add('single-types');
    if (nonNull.length === 0) {
      delete out['type'];
      // Such a host needs a type beside `nullable`: the one that claims least, as the note says what is sent.
      if (this.rules.typeArrays === 'nullable-keyword') Object.assign(out, { type: 'object', nullable: true });
      notes.push('must be null');
      return;
    }
    out['type'] = nonNull[0];
    if (nonNull.length > 1) notes.push(`also accepts: ${nonNull.slice(1).join(' | ')}`);
    if (nonNull.length < all.length) {
      if (this.rules.typeArrays === 'nullable-keyword') out['nullable'] = true;
      else notes.push('may be null');
    }
  }

  private constAndEnum(out: JsonSchema, notes: string[]): void {
    if ('const' in out && this.rules.constAsEnum) {
      out['enum'] = [out['const']];
      delete out['const'];
      this.fired.add('const-as-enum');
    }
    const values = out['enum'];
    if (!Array.isArray(values) || !this.rules.stringEnums) return;
    const nonNull = values.filter((v) => v !== null);
    if (nonNull.length < values.length) {
      if (this.rules.typeArrays === 'nullable-keyword') out['nullable'] = true;
      else notes.push('may be null');
    }
    if (
      nonNull.length > 0 &&
      nonNull.every((v) => typeof v === 'string') &&
      (out['type'] === undefined || out['type'] === 'string')
    ) {
      out['enum'] = nonNull;
      out['type'] = 'string';
      if (nonNull.length < values.length) this.fired.add('string-enums');
      return;
    }
    this.fired.add('string-enums');
    delete out['enum'];
    notes.push(nonNull.length === 1 ? `must be ${compact(nonNull[0])}` : `one of: ${nonNull.map(compact).join(', ')}`);
    if (out['type'] === undefined && nonNull.length > 0) out['type'] = jsonType(nonNull[0]);
  }

  /** A format the host does not take is said in words, and where a pattern says the same, kept as that pattern. */
  private format(out: JsonSchema, notes: string[]): void {
    const format = out['format'];
    if (typeof format !== 'string' || !this.rules.formats || this.rules.formats.has(format)) return;
    delete out['format'];
    notes.push(`format: ${format}`);
    this.fired.add('format-subset');
    const pattern = FORMAT_PATTERNS[format];
    if (pattern && out['pattern'] === undefined && !this.dropsKeyword('pattern')) out['pattern'] = pattern;
  }

  private children(out: JsonSchema, at: At, notes: string[]): void {
    const below = (segment: string): At => ({
      path: [...at.path, segment],
      depth: at.depth + 1,
      refs: at.refs,
      root: false,
      ...(at.inDefs ? { inDefs: true } : {}),
    });
    if (out['properties'] !== undefined) {
      out['properties'] = Object.fromEntries(
        Object.entries(asSchema(out['properties'])).map(([k, v]) => [k, this.node(v, below(k))]),
      );
    }
    if (Array.isArray(out['items'])) {
      // A tuple (draft 2019 `items: [...]`): the model sees its first item's shape.
      notes.push(`a tuple: ${(out['items'] as unknown[]).map((i) => summary(asSchema(i))).join(', ')}`);
      out['items'] = (out['items'] as unknown[])[0] ?? {};
    }
    if (out['items'] !== undefined) out['items'] = this.node(out['items'], below('*'));
    else if (this.rules.arrayItems && hasType(out, 'array')) {
      out['items'] = this.node({}, below('*'));
      this.fired.add('array-items');
    }
    const additional = out['additionalProperties'];
    if (additional !== undefined && this.rules.dropAdditionalProperties) {
      delete out['additionalProperties'];
      this.fired.add('drop-additional-properties');
      if (additional === true || (typeof additional === 'object' && additional !== null)) {
        notes.push(
          additional === true || Object.keys(additional).length === 0
            ? 'other keys allowed'
            : `other keys allowed, each ${summary(asSchema(additional))}`,
        );
      }
    } else if (typeof additional === 'object' && additional !== null) {
      out['additionalProperties'] = this.node(additional, below('*'));
    }
    for (const key of SUBSCHEMA_KEYWORDS) if (isPlainObject(out[key])) out[key] = this.node(out[key], below(key));
    for (const key of SUBSCHEMA_MAP_KEYWORDS) {
      if (isPlainObject(out[key]))
        out[key] = Object.fromEntries(
          Object.entries(asSchema(out[key])).map(([k, v]) => [k, this.node(v, below(key))]),
        );
    }
    for (const key of ['prefixItems', ...COMBINATORS]) {
      if (Array.isArray(out[key]))
        out[key] = (out[key] as unknown[]).map((b) => this.node(b, { ...below(key), path: at.path, depth: at.depth }));
    }
  }

  /** Strict mode: every property required; the optional ones nullable, and null for them means "absent". */
  private strictObject(out: JsonSchema, original: JsonSchema, at: At): void {
    this.fired.add('strict-objects');
    const properties = asSchema(out['properties']);
    const required = new Set(asStrings(out['required']));
    for (const [name, property] of Object.entries(properties)) {
      if (required.has(name)) continue;
      properties[name] = nullable(asSchema(property));
      if (!at.inDefs) this.decoding.absentWhenNull.push([...at.path, name]);
    }
    out['required'] = Object.keys(properties);
    if (original['additionalProperties'] !== undefined && original['additionalProperties'] !== false) {
      out['description'] = joinNotes(out['description'] as string | undefined, ['other keys cannot be sent']);
    }
    out['additionalProperties'] = false;
  }

  /**
   * A value the profile cannot show the structure of. Strict mode has no free-form value at all: it is sent
   * as JSON text and decoded by the server; elsewhere it is an untyped (or `object`-typed) schema.
   */
  private freeForm(at: At, notes: string[], description?: unknown, shape?: JsonSchema): JsonSchema {
    if (this.rules.strictObjects) {
      this.fired.add('free-form-as-json-text');
      if (!at.inDefs) this.decoding.jsonText.push(at.path);
      const what = shape && hasType(shape, 'object') ? 'a JSON object' : 'a JSON value';
      return withNotes({ type: 'string' }, description, [
        `${what}, written as JSON text`,
        ...(shape ? freeFormHints(shape) : []),
        ...notes,
      ]);
    }
    const typed: JsonSchema = this.rules.typedNodes
      ? { type: 'object', ...(this.rules.objectProperties ? { properties: {} } : {}) }
      : {};
    return withNotes(typed, description, notes);
  }
}

function hasType(node: JsonSchema, type: string): boolean {
  const declared = node['type'];
  return declared === type || (Array.isArray(declared) && declared.includes(type));
}

function freeFormHints(shape: JsonSchema): string[] {
  const additional = shape['additionalProperties'];
  return isPlainObject(additional) && Object.keys(additional).length > 0 ? [`each value ${summary(additional)}`] : [];
}

function nullable(schema: JsonSchema): JsonSchema {
  const type = schema['type'];
  const out = { ...schema };
  if (typeof type === 'string') out['type'] = type === 'null' ? type : [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) out['type'] = [...type, 'null'];
  if (Array.isArray(out['enum']) && !(out['enum'] as unknown[]).includes(null))
    out['enum'] = [...(out['enum'] as unknown[]), null];
  if ('const' in out) {
    out['enum'] = [out['const'], null];
    delete out['const'];
  }
  return out;
}

function isStructured(node: JsonSchema): boolean {
  return (
    hasType(node, 'object') || hasType(node, 'array') || node['properties'] !== undefined || node['items'] !== undefined
  );
}

function isFreeFormObject(node: JsonSchema): boolean {
  const noProperties = node['properties'] === undefined || Object.keys(asSchema(node['properties'])).length === 0;
  return (
    (node['type'] === undefined &&
      node['enum'] === undefined &&
      node['const'] === undefined &&
      node['properties'] === undefined &&
      node['items'] === undefined) ||
    (hasType(node, 'object') && noProperties && node['additionalProperties'] !== false)
  );
}

function isObjectLike(node: JsonSchema): boolean {
  return node['type'] === 'object' || (node['type'] === undefined && node['properties'] !== undefined);
}

function isNullSchema(node: JsonSchema): boolean {
  return (
    node['type'] === 'null' || (Array.isArray(node['enum']) && node['enum'].length === 1 && node['enum'][0] === null)
  );
}

/** allOf merging: properties and required add up, the first value of any other keyword stays. */
function mergeAll(into: JsonSchema, branch: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...into };
  for (const [key, value] of Object.entries(branch)) {
    if (key === 'properties') out['properties'] = { ...asSchema(value), ...asSchema(out['properties']) };
    else if (key === 'required') out['required'] = [...new Set([...asStrings(out['required']), ...asStrings(value)])];
    else if (key === 'description') out['description'] = out['description'] ?? value;
    else if (!(key in out)) out[key] = value;
  }
  return out;
}

/** The values a `const` or `enum` allows; undefined for any other schema. */
function allowedValues(node: JsonSchema): unknown[] | undefined {
  if ('const' in node) return [node['const']];
  return Array.isArray(node['enum']) ? (node['enum'] as unknown[]) : undefined;
}

function inferredType(node: JsonSchema): string {
  if ('const' in node) return jsonType(node['const']);
  if (node['properties'] !== undefined || node['additionalProperties'] !== undefined) return 'object';
  if (node['items'] !== undefined) return 'array';
  if (Array.isArray(node['enum']) && node['enum'].length > 0) return jsonType(node['enum'][0]);
  if (
    typeof node['pattern'] === 'string' ||
    typeof node['minLength'] === 'number' ||
    typeof node['format'] === 'string'
  )
    return 'string';
  if (typeof node['minimum'] === 'number' || typeof node['maximum'] === 'number') return 'number';
  return 'object';
}

function jsonType(value: unknown): string {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

/** A few words for a schema: `string`, `integer`, `object {id, name}`, `array of string`, `"on"`. */
export function summary(node: JsonSchema): string {
  if ('const' in node) return compact(node['const']);
  if (Array.isArray(node['enum'])) return (node['enum'] as unknown[]).slice(0, 6).map(compact).join('/');
  if (typeof node['$ref'] === 'string') return defName(node['$ref']) ?? 'object';
  const type = Array.isArray(node['type'])
    ? (node['type'] as string[]).join('/')
    : (node['type'] as string | undefined);
  if (isObjectLike(node) || type === 'object') {
    const properties = asSchema(node['properties']);
    const required = asStrings(node['required']);
    // `*` marks a required key; a key with one allowed value shows it (a discriminator, usually).
    const keys = Object.keys(properties).map((k) => {
      const only = allowedValues(asSchema(properties[k]));
      return `${k}${only?.length === 1 ? `=${compact(only[0])}` : ''}${required.includes(k) ? '*' : ''}`;
    });
    return keys.length === 0 ? 'object' : `object {${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}}`;
  }
  if (type === 'array') return `array of ${summary(asSchema(node['items']))}`;
  for (const key of COMBINATORS)
    if (Array.isArray(node[key])) return (node[key] as unknown[]).map((b) => summary(asSchema(b))).join(' | ');
  return type ?? 'any value';
}

function describeKeyword(key: string, value: unknown): string {
  if (key === 'examples' && Array.isArray(value)) return `e.g. ${value.slice(0, 2).map(compact).join(', ')}`;
  if (key === 'example') return `e.g. ${compact(value)}`;
  if (key === 'default') return `default ${compact(value)}`;
  if (key === 'deprecated') return value === true ? 'deprecated' : '';
  if (isPlainObject(value)) return `${key}: ${summary(value)}`;
  return `${key}: ${compact(value)}`;
}

function compact(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > NOTE_VALUE_CHARS ? `${text.slice(0, NOTE_VALUE_CHARS - 1)}…` : text;
}

function withNotes(out: JsonSchema, description: unknown, notes: string[]): JsonSchema {
  const text = joinNotes(typeof description === 'string' ? description : undefined, notes);
  if (text !== undefined) out['description'] = text;
  return out;
}

function joinNotes(description: string | undefined, notes: string[]): string | undefined {
  const kept = [...new Set(notes.filter(Boolean))];
  if (kept.length === 0) return description;
  const said = `(${kept.join('; ')})`;
  return description ? `${description} ${said}` : said;
}

function defName(ref: string): string | undefined {
  return ref.startsWith('#/$defs/')
    ? decodeURIComponent(ref.slice('#/$defs/'.length)).replace(/~1/g, '/').replace(/~0/g, '~')
    : undefined;
}

function asSchema(value: unknown): JsonSchema {
  if (value === true || value === undefined) return {};
  if (value === false) return { not: {} };
  return isPlainObject(value) ? (value as JsonSchema) : {};
}

function asStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function omit(node: JsonSchema, keys: readonly string[]): JsonSchema {
  const out = { ...node };
  for (const key of keys) delete out[key];
  return out;
}
