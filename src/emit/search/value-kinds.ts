/**
 * The kinds of value (search-values.ts) an operation's parameters accept, for the index's `kinds` field: a
 * request that carries an e-mail address fits an operation with an e-mail parameter. Every argument counts
 * (path, query, header, body properties and their properties one level down), read from what the spec says
 * of it: its `format`, its `pattern`, its examples and default, a file body, and its name's words.
 */
import {
  KIND_SAMPLES,
  kindOfValue,
  kindTerm,
  type ValueKind,
} from '../../../templates/runtime/contract/search/search-values.js';
import { stemWord, words } from '../../../templates/runtime/contract/search/search-text.js';
import { linearPattern } from '../../../templates/runtime/contract/linear-pattern.js';
import { memoized } from '../../../templates/runtime/contract/memo.js';
import type { JsonSchema, ToolModel } from '../../ir/types.js';
import { propertiesOf, resolve } from './search-documents.js';

/** The `kinds` field of a tool: the kind terms of its arguments, sorted. */
export function operationKinds(tool: ToolModel, defs: Record<string, JsonSchema>): string {
  const kinds = new Set<ValueKind>();
  const body = tool.request.body;
  if (body && (body.kind === 'binary' || (body.fileFields?.length ?? 0) > 0)) kinds.add('file');
  const args = propertiesOf(tool.inputSchema, defs);
  for (const name of Object.keys(args)) {
    const nested = name === body?.arg ? args[name] : undefined;
    if (nested === undefined) addArgumentKinds(name, args[name], defs, kinds);
    else for (const [prop, schema] of childProperties(nested, defs)) addArgumentKinds(prop, schema, defs, kinds, 1);
  }
  return [...kinds].map(kindTerm).sort().join(' ');
}

/** An argument's kinds, and those of its own properties (or its items' properties) down to one level below the body's. */
function addArgumentKinds(
  name: string,
  schema: unknown,
  defs: Record<string, JsonSchema>,
  out: Set<ValueKind>,
  depth = 0,
): void {
  for (const kind of argumentKinds(name, resolve(schema, defs), defs)) out.add(kind);
  if (depth >= 2) return;
  for (const [prop, child] of childProperties(schema, defs)) addArgumentKinds(prop, child, defs, out, depth + 1);
}

function childProperties(schema: unknown, defs: Record<string, JsonSchema>): Array<[string, unknown]> {
  const own = Object.entries(propertiesOf(schema, defs));
  if (own.length > 0) return own;
  const items = resolve(schema, defs)?.['items'];
  return Object.entries(propertiesOf(items, defs));
}

/** What one argument accepts: from its schema (and its items', for a list of values), else from its name. */
export function argumentKinds(
  name: string,
  schema: JsonSchema | undefined,
  defs: Record<string, JsonSchema> = {},
): ValueKind[] {
  const kinds = new Set<ValueKind>();
  for (const s of [schema, resolve(schema?.['items'], defs)]) if (s) for (const kind of schemaKinds(s)) kinds.add(kind);
  for (const kind of cachedNameKinds(name)) kinds.add(kind);
  return [...kinds];
}

/**
 * Operations share their arguments' schemas and names (GitHub's `owner` and `repo` in 700 operations, the same
 * body schemas under several): each schema's kinds and each name's are read once, which saves ~20 ms on
 * GitHub's 1,100 operations (its sample values were matched against every kind's pattern for each use).
 */
const kindsOfSchema = new WeakMap<JsonSchema, readonly ValueKind[]>();
const cachedNameKinds = memoized(nameKinds);

function schemaKinds(schema: JsonSchema): readonly ValueKind[] {
  let kinds = kindsOfSchema.get(schema);
  if (kinds === undefined) {
    const found = new Set<ValueKind>();
    addSchemaKinds(schema, found);
    kindsOfSchema.set(schema, (kinds = [...found]));
  }
  return kinds;
}

function addSchemaKinds(schema: JsonSchema, out: Set<ValueKind>): void {
  const format = schema['format'];
  if (typeof format === 'string') for (const kind of FORMAT_KINDS[format.toLowerCase()] ?? []) out.add(kind);
  if (schema['contentMediaType'] !== undefined || schema['contentEncoding'] === 'base64') out.add('file');
  const pattern = schema['pattern'];
  if (typeof pattern === 'string') for (const kind of patternKinds(pattern)) out.add(kind);
  for (const value of sampleValues(schema)) {
    const kind = kindOfValue(value);
    if (kind) out.add(kind);
  }
}

/** The spec's own sample values of a schema: `example`, `examples`, `default`. */
function sampleValues(schema: JsonSchema): string[] {
  const examples = schema['examples'];
  const all = [schema['example'], schema['default'], ...(Array.isArray(examples) ? examples : [])];
  return all.filter((v): v is string => typeof v === 'string' && v !== '');
}

/** `format` values the specs use, by kind. */
const FORMAT_KINDS: Record<string, readonly ValueKind[]> = {
  email: ['email'],
  'idn-email': ['email'],
  uri: ['url'],
  url: ['url'],
  'uri-reference': ['url'],
  iri: ['url'],
  'iri-reference': ['url'],
  'uri-template': ['url'],
  hostname: ['domain'],
  'idn-hostname': ['domain'],
  ipv4: ['ipv4'],
  ipv6: ['ipv6'],
  ip: ['ipv4', 'ipv6'],
  'ip-address': ['ipv4', 'ipv6'],
  cidr: ['cidr'],
  date: ['date'],
  'date-time': ['date'],
  datetime: ['date'],
  timestamp: ['date'],
  'unix-time': ['date'],
  duration: ['span'],
  uuid: ['uuid'],
  guid: ['uuid'],
  binary: ['file'],
  phone: ['phone'],
  'phone-number': ['phone'],
  currency: ['money'],
  money: ['money'],
};

/**
 * A pattern that accepts a few kinds' samples says what it accepts; one that accepts many (`^[\w.-]+$`,
 * `.*`) says nothing.
 */
const MAX_PATTERN_KINDS = 3;
const patternKinds = memoized(testPattern);

function testPattern(pattern: string): ValueKind[] {
  const regex = linearPattern(pattern);
  if (!regex) return [];
  const kinds = (Object.keys(KIND_SAMPLES) as ValueKind[]).filter((kind) =>
    KIND_SAMPLES[kind].some((sample) => regex.test(sample)),
  );
  return kinds.length <= MAX_PATTERN_KINDS ? kinds : [];
}

/** Words of parameter names that say which kind of value they take, by stem. */
const NAME_WORDS: ReadonlyArray<[words: string, kinds: readonly ValueKind[]]> = [
  ['email mail', ['email']],
  ['url uri link href website homepage webhook callback redirect', ['url']],
  ['domain hostname host fqdn', ['domain']],
  ['ip ipv4', ['ipv4']],
  ['ip ipv6', ['ipv6']],
  ['cidr subnet', ['cidr']],
  ['date since until before after timestamp datetime deadline due birthday', ['date']],
  ['ttl duration timeout interval period retention lifetime', ['span']],
  ['uuid guid', ['uuid']],
  ['file filename attachment upload image avatar photo document media', ['file']],
  ['phone mobile msisdn telephone', ['phone']],
  ['amount price cost fee balance budget', ['money']],
  ['postcode postal zip zipcode', ['postcode']],
  ['lat latitude lng lon longitude coordinates geo', ['coordinates']],
  ['sha hash commit revision digest checksum', ['sha']],
  ['username login handle assignee mention reviewer', ['mention']],
  ['channel hashtag', ['channel']],
  ['name title label subject', ['name']],
];

const KINDS_BY_STEM = (() => {
  const byStem = new Map<string, ValueKind[]>();
  for (const [list, kinds] of NAME_WORDS)
    for (const word of list.split(' ')) {
      const stem = stemWord(word);
      byStem.set(stem, [...(byStem.get(stem) ?? []), ...kinds]);
    }
  return byStem;
})();

/** Kinds a parameter's name says it takes: `ip_address` an IP, `created_at` and `since` a date, `user_id` an id. */
export function nameKinds(name: string): ValueKind[] {
  const parts = words(name);
  const kinds = new Set<ValueKind>();
  for (const part of parts) for (const kind of KINDS_BY_STEM.get(stemWord(part)) ?? []) kinds.add(kind);
  const last = parts.at(-1);
  if (parts.length > 1 && (last === 'at' || last === 'on')) kinds.add('date');
  if (last === 'id' || last === 'number' || last === 'key') kinds.add(last === 'key' ? 'key' : 'id');
  return [...kinds];
}
