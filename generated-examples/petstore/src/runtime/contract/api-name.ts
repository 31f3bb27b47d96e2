/**
 * What an API is called: the words of a spec's title that name the API. A title names the document as often as
 * the API ("GitHub's official OpenAPI spec + Octokit extension", "Spotify Web API with fixes and improvements from
 * sonallux", "Swagger Petstore - OpenAPI 3.0"). The generator makes the project's name from these words
 * (src/emit/project-name.ts); the server's instructions and the meta-tools call the API by them ("the GitHub API").
 */

/** Title words that name no API: document kinds, protocols, qualities, articles. */
const FILLER = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'api',
  'apis',
  'openapi',
  'swagger',
  'spec',
  'specs',
  'specification',
  'definition',
  'definitions',
  'documentation',
  'docs',
  'reference',
  'official',
  'public',
  'rest',
  'restful',
  'web',
  'http',
  'https',
  'json',
  'yaml',
  'service',
  'services',
  'endpoint',
  'endpoints',
  'interface',
  'server',
  'mcp',
  'version',
  'alpha',
  'beta',
  'preview',
]);
/** Where a title's trailing clause starts: "X with fixes", "X for Y", "X - OpenAPI 3.0", "X (Preview)", "X + Y". */
const CLAUSE_BREAK = /\s+(?:with|for|from|by|via|using)\s+|\s+[-–—+|/]\s+|[:;,([{]/i;

/**
 * The title's parts from its first clause on, possessives dropped: the first part with a word that names the API
 * is the name, the rest a trailing clause.
 */
export function titleClauses(title: string): string[] {
  return withoutPossessives(title).split(CLAUSE_BREAK);
}

/** "GitHub's" → "GitHub": the API's name, not a word of its own. */
export function withoutPossessives(title: string): string {
  return title.replace(/['’]s\b/gi, '');
}

/** A word of a title that names the API (compared in lower case): not filler, not a version. */
export function namesApi(word: string): boolean {
  const lower = word.toLowerCase();
  return !FILLER.has(lower) && !isVersionToken(lower);
}

/** `v2`, `3`, `2022`, `v1beta1`, `v1.0`: numbers and versions say nothing about which API it is. */
export function isVersionToken(word: string): boolean {
  return /^v\d+(?:[a-z]+\d*)?$|^\d+$|^v?\d+(?:\.\d+)+$/.test(word);
}

/** Longest name the meta-tools repeat: the listing stays the same size whatever the spec's title says. */
const MAX_NAME_CHARS = 60;

/**
 * "the GitHub API", "the Gmail API" (not "the Gmail API API"), "the Petstore API": the title's words that name the
 * API, with its case, and "API" after them unless they say it ("RapidAPI"). The title as written when no word
 * of it names the API.
 */
export function apiName(title: string): string {
  const words = titleClauses(title)
    .map((clause) =>
      clause
        .split(/\s+/)
        .map(trimPunctuation)
        .filter((w) => w !== '' && namesApi(w)),
    )
    .find((clause) => clause.length > 0);
  const name = words ? words.join(' ') : trimPunctuation(title.trim());
  if (name === '') return 'API';
  const cut = name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS - 1)}…` : name;
  return /\bapi\b/i.test(cut) || cut.endsWith('API') ? cut : `${cut} API`;
}

function trimPunctuation(word: string): string {
  return word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
}
