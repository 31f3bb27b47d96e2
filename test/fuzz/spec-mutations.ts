/**
 * Mutations of real API descriptions, for the generator's property test: what broken, converted and hostile
 * specs do to a document. Each mutation picks its place by index into the document's nodes (so fast-check
 * shrinks it like a number), and they apply in turn to a copy.
 */
import fc from 'fast-check';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Path = Array<string | number>;

/** Strings that have broken generators somewhere: code and markup delimiters, controls, odd Unicode, size. */
const HOSTILE_STRINGS = [
  '',
  ' ',
  '*/ }); process.exit(1); /*',
  '`${process.exit(1)}`',
  "'; DROP TABLE tools; --",
  '</script><script>alert(1)</script>',
  '{{#each this}}{{/each}}',
  '\\u0000\\',
  '\u0000\u0001\u001f\u007f',
  '\r\n\r\nX-Injected: 1',
  '\u2028\u2029',
  '\ud800',
  '\udfff\ud800',
  '\u202e\u202dreversed',
  '😀👍🏽🇫🇷',
  '路径/参数',
  'Ключ',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  'toString',
  '{id}',
  '/{a}/{a}',
  '?x={x}',
  '#/components/schemas',
  '~0~1',
  '../../../etc/passwd',
  'a'.repeat(70),
  'x'.repeat(100_000),
  'word '.repeat(20_000),
];

/** Property names and keys: valid-looking, non-ASCII, or breaking some naming rule. */
const HOSTILE_KEYS = [
  '名前',
  'ключ',
  'é',
  '😀',
  '__proto__',
  'constructor',
  'prototype',
  '',
  ' ',
  'a b',
  'a/b',
  'a~b',
  '{x}',
  '$ref',
  'x-mcp',
  '0',
  'body',
  'a'.repeat(300),
];

const REF_TARGETS = [
  '#/components/schemas/DoesNotExist',
  '#/definitions/Nope',
  '#/paths/~1nowhere',
  '#',
  '#/',
  '',
  'missing-file.yaml#/Pet',
  './missing-file.json',
  '#/components/schemas/%7B',
  42,
  null,
];

const SCALARS: Json[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  -1e-308,
  'string',
  [],
  {},
  [null],
  [[]],
  { type: 'nonsense' },
];

export type Mutation =
  | { kind: 'drop'; at: number }
  | { kind: 'retype'; at: number; value: Json }
  | { kind: 'duplicate'; at: number; from: number }
  | { kind: 'dangle'; at: number; ref: Json }
  | { kind: 'cycle'; at: number; up: number }
  | { kind: 'hostile-string'; at: number; value: string }
  | { kind: 'rename-key'; at: number; key: string }
  | { kind: 'deep-nesting'; at: number; depth: number }
  | { kind: 'wide'; at: number; count: number };

const at = fc.nat();

export const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('drop' as const), at }),
  fc.record({
    kind: fc.constant('retype' as const),
    at,
    value: fc.oneof(fc.constantFrom(...SCALARS), fc.constantFrom(...HOSTILE_STRINGS)),
  }),
  fc.record({ kind: fc.constant('duplicate' as const), at, from: fc.nat() }),
  fc.record({ kind: fc.constant('dangle' as const), at, ref: fc.constantFrom<Json>(...REF_TARGETS) }),
  fc.record({ kind: fc.constant('cycle' as const), at, up: fc.nat({ max: 6 }) }),
  fc.record({
    kind: fc.constant('hostile-string' as const),
    at,
    value: fc.oneof(fc.constantFrom(...HOSTILE_STRINGS), fc.string({ unit: 'binary', maxLength: 40 })),
  }),
  fc.record({
    kind: fc.constant('rename-key' as const),
    at,
    key: fc.oneof(fc.constantFrom(...HOSTILE_KEYS), fc.string({ unit: 'binary', minLength: 1, maxLength: 12 })),
  }),
  fc.record({ kind: fc.constant('deep-nesting' as const), at, depth: fc.constantFrom(50, 600, 1500) }),
  fc.record({ kind: fc.constant('wide' as const), at, count: fc.constantFrom(200, 2000) }),
);

export const mutationsArb = fc.array(mutationArb, { minLength: 1, maxLength: 6 });

/** The document with the mutations applied in turn (the input is not changed). */
export function mutate(document: Json, mutations: readonly Mutation[]): Json {
  let doc = structuredClone(document);
  for (const mutation of mutations) doc = applyMutation(doc, mutation);
  return doc;
}

function applyMutation(doc: Json, mutation: Mutation): Json {
  const paths = nodePaths(doc);
  const path = paths[mutation.at % paths.length]!;
  switch (mutation.kind) {
    case 'drop':
      return path.length === 0 ? doc : remove(doc, path);
    case 'retype':
      return replace(doc, path, mutation.value);
    case 'duplicate': {
      const source = paths[mutation.from % paths.length]!;
      return duplicate(doc, path, structuredClone(get(doc, source)));
    }
    case 'dangle':
      return replace(doc, path, { $ref: mutation.ref });
    case 'cycle': {
      // A `$ref` to the node itself or one of its ancestors, placed inside it: a loop through refs.
      const target = path.slice(0, Math.max(0, path.length - mutation.up));
      const node = get(doc, path);
      const ref = { $ref: pointerOf(target) };
      if (isObject(node))
        return replace(doc, path, {
          ...node,
          properties: { ...(isObject(node['properties']) ? node['properties'] : {}), loop: ref },
          items: ref,
        });
      return replace(doc, path, ref);
    }
    case 'hostile-string':
      return replace(doc, path, mutation.value);
    case 'rename-key':
      return path.length === 0 ? doc : renameKey(doc, path, mutation.key);
    case 'deep-nesting': {
      let nested: Json = { type: 'string' };
      for (let i = 0; i < mutation.depth; i++)
        nested = i % 2 === 0 ? { type: 'object', properties: { n: nested } } : { type: 'array', items: nested };
      return replace(doc, path, nested);
    }
    case 'wide': {
      const node = get(doc, path);
      if (Array.isArray(node))
        return replace(
          doc,
          path,
          Array.from({ length: mutation.count }, (_, i) => structuredClone(node[i % Math.max(node.length, 1)] ?? null)),
        );
      if (isObject(node)) {
        const entries = Object.entries(node);
        const wide: Record<string, Json> = {};
        for (let i = 0; i < mutation.count; i++) {
          const [key, value] = entries[i % Math.max(entries.length, 1)] ?? ['k', null];
          wide[i < entries.length ? key : `${key}${i}`] = structuredClone(value);
        }
        return replace(doc, path, wide);
      }
      return doc;
    }
  }
}

/** Every node's path, breadth first (the top of the document, where mutations matter most, comes first). */
function nodePaths(doc: Json, max = 5000): Path[] {
  const paths: Path[] = [[]];
  for (let i = 0; i < paths.length && paths.length < max; i++) {
    const node = get(doc, paths[i]!);
    if (Array.isArray(node)) node.forEach((_, index) => paths.push([...paths[i]!, index]));
    else if (isObject(node)) for (const key of Object.keys(node)) paths.push([...paths[i]!, key]);
  }
  return paths;
}

/** Own properties only: a renamed key may be `__proto__`, which plain access would read as the prototype. */
function get(doc: Json, path: Path): Json {
  let node: Json = doc;
  for (const key of path) node = Object.getOwnPropertyDescriptor(node, key)?.value as Json;
  return node;
}

function replace(doc: Json, path: Path, value: Json): Json {
  if (path.length === 0) return value;
  const parent = get(doc, path.slice(0, -1)) as Record<string | number, Json>;
  Object.defineProperty(parent, path.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
  return doc;
}

function remove(doc: Json, path: Path): Json {
  const parent = get(doc, path.slice(0, -1));
  const key = path.at(-1)!;
  if (Array.isArray(parent)) parent.splice(Number(key), 1);
  else if (isObject(parent)) delete parent[key];
  return doc;
}

/** Next to the node when its parent is an object or array (a copy under a new key), else in its place. */
function duplicate(doc: Json, path: Path, copy: Json): Json {
  if (path.length === 0) return doc;
  const parent = get(doc, path.slice(0, -1));
  if (Array.isArray(parent)) parent.push(copy);
  else if (isObject(parent))
    Object.defineProperty(parent, `${String(path.at(-1))}_copy`, {
      value: copy,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return doc;
}

function renameKey(doc: Json, path: Path, key: string): Json {
  const parent = get(doc, path.slice(0, -1));
  const old = path.at(-1)!;
  if (!isObject(parent) || typeof old !== 'string') return doc;
  // Rebuilt in order, so the renamed key keeps its place (defineProperty: `__proto__` stays a plain key).
  const rebuilt: Record<string, Json> = {};
  for (const [k, v] of Object.entries(parent))
    Object.defineProperty(rebuilt, k === old ? key : k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return replace(doc, path.slice(0, -1), rebuilt);
}

function pointerOf(path: Path): string {
  return `#${path.map((k) => `/${String(k).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('')}`;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
