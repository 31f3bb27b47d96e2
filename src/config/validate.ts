/**
 * Checks a config against its JSON Schema (src/config/schema.ts) with Ajv, and words each problem as the
 * schema says: the `x-message` of the deepest node above the failing keyword (reported at that node), an
 * unknown key by its object's `x-unknown`, a missing one by `x-missing`. One problem per place, the outermost
 * where they nest, in the order of the file.
 */
import { createRequire } from 'node:module';
import { escapeToken, unescapeToken } from '../util/json-pointer.js';
import { CONFIG_SCHEMA } from './schema.js';
import { MESSAGE_KEYWORDS, type SchemaNode } from './schema-node.js';

export interface ShapeProblem {
  /** Where in the file, as a JSON pointer (`/tools/getPet/name`; `` for the whole file). */
  pointer: string;
  message: string;
}

interface AjvError {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
  message?: string;
}
type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
type AjvClass = new (options: object) => { addKeyword(definition: object): unknown; compile(schema: object): Validate };

const require = createRequire(import.meta.url);
let compiled: Validate | undefined;

/** Ajv is loaded, and the schema compiled, only when there is a config to check. */
function validator(): Validate {
  if (!compiled) {
    const Ajv = (require('ajv') as { default: AjvClass }).default;
    const ajv = new Ajv({ allErrors: true, strictTypes: false });
    for (const keyword of MESSAGE_KEYWORDS) ajv.addKeyword({ keyword, schemaType: 'string' });
    compiled = ajv.compile(CONFIG_SCHEMA);
  }
  return compiled;
}

export function configProblems(config: unknown): ShapeProblem[] {
  const validate = validator();
  if (validate(config)) return [];
  const messages = new Map<string, string>();
  for (const error of validate.errors ?? []) {
    const problem = wordProblem(error, config);
    if (problem && !messages.has(problem.pointer)) messages.set(problem.pointer, problem.message);
  }
  const pointers = [...messages.keys()];
  return pointers
    .filter((p) => !pointers.some((outer) => p.startsWith(`${outer}/`)))
    .sort((a, b) => compareOrder(documentOrder(a, config), documentOrder(b, config)))
    .map((pointer) => ({ pointer, message: messages.get(pointer)! }));
}

function wordProblem(error: AjvError, config: unknown): ShapeProblem | undefined {
  // `if` only says that its `then` or `else` failed, which reports for itself.
  if (error.keyword === 'if') return undefined;
  const { node, owner } = walkSchema(error.schemaPath);
  const key = error.params['additionalProperty'] ?? error.params['missingProperty'];
  if (error.keyword === 'additionalProperties' && node['x-unknown'] && typeof key === 'string')
    return {
      pointer: `${error.instancePath}/${escapeToken(key)}`,
      message: `unknown ${node['x-unknown']} ${key} (expected ${fieldsOf(node)})`,
    };
  if (error.keyword === 'required' && node['x-missing'] && typeof key === 'string')
    return { pointer: `${error.instancePath}/${escapeToken(key)}`, message: node['x-missing'].replace('%key', key) };
  if (!owner) return { pointer: error.instancePath, message: error.message ?? 'is invalid' };
  const pointer = error.instancePath
    .split('/')
    .slice(0, owner.depth + 1)
    .join('/');
  const message = owner.node['x-message']!.replace('%fields', fieldsOf(owner.node)).replace('%value', () =>
    String(valueAt(config, pointer)),
  );
  return { pointer, message };
}

/**
 * Follows an error's schema path (`#/properties/tools/additionalProperties/properties/name/pattern`) to the
 * node holding the failing keyword, and finds the deepest node on the way with a message, with its depth in
 * the config (properties, additionalProperties and items go one level down; if/then/else, anyOf, allOf not).
 */
function walkSchema(schemaPath: string): { node: SchemaNode; owner?: { node: SchemaNode; depth: number } } {
  const segments = schemaPath.replace(/^#\/?/, '').split('/').map(unescapeToken);
  let node = CONFIG_SCHEMA;
  let depth = 0;
  let owner = node['x-message'] !== undefined ? { node, depth } : undefined;
  for (let i = 0; i < segments.length - 1; i++) {
    const segment = segments[i]!;
    let next: SchemaNode | false | undefined;
    if (segment === 'properties') {
      next = node.properties?.[segments[++i]!];
      depth++;
    } else if (segment === 'additionalProperties' || segment === 'items') {
      next = node[segment];
      depth++;
    } else if (segment === 'if' || segment === 'then' || segment === 'else') {
      next = node[segment];
    } else if (segment === 'anyOf' || segment === 'allOf') {
      next = node[segment]?.[Number(segments[++i])];
    }
    if (!next) break;
    node = next;
    if (node['x-message'] !== undefined) owner = { node, depth };
  }
  return { node, ...(owner ? { owner } : {}) };
}

/** An object's keys as messages list them (`$schema` is not one a user needs to be told about). */
function fieldsOf(node: SchemaNode): string {
  return Object.keys(node.properties ?? {})
    .filter((key) => !key.startsWith('$'))
    .join(', ');
}

function valueAt(config: unknown, pointer: string): unknown {
  let value = config;
  for (const token of pointer.split('/').slice(1).map(unescapeToken))
    value = (value as Record<string, unknown> | undefined)?.[token];
  return value;
}

/** A pointer's place in the file: the position of each of its keys among its siblings (absent keys last). */
function documentOrder(pointer: string, config: unknown): number[] {
  const order: number[] = [];
  let value = config;
  for (const token of pointer.split('/').slice(1).map(unescapeToken)) {
    const keys = value !== null && typeof value === 'object' ? Object.keys(value) : [];
    const index = keys.indexOf(token);
    order.push(index < 0 ? Infinity : index);
    value = (value as Record<string, unknown> | undefined)?.[token];
  }
  return order;
}

function compareOrder(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  return a.length - b.length;
}
