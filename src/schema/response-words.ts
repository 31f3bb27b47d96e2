/**
 * What an operation's success response holds, as words for the operation search: the schema's name (its
 * `$ref`'s last segment, "full-repository") or title, and its top-level property names ("balance",
 * "tracks"), the items' when the response is an array. People ask for what they want back ("my balance",
 * "the tracks of an album"), and a summary does not always name it.
 */
import type { ResponseWords } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';
import { primaryType, type ResolveRaw } from './outline.js';

export function responseWords(raw: unknown, resolve: ResolveRaw): ResponseWords | undefined {
  const root = resolve(raw);
  if (!root) return undefined;
  const words: ResponseWords = { names: [], properties: [] };
  addSchemaNames(raw, root, words.names);
  let subject: Record<string, unknown> | undefined = root;
  if (primaryType(root) === 'array') {
    subject = resolve(root['items']);
    if (subject) addSchemaNames(root['items'], subject, words.names);
  }
  if (subject) addPropertyNames(subject, resolve, words.properties, 0);
  return words.names.length + words.properties.length > 0 ? words : undefined;
}

/** The name a `$ref` gives the schema, and its title. */
function addSchemaNames(raw: unknown, resolved: Record<string, unknown>, words: string[]): void {
  const ref = isPlainObject(raw) ? raw['$ref'] : undefined;
  if (typeof ref === 'string') words.push(refName(ref));
  if (typeof resolved['title'] === 'string') words.push(resolved['title']);
}

function refName(ref: string): string {
  return ref
    .slice(ref.lastIndexOf('/') + 1)
    .replace(/~1/g, '/')
    .replace(/~0/g, '~');
}

/** Property names, through allOf members (a few levels: composition chains are short). */
function addPropertyNames(schema: Record<string, unknown>, resolve: ResolveRaw, words: string[], depth: number): void {
  if (depth > 3) return;
  const properties = schema['properties'];
  if (isPlainObject(properties)) for (const name of Object.keys(properties)) words.push(name);
  const members = schema['allOf'];
  if (!Array.isArray(members)) return;
  for (const member of members) {
    const resolved = resolve(member);
    if (resolved) addPropertyNames(resolved, resolve, words, depth + 1);
  }
}
