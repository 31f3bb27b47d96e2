/**
 * The generated project's names: the npm package (and MCP server) name, and the short server key its README
 * registers it under in each client. The key is what hosts prefix tool names with (`mcp__<key>__<tool>`), so it
 * decides how long tool names may be (src/tools/host-limits.ts); it is chosen before tools are named.
 */
import { basename, resolve } from 'node:path';
import {
  isVersionToken,
  namesApi,
  titleClauses,
  withoutPossessives,
} from '../../templates/runtime/contract/api-name.js';
import { slugWords } from './names.js';

export interface ProjectNames {
  /** npm package name, also the MCP server name (`serverInfo.name`). */
  packageName: string;
  /** The key in the README's registration snippets: `[a-z0-9-]`, at most MAX_SERVER_KEY_LENGTH characters. */
  serverKey: string;
}

/** `--name` wins; else the `-o` folder's name; else a short slug of the title with `-mcp`. */
export function projectNames(options: { name?: string; out?: string }, apiTitle: string): ProjectNames {
  const packageName =
    options.name ??
    (options.out !== undefined ? folderPackageName(options.out) : undefined) ??
    `${shortTitleSlug(apiTitle)}-mcp`;
  return { packageName, serverKey: serverKey(packageName) };
}

/** `out/GitHub_MCP` → `github-mcp`; undefined when nothing of the name is usable (the title decides then). */
function folderPackageName(out: string): string | undefined {
  const words = slugWords(basename(resolve(out)));
  return words.length > 0 ? words.join('-').slice(0, 214).replace(/-+$/, '') : undefined;
}

const MAX_SLUG_WORDS = 3;
const MAX_SLUG_LENGTH = 24;

/**
 * A few words naming the API: possessives, filler words and version tokens dropped, a trailing clause cut
 * (unless nothing else names the API), at most MAX_SLUG_WORDS words and MAX_SLUG_LENGTH characters.
 * `GitHub's official OpenAPI spec + Octokit extension` → `github`; never empty (`api` when no word is usable).
 */
export function shortTitleSlug(title: string): string {
  const words =
    titleClauses(title)
      .map((clause) => slugWords(clause).filter(namesApi))
      .find((w) => w.length > 0) ?? slugWords(withoutPossessives(title)).filter((w) => !isVersionToken(w));
  return fitWords(words, MAX_SLUG_WORDS, MAX_SLUG_LENGTH) || 'api';
}

/** Whole words joined by `-` while they fit; a first word alone longer than the limit is cut. */
function fitWords(words: readonly string[], maxWords: number, maxLength: number): string {
  let result = '';
  for (const word of words.slice(0, maxWords)) {
    const next = result ? `${result}-${word}` : word;
    if (next.length > maxLength) return result || word.slice(0, maxLength);
    result = next;
  }
  return result;
}

/** Hosts prefix every tool name with the key, so it is kept short (see src/tools/host-limits.ts). */
export const MAX_SERVER_KEY_LENGTH = 20;

/**
 * The package name without scope and `mcp` affixes, in `[a-z0-9-]` (Gemini CLI splits `mcp_<server>_<tool>` at the
 * first `_`, so the key has none): `@me/github-mcp` → `github`, `mcp-server-slack` → `slack`.
 */
export function serverKey(packageName: string): string {
  const words = slugWords(packageName.replace(/^@[^/]*\//, ''));
  const trimmed = trimMcpAffixes(words);
  return fitWords(trimmed.length > 0 ? trimmed : words, Number.POSITIVE_INFINITY, MAX_SERVER_KEY_LENGTH) || 'api';
}

/** `mcp-…`, `mcp-server-…`, `…-mcp`, `…-mcp-server`. */
function trimMcpAffixes(words: readonly string[]): string[] {
  let start = 0;
  let end = words.length;
  if (words[0] === 'mcp') start = words[1] === 'server' ? 2 : 1;
  if (words[end - 1] === 'mcp') end -= 1;
  else if (words[end - 1] === 'server' && words[end - 2] === 'mcp') end -= 2;
  return words.slice(start, Math.max(start, end));
}
