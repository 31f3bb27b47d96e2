/**
 * The core of hybrid mode: the operations listed as direct tools beside the meta-tools. The user names
 * them (by tool name, operationId or tag); by default they are list / get / create / update on the API's
 * main resources, which is what a person does most with any API.
 *
 * A resource is a collection in the paths (`/repos/{owner}/{repo}/issues`, items `…/issues/{number}`),
 * told apart by where it sits (a gist's comments are not an issue's). Its weight is the number of distinct
 * paths on it (the collection, its items, actions on an item such as `…/{id}/lock`), plus a quarter for
 * each path further down (`…/issues/{number}/comments`): a resource many others hang off is central to
 * the API. Paths are counted with their version segments left out, so an API that repeats a resource in
 * v1, v1beta1 and v2 does not weigh it three times. The heaviest resources give their list, get, create
 * and update operations (the simplest path for each: fewest parameters, then shortest), until the core is
 * full. A resource with no list or create of its own at that place borrows one of the same name elsewhere
 * (GitHub lists repositories at `/user/repos`, not at `/repos`).
 *
 * The default core also fits a token budget (`CoreBudget`: what the model reads of the listing, less the
 * meta-tools'): a tool that would pass what is left is skipped, and the ones after it still get their chance.
 */
import type { ToolModel } from '../../ir/types.js';
import { isDeprecated } from '../../tools/deprecation.js';
import { pathSegments, type PathSegment } from '../primitives/path-resources.js';

/** How many direct tools hybrid mode lists when the user names none: well under the tightest client cap. */
export const DEFAULT_CORE_SIZE = 15;

type CoreRole = 'list' | 'get' | 'create' | 'update';
const FIRST_ROLES: readonly CoreRole[] = ['list', 'get', 'create'];
const LATER_ROLES: readonly CoreRole[] = ['update'];
const DESCENDANT_WEIGHT = 0.25;
/** Less budget than this left holds no tool (a name, a one-line description and an empty schema cost about 40). */
const MIN_TOOL_TOKENS = 40;

/** What each tool costs the listing (by index into `tools`), and how much the core may cost in all. */
export interface CoreBudget {
  cost: (index: number) => number;
  tokens: number;
}

/** A named core (--core, --core-tag) is the user's choice: it is listed whatever it costs. */
export function chooseCore(
  tools: readonly ToolModel[],
  names: readonly string[],
  tags: readonly string[],
  budget?: CoreBudget,
): string[] {
  if (names.length > 0 || tags.length > 0) {
    const wanted = new Set(names);
    const tagSet = new Set(tags);
    return tools
      .filter(
        (t) =>
          wanted.has(t.name) ||
          (t.operationId !== undefined && wanted.has(t.operationId)) ||
          t.tags.some((g) => tagSet.has(g)),
      )
      .map((t) => t.name);
  }
  return defaultCore(tools, DEFAULT_CORE_SIZE, budget);
}

interface Placed {
  tool: ToolModel;
  index: number;
  /** Where the resource it acts on sits: its path up to the collection, templates as `{}`. */
  resource: string;
  /** The collection's own name (`issues`). */
  noun: string;
  role: CoreRole | undefined;
  /** The resources above it in the path. */
  ancestors: string[];
  shape: string;
  params: number;
}

export function defaultCore(tools: readonly ToolModel[], size: number, budget?: CoreBudget): string[] {
  const collections = collectionNouns(tools);
  const placed = tools.flatMap((tool, index) => {
    if (isDeprecated(tool)) return [];
    const p = place(tool, index, collections);
    return p ? [p] : [];
  });
  const weight = resourceWeights(placed);
  const resources = [...weight].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([r]) => r);
  const chosen = new Set<number>();
  let left = budget?.tokens ?? Infinity;
  // Reads and creation on as many resources as fit first; updates only with the room that is left.
  filling: for (const roles of [FIRST_ROLES, LATER_ROLES]) {
    for (const resource of resources) {
      for (const role of roles) {
        if (chosen.size >= size || left < MIN_TOOL_TOKENS) break filling;
        const best = bestFor(placed, resource, role);
        if (!best || chosen.has(best.index)) continue;
        const cost = budget ? budget.cost(best.index) : 0;
        if (cost > left) continue;
        chosen.add(best.index);
        left -= cost;
      }
    }
  }
  return [...chosen].sort((a, b) => a - b).map((i) => tools[i]!.name);
}

function bestFor(placed: readonly Placed[], resource: string, role: CoreRole): Placed | undefined {
  const own = placed.filter((p) => p.resource === resource);
  const found = simplest(own.filter((p) => p.role === role));
  if (found || (role !== 'list' && role !== 'create')) return found;
  // Borrowed only from a more general place (fewer templates): not `…/branches/{b}/restrictions/users` for `/users`.
  const item = Math.max(...own.map((p) => p.params));
  return simplest(placed.filter((p) => p.noun === own[0]!.noun && p.role === role && p.params < item));
}

function resourceWeights(placed: readonly Placed[]): Map<string, number> {
  const ownPaths = new Map<string, Set<string>>();
  const belowPaths = new Map<string, Set<string>>();
  const add = (map: Map<string, Set<string>>, key: string, shape: string) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(shape);
  };
  for (const p of placed) {
    add(ownPaths, p.resource, p.shape);
    for (const a of p.ancestors) add(belowPaths, a, p.shape);
  }
  return new Map(
    [...ownPaths].map(([r, shapes]) => [r, shapes.size + DESCENDANT_WEIGHT * (belowPaths.get(r)?.size ?? 0)]),
  );
}

function simplest(candidates: readonly Placed[]): Placed | undefined {
  return [...candidates].sort(
    (a, b) => a.params - b.params || a.tool.source.path.length - b.tool.source.path.length || a.index - b.index,
  )[0];
}

/** Nouns that are collections somewhere in the API: a literal segment followed by a template (`issues/{n}`). */
function collectionNouns(tools: readonly ToolModel[]): Set<string> {
  const nouns = new Set<string>();
  for (const tool of tools) {
    const segments = pathSegments(tool.source.path);
    segments.forEach((s, i) => {
      if (!s.param && segments[i + 1]?.param) nouns.add(s.text);
    });
  }
  return nouns;
}

function place(tool: ToolModel, index: number, collections: ReadonlySet<string>): Placed | undefined {
  const segments = pathSegments(tool.source.path);
  const chain = resourceChain(segments, collections);
  const own = chain.at(-1);
  if (own === undefined) return undefined;
  const afterOwn = segments.slice(own + 1);
  const onCollection = afterOwn.length === 0;
  const onItem = afterOwn.length > 0 && afterOwn.every((s) => s.param);
  return {
    tool,
    index,
    resource: shapeOf(segments.slice(0, own + 1)),
    noun: segments[own]!.text,
    role: roleOf(tool.source.method, onCollection, onItem),
    ancestors: chain.slice(0, -1).map((i) => shapeOf(segments.slice(0, i + 1))),
    shape: shapeOf(segments),
    params: segments.filter((s) => s.param).length,
  };
}

function shapeOf(segments: readonly PathSegment[]): string {
  return segments.map((s) => (s.param ? '{}' : s.text)).join('/');
}

/**
 * Positions of the resource nouns along a path: literal segments that are collections, and a final
 * literal segment when it follows another literal (`/v1/refunds`); a final literal after a template that is
 * no collection, like `lock` in `…/{n}/lock`, is an action on the item.
 */
function resourceChain(segments: readonly PathSegment[], collections: ReadonlySet<string>): number[] {
  const chain: number[] = [];
  segments.forEach((s, i) => {
    if (s.param) return;
    const last = i === segments.length - 1;
    if (collections.has(s.text) || (last && (i === 0 || !segments[i - 1]!.param))) chain.push(i);
  });
  return chain;
}

function roleOf(method: string, onCollection: boolean, onItem: boolean): CoreRole | undefined {
  if (onCollection && method === 'get') return 'list';
  if (onCollection && method === 'post') return 'create';
  if (onItem && method === 'get') return 'get';
  if (onItem && (method === 'patch' || method === 'put')) return 'update';
  return undefined;
}
