/**
 * What the operation search indexes for each tool: the words that tell a model which operation does what
 * a person asked for. Read from the tools and the API model only (the IR), never the raw spec.
 */
import type { OperationSummary, SearchDocument } from '../../../templates/runtime/contract/search/search-index.js';
import type { ApiModel, JsonSchema, TagModel, ToolModel } from '../../ir/types.js';
import { isDeprecated } from '../../tools/deprecation.js';
import { isPlainObject } from '../../util/stable.js';
import { memoized } from '../../../templates/runtime/contract/memo.js';
import { literalSegments, pathSegments } from '../primitives/path-resources.js';
import { firstSentence, plainStart } from '../plain-text.js';
import { operationKinds } from './value-kinds.js';

/**
 * Enough of a long description to say what the operation is for; the rest is mostly caveats and examples.
 * Indexing descriptions and argument docs whole, as the plain text a model reads (Markdown lexed), did not
 * raise the held-out retrieval figures and cost GitHub's generation a third of a second: starts are read.
 */
const DESCRIPTION_CHARS = 300;
const ARGUMENT_DOC_CHARS = 100;
const TAG_DESCRIPTION_CHARS = 160;
const SUMMARY_CHARS = 160;

/** `groupOf`: each tool's browsing group, by tool index. */
export function searchDocuments(
  api: ApiModel,
  tools: readonly ToolModel[],
  groupOf: readonly string[],
): SearchDocument[] {
  const tags = new Map(api.tags.map((t) => [t.name, t]));
  return tools.map((tool, index) => {
    const args = argumentWords(tool, api.schemas);
    return {
      fields: {
        name: `${tool.name} ${tool.operationId ?? ''}`,
        summary: withoutMethodNames(summaryOf(tool)),
        tags: tool.tags.map((name) => tagWords(name, tags.get(name))).join(' '),
        resource: literalSegments(tool.source.path).join(' '),
        action: actionWords(tool),
        params: args.names.join(' '),
        argdocs: args.docs.join(' '),
        values: args.bodyValues.join(' '),
        filters: args.filterValues.join(' '),
        returns: tool.responseWords?.names.join(' ') ?? '',
        returnFields: tool.responseWords?.properties.join(' ') ?? '',
        description: withoutMethodNames(plainStart(specText(tool), DESCRIPTION_CHARS)),
        kinds: operationKinds(tool, api.schemas),
      },
      operation: operationSummary(tool, groupOf[index]!),
    };
  });
}

function operationSummary(tool: ToolModel, group: string): OperationSummary {
  const required = tool.inputSchema['required'];
  return {
    name: tool.name,
    method: tool.source.method.toUpperCase(),
    path: tool.source.path,
    summary: summaryOf(tool),
    required: Array.isArray(required) ? required.filter((r): r is string => typeof r === 'string') : [],
    group,
    ...(isDeprecated(tool) ? { deprecated: true as const } : {}),
  };
}

/**
 * HTTP method names written as such ("connect GET requests to proxy of Pod") name the protocol, not what the
 * operation does: indexed, they pull "get me the pods" toward proxies.
 */
function withoutMethodNames(text: string): string {
  return text.replace(/\b(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b/g, ' ');
}

function tagWords(name: string, tag: TagModel | undefined): string {
  return [name, tag?.displayName ?? '', (tag?.description ?? '').slice(0, TAG_DESCRIPTION_CHARS)].join(' ');
}

/**
 * The HTTP method as the verb people use: GET on a collection lists, on an item gets; POST creates; PUT
 * and PATCH update; DELETE deletes. Summaries usually say so too, but not always ("Issues for a repo").
 */
function actionWords(tool: ToolModel): string {
  const last = pathSegments(tool.source.path).at(-1);
  switch (tool.source.method) {
    case 'get':
      return last && !last.param ? 'list' : 'get';
    case 'post':
      return 'create';
    case 'put':
      return 'update replace';
    case 'patch':
      return 'update';
    case 'delete':
      return 'delete';
    default:
      return '';
  }
}

interface ArgumentWords {
  names: string[];
  /** What each argument is for, the start of its description: "Whether to archive this repository." */
  docs: string[];
  /** Enum values and flags of the request body: setting one is often the action itself (`state: closed`, `archived`). */
  bodyValues: string[];
  /** Enum values of query and other parameters (they narrow a listing), and word examples of any argument. */
  filterValues: string[];
}

function argumentWords(tool: ToolModel, defs: Record<string, JsonSchema>): ArgumentWords {
  const words: ArgumentWords = { names: [], docs: [], bodyValues: [], filterValues: [] };
  const bodyArg = tool.request.body?.arg;
  const args = propertiesOf(tool.inputSchema, defs);
  for (const name of Object.keys(args)) {
    if (name === bodyArg) {
      const props = propertiesOf(args[name], defs);
      for (const prop of Object.keys(props)) {
        words.names.push(prop);
        const propSchema = props[prop];
        const resolved = addDocWords(propSchema, defs, words);
        addEnumWords(propSchema, defs, words.bodyValues);
        // A flag in a body is an action too: `archived: true` archives a repository.
        if (resolved?.['type'] === 'boolean') words.bodyValues.push(prop);
      }
      continue;
    }
    words.names.push(name);
    addDocWords(args[name], defs, words);
    addEnumWords(args[name], defs, words.filterValues);
  }
  return words;
}

/** Adds an argument's description and word examples; returns its schema, resolved. */
function addDocWords(schema: unknown, defs: Record<string, JsonSchema>, words: ArgumentWords): JsonSchema | undefined {
  const resolved = resolve(schema, defs);
  const doc = resolved?.['description'];
  if (typeof doc === 'string') words.docs.push(argumentDoc(doc));
  const examples = resolved?.['examples'];
  if (Array.isArray(examples))
    for (const example of examples) if (isWordExample(example)) words.filterValues.push(example);
  return resolved;
}

/**
 * The start of an argument's description as plain text. Descriptions repeat (GitHub's `owner`, `repo` and
 * `per_page` in hundreds of operations): each is made plain once.
 */
const argumentDoc = memoized((doc) => plainStart(doc, ARGUMENT_DOC_CHARS));

/**
 * An example that is a word or two ("public", "created desc") shows what an argument selects; identifiers,
 * dates and numbers match no one's request and only add terms.
 */
function isWordExample(example: unknown): example is string {
  return typeof example === 'string' && example.length <= MAX_EXAMPLE_CHARS && /^[\p{L} _-]+$/u.test(example);
}

const MAX_EXAMPLE_CHARS = 40;

const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'] as const;

/**
 * An object schema's properties, through `$ref`s and the branches of allOf/anyOf/oneOf (a branch's
 * properties first, the schema's own over them). Plain loops: this runs for every argument of every tool, and
 * the same code written with spreads and flatMap took V8 a tenth of a second to optimize.
 */
export function propertiesOf(schema: unknown, defs: Record<string, JsonSchema>, depth = 0): Record<string, unknown> {
  const resolved = resolve(schema, defs);
  if (!resolved || depth > 3) return {};
  const merged: Record<string, unknown> = {};
  for (const key of COMPOSITIONS) {
    const branches = resolved[key];
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) assign(merged, propertiesOf(branch, defs, depth + 1));
  }
  const own = resolved['properties'];
  if (isPlainObject(own)) assign(merged, own);
  return merged;
}

/** Object.assign's copy (its own enumerable keys, set in order), without the call's spread of arguments. */
function assign(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const key of Object.keys(source)) target[key] = source[key];
}

/** Appends the string enum and const values of a schema, of its items and of its anyOf/oneOf branches. */
function addEnumWords(schema: unknown, defs: Record<string, JsonSchema>, out: string[], depth = 0): void {
  const resolved = resolve(schema, defs);
  if (!resolved || depth > 3) return;
  const values = resolved['enum'];
  if (Array.isArray(values)) for (const value of values) if (typeof value === 'string') out.push(value);
  if (typeof resolved['const'] === 'string') out.push(resolved['const']);
  addEnumWords(resolved['items'], defs, out, depth + 1);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const branches = resolved[key];
    if (Array.isArray(branches)) for (const branch of branches) addEnumWords(branch, defs, out, depth + 1);
  }
}

export function resolve(schema: unknown, defs: Record<string, JsonSchema>): JsonSchema | undefined {
  if (!isPlainObject(schema)) return undefined;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return defs[ref.slice('#/$defs/'.length)];
  return schema;
}

/** The title, else the description's first sentence (Stripe has no summaries: "<p>Creates a new customer object.</p>"). */
export function summaryOf(tool: ToolModel): string {
  let summary = summaries.get(tool);
  if (summary === undefined)
    summaries.set(tool, (summary = firstSentence(tool.title ?? specText(tool), SUMMARY_CHARS) || tool.name));
  return summary;
}

/** The spec's own description, not the listing's condensed one: the index reads what the spec says. */
function specText(tool: ToolModel): string {
  return tool.fullDescription ?? tool.description;
}

/** The search index, its results and the browsing groups all show a tool's summary. */
const summaries = new WeakMap<ToolModel, string>();
