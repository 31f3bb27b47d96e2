/**
 * The validator's message for invalid arguments, made to say what to change: Ajv's text names the path but
 * not, for an enum, the allowed values, nor, for extra keys, which keys. Each clause gets what the schema at
 * that path says (the values, the keys to remove and the keys there are, the constant, the alternatives).
 */
import type { JsonSchema } from '../contract/catalog.js';
import { summary } from '../contract/profiles/lower-schema.js';

const CLAUSE = /(?:^|, )(?=data[/ ])/;
const MAX_LISTED = 20;
/** A model fixes a few problems at a time; a thousand of them are noise in its context. */
const MAX_PROBLEMS = 20;

export function explainInvalid(message: string, schema: JsonSchema, args: unknown): string {
  const clauses = message.split(CLAUSE).filter(Boolean);
  const explained = clauses.slice(0, MAX_PROBLEMS).map((clause) => explainClause(clause, schema, args));
  const more = clauses.length - MAX_PROBLEMS;
  return [...explained, ...(more > 0 ? [`and ${more} more problem${more === 1 ? '' : 's'}`] : [])].join('; ');
}

function explainClause(clause: string, root: JsonSchema, args: unknown): string {
  const match = /^data((?:\/[^ ]*)?) (.*)$/.exec(clause);
  if (!match) return clause;
  const pointer = match[1]!;
  const problem = match[2]!;
  const segments = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const where = pointer === '' ? 'the arguments' : `"${segments.join('.')}"`;
  const node = schemaAt(root, segments);
  if (problem === 'must NOT have additional properties' && node) {
    const allowed = Object.keys(asObject(node['properties']));
    const extra = Object.keys(asObject(valueAt(args, segments))).filter((k) => !allowed.includes(k));
    return `${where} has keys that are not allowed: remove ${list(extra)}${allowed.length > 0 ? ` (allowed: ${list(allowed)})` : ''}`;
  }
  if (problem === 'must be equal to one of the allowed values' && node && Array.isArray(node['enum'])) {
    return `${where} must be one of ${list((node['enum'] as unknown[]).map((v) => JSON.stringify(v)))}`;
  }
  if (problem === 'must be equal to constant' && node && 'const' in node)
    return `${where} must be ${JSON.stringify(node['const'])}`;
  if (/^must match (a|exactly one) schema in (anyOf|oneOf)/.test(problem) && node) {
    const branches = (node['anyOf'] ?? node['oneOf']) as unknown[] | undefined;
    if (Array.isArray(branches))
      return `${where} must match ${problem.includes('exactly') ? 'exactly one' : 'one'} of: ${branches.map((b) => summary(resolve(root, asObject(b)))).join(' | ')}`;
  }
  return `${where} ${problem}`;
}

/** The subschema that validates the value at this instance path, following properties, items and `$ref`s. */
function schemaAt(root: JsonSchema, segments: readonly string[]): JsonSchema | undefined {
  let node: JsonSchema | undefined = resolve(root, root);
  for (const segment of segments) {
    if (!node) return undefined;
    const properties = asObject(node['properties']);
    let next: unknown;
    if (Object.hasOwn(properties, segment)) next = properties[segment];
    else if (/^\d+$/.test(segment) && node['items'] !== undefined) next = node['items'];
    else if (typeof node['additionalProperties'] === 'object') next = node['additionalProperties'];
    node = next === undefined ? undefined : resolve(root, asObject(next));
  }
  return node;
}

function resolve(root: JsonSchema, node: JsonSchema): JsonSchema {
  let current = node;
  for (let hops = 0; hops < 16 && typeof current['$ref'] === 'string'; hops++) {
    const ref = current['$ref'] as string;
    if (!ref.startsWith('#/$defs/')) break;
    const target = asObject(root['$defs'])[ref.slice('#/$defs/'.length)];
    if (target === undefined) break;
    const { $ref: _ref, ...siblings } = current;
    current = { ...asObject(target), ...siblings };
  }
  return current;
}

function valueAt(value: unknown, segments: readonly string[]): unknown {
  let current = value;
  for (const segment of segments)
    current =
      typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[segment] : undefined;
  return current;
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function list(items: readonly string[]): string {
  return items.length > MAX_LISTED
    ? `${items.slice(0, MAX_LISTED).join(', ')}, … (${items.length} in all)`
    : items.join(', ');
}
