/**
 * Where each required argument of an operation comes from: the operations whose results supply it. A model that
 * found "add to queue" (required `uri`) learns it takes the `uri` of a track from `search` or an album's tracks;
 * "add the first song of that album to my queue" is then a chain it can plan. Read from the IR only:
 * - the spec's response links name the operation and parameter they fill: those come first;
 * - else an operation returns an object (the response, or the items of a list in it: normalize/returned-objects.ts)
 *   of the kind the argument's name, description or example mentions (`spotify:track:…` → a track), with a field
 *   of the argument's name and a compatible type (`uri` ↔ `uri`); only for identifiers (path parameters, names
 *   ending in `id`, `uri`, `number`…): a new playlist's `name` is the caller's to choose;
 * - or the argument names a thing and one of its fields (`album_id`, `issue_number`, `{customer}` or `{id}` under
 *   `/customers/`): objects that are such a thing (by the head word of their schema's name or of the list they
 *   come in, or by the path that returns them) supply that field.
 * Suppliers rank by link; then GET operations first, those that return the value in a list first (`/v1/invoices`
 * before `/v1/invoices/upcoming`), current before deprecated, then GETs of a collection path; then operations of the same part of the API
 * (shared path segments), objects nearer the response's root, fewer required arguments, shorter paths. At most
 * MAX_SUPPLIERS per argument.
 */
import type { ApiModel, JsonSchema, OperationModel, ToolModel } from '../../ir/types.js';
import { isDeprecated } from '../../tools/deprecation.js';
import { isPlainObject } from '../../util/stable.js';
import { literalSegments, pathSegments } from '../primitives/path-resources.js';

export const MAX_SUPPLIERS = 3;

/** Argument (a body property as `body.name`) → the tools that supply it, by index, best first. */
export type ArgumentSources = Record<string, number[]>;

/** Each tool's sources, by tool index; undefined when no required argument of it has a supplier. */
export function argumentSources(api: ApiModel, tools: readonly ToolModel[]): Array<ArgumentSources | undefined> {
  const operations = new Map(api.operations.map((op) => [op.pointer, op]));
  const profiles = tools.map((tool) => toolProfile(tool, operations.get(tool.source.pointer), api.schemas));
  const fields = fieldIndex(profiles);
  const links = linkIndex(profiles);
  return profiles.map((target, index) => {
    let sources: ArgumentSources | undefined;
    for (const argument of target.required) {
      const suppliers = rankedSuppliers(argument, index, profiles, fields, links.get(index));
      if (suppliers.length > 0) (sources ??= {})[argument.key] = suppliers;
    }
    return sources;
  });
}

/** A required argument, as the search result names it, with what matching needs of it. */
interface RequiredArgument {
  key: string;
  /** The name on the wire (a link names the parameter so). */
  name: string;
  type: string | undefined;
  /** The thing the argument identifies and which of its fields it is, when its name or path says so. */
  names?: { thing: string[]; field: string };
  /** Words of the argument's name, resource and description: a supplier whose objects are one of these is apt. */
  hints: Set<string>;
  /** The collection it picks from, singular: for a path parameter the literal segment before it. */
  resource?: string;
  /** A path parameter, or a name that ends in an identity word (`uri`, `album_id`): taken from results. */
  identifier: boolean;
  /** An enum or boolean: chosen from the spec's values, never supplied. */
  chosen: boolean;
}

interface ToolProfile {
  tool: ToolModel;
  op: OperationModel | undefined;
  required: RequiredArgument[];
  /** Last literal path segment, singular: what a GET on the path returns. */
  resource: string | undefined;
  /** GET whose path ends in a literal segment (a collection or a search). */
  list: boolean;
  get: boolean;
  deprecated: boolean;
  segments: number;
  literals: string[];
}

function toolProfile(tool: ToolModel, op: OperationModel | undefined, defs: Record<string, JsonSchema>): ToolProfile {
  const segments = pathSegments(tool.source.path);
  const last = segments.at(-1);
  return {
    tool,
    op,
    required: requiredArguments(tool, op, defs),
    resource: last && !last.param ? singular(last.text.toLowerCase()) : undefined,
    list: tool.source.method === 'get' && last !== undefined && !last.param,
    get: tool.source.method === 'get',
    deprecated: isDeprecated(tool),
    segments: segments.length,
    literals: literalSegments(tool.source.path),
  };
}

/** Required path, query and header parameters, then the required top-level properties of the body. */
function requiredArguments(
  tool: ToolModel,
  op: OperationModel | undefined,
  defs: Record<string, JsonSchema>,
): RequiredArgument[] {
  const required = new Set(stringList(tool.inputSchema['required']));
  const properties = propertiesOf(tool.inputSchema, defs);
  const args: RequiredArgument[] = [];
  const segments = pathSegments(tool.source.path);
  const last = segments.at(-1);
  const collection = last && !last.param ? singular(last.text.toLowerCase()) : undefined;
  for (const plan of tool.request.params) {
    if (!required.has(plan.arg)) continue;
    const param = op?.parameters.find((p) => p.name === plan.name && p.in === plan.in);
    const schema = resolve(param?.schema, defs);
    const at = segments.findIndex((s) => s.param && s.text === `{${plan.name}}`);
    const before = at > 0 ? segments[at - 1] : undefined;
    // A path parameter identifies an item of the collection before it; `ids` in a query, items of the path's.
    const resource = plan.in === 'path' ? before && !before.param && singular(before.text.toLowerCase()) : collection;
    const described = param?.description ?? schema?.['description'];
    args.push(requiredArgument(plan.arg, plan.name, schema, resource || undefined, plan.in === 'path', described));
  }
  const bodyArg = tool.request.body?.arg;
  const body = bodyArg === undefined ? undefined : resolve(properties[bodyArg], defs);
  if (bodyArg !== undefined && body) {
    const bodyProps = propertiesOf(body, defs);
    for (const name of stringList(body['required'])) {
      const schema = resolve(bodyProps[name], defs);
      args.push(requiredArgument(`${bodyArg}.${name}`, name, schema, undefined, false, schema?.['description']));
    }
  }
  return args;
}

function requiredArgument(
  key: string,
  name: string,
  schema: JsonSchema | undefined,
  resource: string | undefined,
  inPath: boolean,
  description: unknown,
): RequiredArgument {
  const type = schemaType(schema);
  const nameWords = words(name);
  const names = thingNamed(nameWords, resource);
  // An example value often says what it is: `spotify:track:4iV5W9uYEdYUVa79Axb7Rh`.
  const text = [description, ...examplesOf(schema)].filter((t) => typeof t === 'string').join(' ');
  const hints = new Set([...(names?.thing ?? []), ...words(text)].filter((w) => !GENERIC_WORDS.has(w)));
  const identifier = inPath || IDENTIFIER_WORDS.has(nameWords.at(-1) ?? '');
  return {
    key,
    name,
    type,
    hints,
    identifier,
    chosen: type === 'boolean' || isChoice(schema),
    ...(names ? { names } : {}),
    ...(resource ? { resource } : {}),
  };
}

function examplesOf(schema: JsonSchema | undefined): unknown[] {
  const examples = schema?.['examples'];
  return [...(Array.isArray(examples) ? examples : []), schema?.['example']];
}

/** An enum or const (or an array of one) is picked from the values the spec lists, not taken from a result. */
function isChoice(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  if (Array.isArray(schema['enum']) || schema['const'] !== undefined) return true;
  const items = schema['items'];
  return isPlainObject(items) && (Array.isArray(items['enum']) || items['const'] !== undefined);
}

/**
 * The last word of an argument that names a thing's identity: such a value is taken from a result. Other
 * arguments (a new playlist's `name`, a `volume_percent`) are the caller's own values, whatever results hold.
 */
const IDENTIFIER_WORDS = new Set('id uri number slug sha uuid guid login username handle ref'.split(' '));

/**
 * What thing an argument identifies, and by which field: `album_id` → album's id, `issue_number` → issue's
 * number, `{id}` under `/albums/` → album's id, `customer` (or `{customer}` under `/customers/`) → customer's id.
 */
function thingNamed(nameWords: string[], resource: string | undefined): RequiredArgument['names'] {
  if (nameWords.length >= 2) return { thing: nameWords.slice(0, -1), field: nameWords.at(-1)! };
  const [only] = nameWords;
  if (only === 'id') return resource ? { thing: words(resource), field: 'id' } : undefined;
  if (only === undefined || GENERIC_WORDS.has(only)) return undefined;
  if (IDENTIFIER_WORDS.has(only)) return undefined;
  return { thing: [only], field: 'id' };
}

/** One field of one object a tool returns. */
interface FieldEntry {
  tool: number;
  type: string;
  /**
   * What the object is: the head word of each of its names (`album` of `SimplifiedAlbumObject`, `policy` of
   * `deployment-branch-policy`), and for the response itself the resource of the path that returns it.
   */
  thing: Set<string>;
  /** Every word of its names, for a thing of several words (`team_discussion_number`). */
  words: Set<string>;
  depth: number;
  listed: boolean;
}

/**
 * Field name → head word of what the object is → every object field of that name and kind that a tool returns,
 * by tier (tierOf), in tool order.
 */
type FieldIndex = Map<string, Map<string, FieldEntry[][]>>;

/**
 * Only the field names some required argument looks up (its own name, or the field its name says) are
 * indexed: GitHub's operations return objects of a hundred fields each (a full repository), few of them
 * sought, and indexing them all cost ~10 ms more.
 */
function fieldIndex(profiles: readonly ToolProfile[]): FieldIndex {
  const index: FieldIndex = new Map();
  const sought = soughtFields(profiles);
  const named = new Map<readonly string[], { heads: string[]; words: Set<string> }>();
  profiles.forEach((profile, tool) => {
    for (const object of profile.op?.returns ?? []) {
      let names = named.get(object.entity);
      if (!names) named.set(object.entity, (names = entityWords(object.entity)));
      const thing = new Set(names.heads);
      if (object.depth === 0 && profile.resource) thing.add(profile.resource);
      for (const [name, type] of Object.entries(object.fields)) {
        if (!sought.has(name)) continue;
        let byThing = index.get(name);
        if (!byThing) index.set(name, (byThing = new Map()));
        const entry = { tool, type, thing, words: names.words, depth: object.depth, listed: object.listed };
        const tier = tierOf(profile, object.listed);
        for (const head of thing) {
          let tiers = byThing.get(head);
          if (!tiers) byThing.set(head, (tiers = []));
          (tiers[tier] ??= []).push(entry);
        }
      }
    }
  });
  return index;
}

/** The field names rankedSuppliers may look up: every required argument's name, and the field it names. */
function soughtFields(profiles: readonly ToolProfile[]): Set<string> {
  const sought = new Set<string>();
  for (const profile of profiles)
    for (const argument of profile.required) {
      sought.add(argument.name);
      if (argument.names) sought.add(argument.names.field);
    }
  return sought;
}

function entityWords(entity: readonly string[]): { heads: string[]; words: Set<string> } {
  const heads: string[] = [];
  const all = new Set<string>();
  for (const name of entity) {
    const nameWords = words(name).filter((w) => !GENERIC_WORDS.has(w));
    for (const w of nameWords) all.add(w);
    if (nameWords.length > 0) heads.push(nameWords.at(-1)!);
  }
  return { heads, words: all };
}

/** Target tool → parameter name → the tools whose response links fill it. */
function linkIndex(profiles: readonly ToolProfile[]): Map<number, Map<string, number[]>> {
  const byOperationId = new Map<string, number>();
  const byPointer = new Map<string, number>();
  profiles.forEach((p, i) => {
    if (p.op?.operationId !== undefined && !byOperationId.has(p.op.operationId)) byOperationId.set(p.op.operationId, i);
    byPointer.set(p.tool.source.pointer, i);
  });
  const index = new Map<number, Map<string, number[]>>();
  profiles.forEach((profile, supplier) => {
    for (const link of profile.op?.links ?? []) {
      const target =
        link.operationId !== undefined
          ? byOperationId.get(link.operationId)
          : byPointer.get(localPointer(link.operationRef ?? ''));
      if (target === undefined || target === supplier) continue;
      let params = index.get(target);
      if (!params) index.set(target, (params = new Map()));
      for (const name of link.parameters) {
        const suppliers = params.get(name) ?? [];
        if (!suppliers.includes(supplier)) params.set(name, [...suppliers, supplier]);
      }
    }
  });
  return index;
}

/** `#/paths/~1users~1{id}/get`, also written as a URL to the same document: its fragment. */
function localPointer(ref: string): string {
  const hash = ref.indexOf('#');
  return hash >= 0 ? decodeURIComponent(ref.slice(hash)) : ref;
}

interface Candidate {
  tool: number;
  linked: boolean;
  depth: number;
  /** The value comes in a list (`/v1/invoices`), not in one object (`/v1/invoices/upcoming`). */
  listed: boolean;
  /** Literal path segments the supplier shares with the target: an operation of the same part of the API. */
  near: number;
}

function rankedSuppliers(
  argument: RequiredArgument,
  target: number,
  profiles: readonly ToolProfile[],
  fields: FieldIndex,
  links: ReadonlyMap<string, number[]> | undefined,
): number[] {
  if (argument.chosen) return [];
  const best = new Map<number, Candidate>();
  const targetSegments = new Set(profiles[target]!.literals);
  // Per supplier, once: -1 when it cannot supply, else how near the target it is.
  const nearness = new Map<number, number>();
  const offer = (tool: number, linked: boolean, depth: number, listed: boolean) => {
    const known = best.get(tool);
    if (known && !betterFind({ linked, listed, depth }, known)) return;
    let near = nearness.get(tool);
    if (near === undefined) {
      const supplier = profiles[tool]!;
      const excluded = tool === target || needsSame(supplier, argument);
      near = excluded ? -1 : supplier.literals.filter((s) => targetSegments.has(s)).length;
      nearness.set(tool, near);
    }
    if (near >= 0) best.set(tool, { tool, linked, depth, listed, near });
  };
  for (const tool of links?.get(argument.name) ?? []) offer(tool, true, 0, false);
  // Finds come tier by tier (fieldIndex sorts them so), and every find of a tier ranks above any of the next:
  // once a tier leaves MAX_SUPPLIERS candidates, the rest cannot enter. On Microsoft Graph (11,422 operations,
  // most returning objects with an `id`) reading every find of every argument cost seconds.
  const finds = findsFor(argument, fields);
  for (let tier = 0; tier < TIERS && best.size < MAX_SUPPLIERS; tier++) {
    for (const { entries, fits } of finds)
      for (const entry of entries[tier] ?? []) if (fits(entry)) offer(entry.tool, false, entry.depth, entry.listed);
  }
  return [...best.values()]
    .sort((a, b) => compareCandidates(a, b, profiles))
    .slice(0, MAX_SUPPLIERS)
    .map((c) => c.tool);
}

/** The lists of objects that may supply an argument, by tier, each with the test its objects must pass. */
function findsFor(
  argument: RequiredArgument,
  fields: FieldIndex,
): Array<{ entries: FieldEntry[][]; fits: (entry: FieldEntry) => boolean }> {
  const finds: Array<{ entries: FieldEntry[][]; fits: (entry: FieldEntry) => boolean }> = [];
  // A value the caller chooses (a name, an amount) is read from no result by its name alone; a field of the
  // same name in an object of another kind (a registry's `username`) is another thing's. A bare `{id}` is an
  // id of the thing its path names, not of anything with an id.
  const names = argument.names;
  const typed = (entry: FieldEntry) => compatible(argument.type, entry.type);
  if (argument.identifier && names?.field !== argument.name) {
    const byThing = fields.get(argument.name);
    for (const hint of byThing ? argument.hints : []) {
      const entries = byThing!.get(hint);
      if (entries) finds.push({ entries, fits: typed });
    }
  }
  const named = names && fields.get(names.field)?.get(names.thing.at(-1)!);
  if (names && named) finds.push({ entries: named, fits: (entry) => typed(entry) && isThing(names.thing, entry) });
  return finds;
}

/**
 * The part of compareCandidates that is the supplier's own, as a number: GET first, the value in a list, current
 * before deprecated, a collection path. Every find of a lower tier ranks above every find of a higher one.
 */
function tierOf(profile: ToolProfile, listed: boolean): number {
  return (profile.get ? 0 : 8) + (listed ? 0 : 4) + (profile.deprecated ? 2 : 0) + (profile.list ? 0 : 1);
}

const TIERS = 16;

/** Of two finds in one supplier's results (everything else about them is the same): linked, listed, shallower. */
function betterFind(a: Pick<Candidate, 'linked' | 'listed' | 'depth'>, b: Candidate): boolean {
  if (a.linked !== b.linked) return a.linked;
  if (a.listed !== b.listed) return a.listed;
  return a.depth < b.depth;
}

/** The object is the thing (`team discussion`): its head word, and every other word among its names. */
function isThing(thing: readonly string[], entry: FieldEntry): boolean {
  return thing.every((w) => entry.words.has(w) || entry.thing.has(w));
}

/**
 * A supplier that needs the very argument sought (`GET /albums/{id}` for the `{id}` of `/albums/{id}/tracks`,
 * or the `ids` of `GET /albums`) only hands back what the caller already has.
 */
function needsSame(supplier: ToolProfile, argument: RequiredArgument): boolean {
  return supplier.required.some(
    (r) =>
      (r.name === argument.name && r.resource === argument.resource) ||
      (r.identifier && r.resource !== undefined && r.resource === argument.resource && r.names?.field === 'id'),
  );
}

function compareCandidates(a: Candidate, b: Candidate, profiles: readonly ToolProfile[]): number {
  const pa = profiles[a.tool]!;
  const pb = profiles[b.tool]!;
  return (
    Number(b.linked) - Number(a.linked) ||
    Number(pb.get) - Number(pa.get) ||
    Number(b.listed) - Number(a.listed) ||
    Number(pa.deprecated) - Number(pb.deprecated) ||
    Number(pb.list) - Number(pa.list) ||
    b.near - a.near ||
    a.depth - b.depth ||
    pa.required.length - pb.required.length ||
    pa.segments - pb.segments ||
    a.tool - b.tool
  );
}

/** Booleans match booleans only; numbers fill a text argument (ids in paths are often typed string). */
function compatible(argument: string | undefined, field: string): boolean {
  const arg = argument === 'array' || argument === undefined ? 'any' : numeric(argument);
  const value = numeric(field);
  if (arg === 'any' || value === 'any') return true;
  return arg === value || (arg === 'string' && value === 'number');
}

function numeric(type: string): string {
  return type === 'integer' ? 'number' : type;
}

/** Words that say nothing of what a thing is: a list, an object, its parts. */
const GENERIC_WORDS = new Set(
  'object item data result search list simplified full public response entry record paging page value node base model detail info schema paginated collection array wrapper the a an of to for in on or and is be must this that with by from it its your you id'.split(
    ' ',
  ),
);

/** Lower-case words of a name or a sentence, singular: `SimplifiedAlbumObject` → simplified, album, object. */
function words(text: string): string[] {
  let found = wordsOf.get(text);
  if (!found) wordsOf.set(text, (found = splitWords(text)));
  return found;
}

/** Many arguments share a description (GitHub's `owner`, 700 times): each text is split once. */
const wordsOf = new Map<string, string[]>();

function splitWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '')
    .map(singular);
}

function singular(word: string): string {
  if (word === 'ids') return 'id';
  if (word.length <= 3 || word.endsWith('ss') || word.endsWith('us')) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(x|ch|sh|sses)es$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function schemaType(schema: JsonSchema | undefined): string | undefined {
  const type = schema?.['type'];
  if (typeof type === 'string') return type;
  return Array.isArray(type) ? type.find((t): t is string => typeof t === 'string' && t !== 'null') : undefined;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function propertiesOf(schema: JsonSchema | undefined, defs: Record<string, JsonSchema>): Record<string, unknown> {
  const properties = resolve(schema, defs)?.['properties'];
  return isPlainObject(properties) ? properties : {};
}

function resolve(schema: unknown, defs: Record<string, JsonSchema>): JsonSchema | undefined {
  if (!isPlainObject(schema)) return undefined;
  const ref = schema['$ref'];
  if (typeof ref === 'string' && ref.startsWith('#/$defs/')) return defs[ref.slice('#/$defs/'.length)];
  return schema;
}
