/** RFC 6901 JSON pointers, written as URI fragments (`#/a/b`). */

export function escapeToken(token: string): string {
  // Most tokens need no escaping; generation builds a pointer for every schema node of large specs.
  if (!token.includes('~') && !token.includes('/')) return token;
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function joinPointer(base: string, ...tokens: Array<string | number>): string {
  let pointer = base;
  for (const t of tokens) pointer += `/${typeof t === 'number' ? t : escapeToken(t)}`;
  return pointer;
}

/** Splits `#/a/b~1c` into `['a', 'b/c']`; returns undefined for anything that is not a local pointer. */
export function parseLocalRef(ref: string): readonly string[] | undefined {
  // A large spec repeats a few thousand refs tens of thousands of times: each is split and decoded once.
  let tokens = parsedRefs.get(ref);
  if (tokens === undefined && !parsedRefs.has(ref)) {
    if (parsedRefs.size >= MAX_PARSED_REFS) parsedRefs.clear();
    tokens = parseLocalRefAnew(ref);
    parsedRefs.set(ref, tokens);
  }
  return tokens;
}

const parsedRefs = new Map<string, readonly string[] | undefined>();
/** Bounds the cache in a long-lived process that generates many specs. */
const MAX_PARSED_REFS = 50_000;

function parseLocalRefAnew(ref: string): readonly string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((t) => unescapeToken(safeDecode(t)));
}

function safeDecode(token: string): string {
  try {
    return decodeURIComponent(token);
  } catch {
    return token;
  }
}

export function resolvePointer(doc: unknown, tokens: readonly string[]): unknown {
  let node: unknown = doc;
  for (const t of tokens) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[t];
  }
  return node;
}
