/**
 * Groups a model can browse when it cannot guess the words: `search_operations` without a query lists the
 * groups, and with a group lists that group's operations, so every operation is two calls away.
 *
 * A group is the operation's first tag, else its first path resource (`/v1/customers/{id}` → customers).
 * A group too large to read in one answer is split by the first path resource that its operations do not
 * all share (GitHub's `repos` tag: `repos / branches`, `repos / hooks`, …), at most twice.
 */
import type { SearchGroup } from '../../../templates/runtime/contract/search/search-index.js';
import type { ApiModel, ToolModel } from '../../ir/types.js';
import { literalSegments } from '../primitives/path-resources.js';
import { firstSentence } from '../plain-text.js';
import { summaryOf } from './search-documents.js';

/** Operations a group's listing holds at most before it is split: about 3,000 tokens of results. */
export const MAX_GROUP_SIZE = 40;
const MAX_SPLIT_DEPTH = 2;
const DESCRIPTION_CHARS = 200;
const TAG_SENTENCE_CHARS = 140;
const EXAMPLE_CHARS = 60;

export interface BrowseGroups {
  groups: SearchGroup[];
  /** The group of each tool, by tool index. */
  groupOf: string[];
}

export function browseGroups(api: ApiModel, tools: readonly ToolModel[]): BrowseGroups {
  const common = commonLiteralPrefix(tools.map((t) => literalSegments(t.source.path)));
  const top = new Map<string, number[]>();
  tools.forEach((tool, index) => {
    const key = tool.tags[0] ?? literalSegments(tool.source.path)[common] ?? 'other';
    const members = top.get(key);
    if (members) members.push(index);
    else top.set(key, [index]);
  });
  const groups: Array<{ name: string; operations: number[] }> = [];
  for (const [name, operations] of top) groups.push(...split(name, operations, tools, 0));
  const groupOf: string[] = new Array(tools.length);
  for (const group of groups) for (const index of group.operations) groupOf[index] = group.name;
  const tags = new Map(api.tags.map((t) => [t.name, t]));
  return {
    groups: groups.map((g) => ({
      ...g,
      description: describe(g.name, g.operations, tools, tags.get(g.name.split(' / ')[0]!)?.description),
    })),
    groupOf,
  };
}

function split(
  name: string,
  operations: number[],
  tools: readonly ToolModel[],
  depth: number,
): Array<{ name: string; operations: number[] }> {
  if (operations.length <= MAX_GROUP_SIZE || depth >= MAX_SPLIT_DEPTH) return [{ name, operations }];
  const paths = operations.map((i) => literalSegments(tools[i]!.source.path));
  const counts = new Map<string, number>();
  for (const segments of paths) for (const s of new Set(segments)) counts.set(s, (counts.get(s) ?? 0) + 1);
  // The first segment of each path that not every operation of the group has: its distinguishing resource.
  const shared = (s: string) => (counts.get(s) ?? 0) * 2 > operations.length;
  const parts = new Map<string, number[]>();
  operations.forEach((index, i) => {
    const key = paths[i]!.find((s) => !shared(s)) ?? paths[i]!.at(-1) ?? 'other';
    const members = parts.get(key);
    if (members) members.push(index);
    else parts.set(key, [index]);
  });
  if (parts.size <= 1) return [{ name, operations }];
  return [...parts].flatMap(([key, members]) => split(`${name} / ${key}`, members, tools, depth + 1));
}

/** A tag's own description, first sentence; then a few of the group's operations, as examples of what it holds. */
function describe(
  name: string,
  operations: readonly number[],
  tools: readonly ToolModel[],
  tagDescription: string | undefined,
): string {
  const sentence = firstSentence(tagDescription ?? '', TAG_SENTENCE_CHARS);
  const examples = operations
    .slice(0, 3)
    .map((i) => firstSentence(summaryOf(tools[i]!), EXAMPLE_CHARS).replace(/\.$/, ''));
  const text = `${sentence ? `${sentence} ` : ''}${operations.length} operation${operations.length === 1 ? '' : 's'}, e.g. ${examples.join('; ')}`;
  return text.length > DESCRIPTION_CHARS ? `${text.slice(0, DESCRIPTION_CHARS - 3).trimEnd()}...` : text || name;
}

/** How many leading literal segments every path shares (`/v1/…` everywhere: the version is already left out). */
function commonLiteralPrefix(paths: readonly string[][]): number {
  if (paths.length < 2) return 0;
  let n = 0;
  while (paths.every((p) => p.length > n + 1 && p[n] === paths[0]![n])) n++;
  return n;
}
