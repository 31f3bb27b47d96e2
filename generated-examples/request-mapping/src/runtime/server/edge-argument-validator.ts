/**
 * The validator of tool arguments on Cloudflare Workers, where Ajv cannot run (workerd forbids compiling code
 * from strings, which Ajv does), so worker.ts passes the SDK's CfWorkerJsonSchemaValidator (@cfworker/json-schema).
 * That validator matches a spec's `pattern` (and each `patternProperties` key) with `new RegExp(p, 'u')`:
 * JavaScript's backtracking engine. Against `^(\w+\s?)*$` one caller's argument of 27 characters held the
 * isolate for seconds, 35 for minutes (the platform's CPU limit per request was the only bound).
 *
 * `linearPatterns` wraps it. Per call, RE2 (contract/linear-pattern.ts, linear time) decides which of the
 * argument's strings each pattern matches, and the inner validator gets a copy of the schema whose patterns are
 * replaced by regular expressions that JavaScript's engine runs without backtracking blow-up and that, on this
 * argument's strings, match exactly the ones RE2 matched. So cfworker still decides where each pattern applies
 * (anyOf, oneOf, $ref, items …) and RE2 what a pattern accepts.
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { linearPattern } from '../contract/linear-pattern.js';

/**
 * Arguments of more distinct strings (values and keys) than this are not checked against patterns: every
 * pattern is taken to match every string, and the API still validates them. Sorting and matching more would let
 * one call hold the isolate for seconds, and a check that may take seconds is worse than none.
 */
const MAX_DISTINCT_STRINGS = 10_000;

/**
 * Groups nested deeper than this are not built (a pattern is then taken to match every string): V8 compiled
 * 3,000 nested groups in 5 ms, and ran out of memory, killing the process, on 10,000.
 */
const MAX_NESTING = 1_000;

/**
 * A run of characters every remaining string shares is written literally up to this length, and beyond it as
 * `[\s\S]{n}`: V8 refuses a literal of 100,000 characters ("Regular expression too
 * large"), and on this argument's strings the count says as much as the text.
 */
const LONGEST_LITERAL = 32;

const MATCHES_NOTHING = '[^\\s\\S]';
const MATCHES_EVERYTHING = '[\\s\\S]*';

/** The characters the `u` flag lets (and requires) a pattern to escape to mean themselves. */
const SYNTAX_CHARACTER = /[\^$\\.*+?()[\]{}|/]/gu;

export function linearPatterns(inner: jsonSchemaValidator): jsonSchemaValidator {
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      if (!hasPatterns(schema)) return inner.getValidator<T>(schema);
      return (input) => {
        const strings = distinctStrings(input, MAX_DISTINCT_STRINGS);
        const sources = new Map<string, string>();
        const sourceOf = (pattern: string): string => {
          let source = sources.get(pattern);
          if (source === undefined) {
            source = strings === undefined ? MATCHES_EVERYTHING : separatingSource(pattern, strings);
            sources.set(pattern, source);
          }
          return source;
        };
        return inner.getValidator<T>(rewriteSchema(schema, sourceOf) as JsonSchemaType)(input);
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The schema: where `pattern` is a keyword, and the copy with each pattern replaced.

type SchemaObject = Record<string, unknown>;

/** Keywords whose value is a schema, or (prefixItems, allOf …, and draft 7's `items`) a list of schemas. */
const SUBSCHEMAS = new Set([
  'items',
  'prefixItems',
  'additionalItems',
  'contains',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'allOf',
  'anyOf',
  'oneOf',
]);

/** Keywords whose value maps names to schemas (a `dependencies` entry may be a list of names: left as is). */
const SUBSCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasPatterns(schema: unknown): boolean {
  let found = false;
  rewriteSchema(schema, (pattern) => {
    found = true;
    return pattern;
  });
  return found;
}

/**
 * A copy of `schema` with `sourceOf(P)` for each pattern P: the `pattern` keyword and the keys of
 * `patternProperties`, wherever a schema can be. Other values (`const`, `enum`, `default`, `examples` …) are
 * data, kept as they are even when they hold a "pattern" key; a property named "pattern" is a schema, walked.
 */
function rewriteSchema(schema: unknown, sourceOf: (pattern: string) => string): unknown {
  if (!isSchemaObject(schema)) return schema;
  const rewrite = (subschema: unknown) => rewriteSchema(subschema, sourceOf);
  const copy: SchemaObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'pattern' && typeof value === 'string') copy[keyword] = sourceOf(value);
    else if (keyword === 'patternProperties' && isSchemaObject(value))
      copy[keyword] = rewritePatternProperties(value, sourceOf, rewrite);
    else if (SUBSCHEMAS.has(keyword)) copy[keyword] = Array.isArray(value) ? value.map(rewrite) : rewrite(value);
    else if (SUBSCHEMA_MAPS.has(keyword) && isSchemaObject(value))
      copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, rewrite(sub)]));
    else copy[keyword] = value;
  }
  return copy;
}

/** Each key replaced by its source; keys that come to the same source apply all their schemas (allOf). */
function rewritePatternProperties(
  patternProperties: SchemaObject,
  sourceOf: (pattern: string) => string,
  rewrite: (schema: unknown) => unknown,
): SchemaObject {
  const schemasBySource = new Map<string, unknown[]>();
  for (const [pattern, schema] of Object.entries(patternProperties)) {
    const source = sourceOf(pattern);
    schemasBySource.set(source, [...(schemasBySource.get(source) ?? []), rewrite(schema)]);
  }
  return Object.fromEntries(
    [...schemasBySource].map(([source, schemas]) => [source, schemas.length === 1 ? schemas[0] : { allOf: schemas }]),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// The argument: its strings, and for a pattern, the source that separates those RE2 matches from the others.

/** The distinct strings of `value` (string values and object keys), or undefined when there are more than `limit`. */
function distinctStrings(value: unknown, limit: number): string[] | undefined {
  const strings = new Set<string>();
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string') strings.add(next);
    else if (typeof next === 'object' && next !== null) {
      for (const key in next) {
        if (!Array.isArray(next)) strings.add(key);
        pending.push((next as Record<string, unknown>)[key]);
      }
    }
    if (strings.size > limit) return undefined;
  }
  return [...strings];
}

/**
 * A source JavaScript's engine matches, among `strings`, exactly to the ones RE2 says `pattern` matches. A
 * pattern with no linear-time matcher (lookaround, backreferences) is taken to match every string, as on the
 * other runtimes (argument-validator.ts): the API still validates it.
 */
function separatingSource(pattern: string, strings: readonly string[]): string {
  const matcher = linearPattern(pattern);
  if (matcher === undefined) return MATCHES_EVERYTHING;
  const matched = new Set(strings.filter((text) => matcher.test(text)));
  return trieSource(strings, matched) ?? MATCHES_EVERYTHING;
}

/**
 * `^(?:…)$` over the trie of `strings`: common prefixes factored, the branches of a node starting with distinct
 * characters (written literally), so the engine follows one path and never backtracks more than one step per node. A branch holding
 * no matched string is left out ([^\s\S] when none is matched); a branch holding only matched strings is
 * `[\s\S]*`. Its result is right only on `strings`, which are all the validator tests it against.
 * Undefined when the trie nests too deep (MAX_NESTING).
 */
export function trieSource(strings: readonly string[], matched: ReadonlySet<string>): string | undefined {
  const sorted = [...strings].sort(); // by UTF-16 code units: strings sharing a prefix are neighbours
  const matchedBefore = [0];
  for (const text of sorted) matchedBefore.push(matchedBefore.at(-1)! + (matched.has(text) ? 1 : 0));
  const matchedIn = (from: number, to: number) => matchedBefore[to]! - matchedBefore[from]!;

  /** The source matching the rest (from `offset`) of the strings sorted[from, to), which share their first `offset` units. */
  function branch(from: number, to: number, offset: number, depth: number): string | undefined {
    const matchedCount = matchedIn(from, to);
    if (matchedCount === 0) return undefined;
    if (matchedCount === to - from) return MATCHES_EVERYTHING;
    if (depth > MAX_NESTING) throw new TooDeep();
    const end = sharedPrefixEnd(sorted[from]!, sorted[to - 1]!, offset);
    const alternatives: string[] = [];
    let next = from;
    if (sorted[from]!.length === end) {
      if (matched.has(sorted[from]!)) alternatives.push(''); // this string ends here
      next++;
    }
    while (next < to) {
      const first = sorted[next]!.codePointAt(end)!;
      let last = next + 1;
      while (last < to && sorted[last]!.codePointAt(end) === first) last++;
      const character = String.fromCodePoint(first);
      const rest = branch(next, last, end + character.length, depth + 1);
      if (rest !== undefined) alternatives.push(escape(character) + rest);
      next = last;
    }
    const shared = literal(sorted[from]!.slice(offset, end));
    return alternatives.length === 1 ? shared + alternatives[0] : `${shared}(?:${alternatives.join('|')})`;
  }

  try {
    return `^(?:${branch(0, sorted.length, 0, 0) ?? MATCHES_NOTHING})$`;
  } catch (error) {
    if (error instanceof TooDeep) return undefined;
    throw error;
  }
}

class TooDeep extends Error {}

/** Where the prefix `a` and `b` share ends (from `offset`), never between the two halves of a surrogate pair. */
function sharedPrefixEnd(a: string, b: string, offset: number): number {
  let end = offset;
  while (end < a.length && end < b.length && a.charCodeAt(end) === b.charCodeAt(end)) end++;
  const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
  const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;
  // A pair split (one string goes on with its low half): its high half belongs to the next character.
  if (end > offset && isHigh(a.charCodeAt(end - 1)) && (isLow(a.charCodeAt(end)) || isLow(b.charCodeAt(end)))) end--;
  return end;
}

/** A source matching `text` (of this argument's strings sharing it): literal, or a count of characters. */
function literal(text: string): string {
  const length = [...text].length; // code points, as the `u` flag reads them
  return length <= LONGEST_LITERAL ? escape(text) : `[\\s\\S]{${length}}`;
}

function escape(text: string): string {
  return text.replace(SYNTAX_CHARACTER, '\\$&');
}
