/**
 * Most specs are one file whose `$ref`s already point straight at what they mean: `#/components/schemas/Pet`,
 * an existing object reached without passing through another `$ref`. For such a document swagger-parser's
 * bundle changes nothing (it inlines external files and rewrites each internal ref to the canonical path of its
 * target, which is the path it already has), yet it costs seconds on a large spec: it follows every ref and
 * looks each one up in a list. One walk (hasCanonicalRefs) proves the document is in that shape; anything unusual
 * (an external or `%`-encoded ref, a `$id` that changes the base of refs, a ref through or to another ref, a
 * missing target, a very deep document) answers "no", and the caller bundles.
 *
 * A `$id` changes the base of refs only where json-schema-ref-parser reads ids as scopes: in a document that
 * declares JSON Schema 2019-09 or 2020-12 or is OpenAPI 3.1 (its `usesDynamicIdScope`), and at the root of any
 * document (bundled refs are qualified with it). Elsewhere a `$id` is one more key: Box's 3.0 description has
 * some inside examples, and bundling it (80 ms) returned it unchanged.
 */
import { unescapeToken } from '../util/json-pointer.js';

type JsonObject = Record<string, unknown>;

/** Printable ASCII without `%` (decoded by the resolver), `\` and `#`: such a pointer resolves to itself. */
const PLAIN_POINTER = /^#(?:\/[!"$&-[\]-~]*)+$/;
const ARRAY_INDEX = /^(?:0|[1-9][0-9]*)$/;
/** Deeper documents are left to swagger-parser's bundle (it gives up at 500); the walk is recursive. */
const MAX_DEPTH = 400;

/** Walks the document once, through its refs too: true when every ref is internal and canonical. */
export function hasCanonicalRefs(document: JsonObject): boolean {
  if (isRef(document) || hasId(document)) return false;
  const idsScopeRefs = usesDynamicIdScope(document);
  const visited = new Set<object>();
  // A large spec repeats a few thousand refs tens of thousands of times: each is resolved once.
  const targets = new Map<string, object | undefined>();
  const targetOf = (ref: string): object | undefined => {
    let target = targets.get(ref);
    if (target === undefined && !targets.has(ref)) {
      target = resolveCanonical(document, ref);
      targets.set(ref, target);
    }
    return target;
  };
  const visit = (object: JsonObject, depth: number): boolean => {
    if ((idsScopeRefs && hasId(object)) || depth > MAX_DEPTH) return false;
    visited.add(object);
    for (const key in object) {
      const child = object[key];
      if (typeof child !== 'object' || child === null) continue;
      let next = child;
      if (isPointerRef(child)) {
        const target = targetOf((child as JsonObject)['$ref'] as string);
        if (!target) return false;
        if (hasSiblingKeys(child) && !visit(child as JsonObject, depth + 1)) return false; // its other keys
        next = target;
      }
      if (!visited.has(next) && !visit(next as JsonObject, depth + 1)) return false;
    }
    return true;
  };
  return visit(document, 0);
}

/**
 * The target of a `#/…` pointer when it is canonical: plain characters, every step an existing own property of
 * a container that is not itself a ref, and a target that is an object or array but not a ref.
 */
export function resolveCanonical(document: JsonObject, ref: string): object | undefined {
  if (!PLAIN_POINTER.test(ref)) return undefined;
  let current: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    if (current === null || typeof current !== 'object' || isRef(current)) return undefined;
    const token = unescapeToken(raw);
    if (
      Array.isArray(current)
        ? !ARRAY_INDEX.test(token) || Number(token) >= current.length
        : !Object.hasOwn(current, token)
    )
      return undefined;
    current = (current as JsonObject)[token];
  }
  return current !== null && typeof current === 'object' && !isRef(current) ? current : undefined;
}

function hasId(object: JsonObject): boolean {
  const id = object['$id'];
  return typeof id === 'string' && id !== '';
}

/** json-schema-ref-parser's test of a document whose `$id`s are scopes (util/schema-resources.js). */
function usesDynamicIdScope(document: JsonObject): boolean {
  const schema = document['$schema'];
  if (typeof schema === 'string' && /draft\/2019-09\/|draft\/2020-12\/|oas\/3\.1\//.test(schema)) return true;
  const openapi = document['openapi'];
  return typeof openapi === 'string' && /^3\.1(?:\.|$)/.test(openapi);
}

/** More keys than `$ref` alone (counted without building the list of keys). */
function hasSiblingKeys(ref: object): boolean {
  let keys = 0;
  for (const key in ref) if (Object.hasOwn(ref, key) && ++keys > 1) return true;
  return false;
}

function isRef(value: object): boolean {
  const ref = (value as JsonObject)['$ref'];
  return typeof ref === 'string' && ref !== '';
}

/** A ref swagger-parser follows: `#name` (a 3.1 anchor) is no JSON pointer, and it leaves such an object alone. */
function isPointerRef(value: object): boolean {
  const ref = (value as JsonObject)['$ref'];
  return typeof ref === 'string' && ref !== '' && (!ref.startsWith('#') || ref.startsWith('#/') || ref === '#');
}
