/**
 * Search and browse over the API's operations, for the `dynamic` and `hybrid` tool modes.
 *
 * Retrieval is MiniSearch (BM25+ with per-field boosts, prefix and fuzzy matching) over terms that
 * search-text.ts makes on both sides. The generator analyzes each operation's fields into search-index.json
 * with this module; the server indexes them on the first search. What it adds to the library:
 * - fields that hold what picks an operation, each word counted once per field: name, summary, tags, path
 *   resources, the HTTP action, argument names, and enum values (body values are actions: `state: closed`
 *   closes an issue; query values only filter);
 * - the vocabulary bridge (search-vocabulary.ts): each query word also searches its synonyms that the API
 *   uses, at a lower weight;
 * - a ranking that prefers operations matching more of the request's words, so one rare word cannot
 *   outrank an operation that matches the whole request;
 * - a best guess instead of an empty answer, and groups to browse when the words do not help.
 */
import MiniSearch, { type SearchResult } from 'minisearch';
import {
  FIELD_BOOSTS,
  FIELDS,
  type OperationSummary,
  type SearchField,
  type SearchGroup,
  type SearchIndexFile,
} from '../contract/search/search-index.js';
import { analyze, phraseWords, stemWord, withoutValues, wordTerms, words } from '../contract/search/search-text.js';
import { kindTerm, valueKinds, type ValueKind } from '../contract/search/search-values.js';
import { ACTION_SYNONYMS, entryOf, HINT_WORDS } from '../contract/search/search-vocabulary.js';

export type { OperationSummary, SearchGroup, SearchIndexFile } from '../contract/search/search-index.js';

/** How much a synonym counts against the word the request used; more when the word itself is unknown to the API. */
const SYNONYM_WEIGHT = 0.6;
const SYNONYM_WEIGHT_UNKNOWN_WORD = 0.8;
const HINT_WEIGHT = 0.25;
/**
 * How much of a request is read: it says what it wants in a sentence or two. Every distinct word costs a
 * lookup, and a long word's fuzzy matching sizes a table by its length squared: half a million words held the
 * server 143 s, one word of 200,000 characters asked for a 40 GB table.
 */
const MAX_REQUEST_CHARS = 1000;

export interface SearchHit {
  doc: number;
  score: number;
}

/** Terms are analyzed before they reach MiniSearch, on both sides: it only splits on the spaces between them. */
const MINISEARCH_OPTIONS = {
  fields: FIELDS,
  idField: 'id',
  tokenize: (text: string) => (text === '' ? [] : text.split(' ')),
  processTerm: (term: string) => term,
};

/** The stems of every verb in ACTION_SYNONYMS. */
const ACTION_VERBS = new Set(
  Object.entries(ACTION_SYNONYMS)
    .flatMap(([head, members]) => [head, ...members])
    .map((verb) => analyze(verb))
    .filter((terms) => terms.length === 1)
    .map((terms) => terms[0]!),
);

/** One word of the request: the term itself, and the synonyms it also searches for with their weights. */
interface Concept {
  term: string;
  synonyms: Map<string, number>;
  /** A hint ("my", "which"; see HINT_WORDS): it breaks ties, and an operation is not worse for lacking it. */
  hint?: boolean;
  /** A verb of ACTION_SYNONYMS: what the request wants done, which tells apart operations on the same thing. */
  action?: boolean;
  /** The kind of a value the request carries (`#email`): it matches operations whose arguments take one. */
  value?: boolean;
}

export class OperationSearch {
  private readonly mini: MiniSearch;
  /** How many operations each term occurs in. */
  private readonly documentFrequency: Map<string, number>;
  /** Each operation's summary as terms, made when first needed. */
  private readonly summaryTerms: Array<Set<string> | undefined> = [];
  /** Each operation's ranking factors that do not depend on the request: path simplicity, deprecation. */
  private readonly simplicity: number[];
  /** Every operation's summary, by catalog index. */
  private readonly operations: OperationSummary[];
  private readonly bridge: SearchIndexFile['bridge'];
  private readonly groupList: SearchGroup[];
  /** Per-operation scratch of a search (synchronous: one at a time), allocated once for all searches. */
  private readonly scratch: Scratch;

  /**
   * Keeps the file's operations, groups and synonyms, not its documents: once MiniSearch holds their terms,
   * the documents are a second copy (8 MB of heap on an API of 11,000 operations).
   */
  private constructor({ fields, documents, bridge, operations, groups }: SearchIndexFile) {
    this.mini = new MiniSearch(MINISEARCH_OPTIONS);
    this.documentFrequency = new Map();
    for (const [id, entries] of documents.entries()) {
      const row: Record<string, string | number> = { id };
      const seen = new Set<string>();
      entries.forEach((terms, i) => {
        row[fields[i]!] = terms;
        for (const term of terms.split(' ')) if (term) seen.add(term);
      });
      for (const term of seen) this.documentFrequency.set(term, (this.documentFrequency.get(term) ?? 0) + 1);
      this.mini.add(row);
    }
    this.operations = operations;
    this.bridge = bridge;
    this.groupList = groups;
    this.simplicity = operations.map((op) => simplicity(op.path) * (op.deprecated ? DEPRECATED_PREFERENCE : 1));
    this.scratch = new Scratch(operations.length);
  }

  static load(file: SearchIndexFile): OperationSearch {
    if (file.format !== 5 || file.fields.join() !== FIELDS.join())
      throw new Error(
        `search-index.json has format ${String(file.format)} (fields ${String(file.fields)}); this server reads format 5 with fields ${FIELDS.join()} (regenerate the project)`,
      );
    return new OperationSearch(file);
  }

  get groups(): readonly SearchGroup[] {
    return this.groupList;
  }

  group(name: string): SearchGroup | undefined {
    const wanted = name.trim().toLowerCase();
    return this.groupList.find((g) => g.name.toLowerCase() === wanted);
  }

  operation(doc: number): OperationSummary {
    return this.operations[doc]!;
  }

  /** The summary of the operation of that name (describe_operation shows where its arguments come from). */
  operationNamed(name: string): OperationSummary | undefined {
    return this.operations.find((op) => op.name === name);
  }

  /**
   * Operations for a request in people's words, best first. Never empty while any word of the request
   * matches any operation even loosely: a miss retries with looser spelling.
   */
  search(query: string, limit: number, within?: SearchGroup): SearchHit[] {
    const request = this.request(query.slice(0, MAX_REQUEST_CHARS));
    if (request.concepts.length === 0) return [];
    const filter = within ? membership(within) : undefined;
    const strict = this.rank(request, limit, filter, false);
    return strict.length > 0 ? strict : this.rank(request, limit, filter, true);
  }

  /** What the ranking needs of a request, worked out once for both passes. */
  private request(query: string): Request {
    const said = words(withoutValues(query));
    const concepts = [...this.concepts(said), ...this.valueConcepts(query)];
    const question = isQuestion(query);
    return {
      concepts,
      prior: this.intentPrior(
        concepts,
        question,
        said.some((w) => isPlural(w) && this.documentFrequency.has(stemWord(w))),
      ),
    };
  }

  /** The request's words, each with the synonyms the API uses. */
  private concepts(said: readonly string[]): Concept[] {
    const concepts: Concept[] = [];
    const seen = new Set<string>();
    for (const word of phraseWords(said)) {
      const hinted = entryOf(HINT_WORDS, word);
      if (hinted) {
        const [term, ...synonyms] = hinted
          .map(stemWord)
          .filter((t) => this.documentFrequency.has(t) && !seen.has(`hint:${t}`));
        for (const t of hinted) seen.add(`hint:${stemWord(t)}`);
        if (term) concepts.push({ term, synonyms: new Map(synonyms.map((t) => [t, 1])), hint: true });
        continue;
      }
      for (const term of wordTerms(word)) {
        if (seen.has(term)) continue;
        seen.add(term);
        const weight = this.documentFrequency.has(term) ? SYNONYM_WEIGHT : SYNONYM_WEIGHT_UNKNOWN_WORD;
        const synonyms = new Map(
          (entryOf(this.bridge, term) ?? []).map((t) => [t, this.synonymWeight(term, t, weight)]),
        );
        concepts.push({ term, synonyms, ...(ACTION_VERBS.has(term) ? { action: true } : {}) });
      }
    }
    return concepts;
  }

  /**
   * The kinds of the values the request carries that some operation's arguments take. Each counts toward
   * coverage as a word does: "point api.example.com at 1.2.3.4" says little in words, and an operation that
   * takes neither a domain nor an address is not what was asked. Two kinds say nothing of which argument fits:
   * a bare id (half an API's operations take one) and a quoted string (a name, a search term, a message: most
   * operations take one of those).
   */
  private valueConcepts(query: string): Concept[] {
    return valueKinds(query)
      .filter((kind) => !UNSPECIFIC_KINDS.has(kind))
      .map(kindTerm)
      .filter((term) => this.documentFrequency.has(term))
      .map((term) => ({ term, synonyms: new Map(), value: true }));
  }

  /**
   * A synonym counts at most as much as the word it stands in for: a rare synonym ("views" for "get")
   * would otherwise outscore the common word the request used, through its higher inverse document frequency.
   */
  private synonymWeight(term: string, synonym: string, weight: number): number {
    const own = this.documentFrequency.get(term);
    if (own === undefined) return weight;
    // A phrase is as rare as its rarest term.
    const rarest = Math.min(...synonym.split(' ').map((t) => this.documentFrequency.get(t) ?? 1));
    return weight * Math.min(1, this.idf(own) / this.idf(rarest));
  }

  private idf(df: number): number {
    const n = this.operations.length;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  /**
   * Each word of the request is scored on its own: by its own term, or by its best synonym, whichever
   * scores higher (a synonym never adds to a match the word already made). An operation's score is the
   * sum over words, times the coverage of the request; the best candidates are then told apart by how
   * exactly their summary says what was asked.
   */
  private rank(
    { concepts, prior }: Request,
    limit: number,
    filter: ((doc: number) => boolean) | undefined,
    loose: boolean,
  ): SearchHit[] {
    const { scratch } = this;
    const candidates = scratch.candidates;
    candidates.clear();
    const counted = concepts.filter((c) => !c.hint).length;
    for (const concept of concepts) this.creditConcept(concept, loose, filter);
    const { score } = candidates;
    for (const doc of candidates.docs)
      score[doc] = score[doc]! * coverage(candidates.covered[doc]!, counted) * prior(doc) * this.simplicity[doc]!;
    // Sorted where they are: the scratch's list of candidates is rebuilt by the next search anyway.
    const hits = candidates.docs
      .sort((a, b) => compareScores(score[a]!, score[b]!, a, b))
      .slice(0, RERANKED)
      .map((doc) => ({
        doc,
        score: score[doc]! * (1 + EXACTNESS_WEIGHT * this.exactness(doc, new Set(candidates.matched[doc]!.flat()))),
      }))
      .sort(byScore)
      .slice(0, limit);
    scratch.release();
    return hits;
  }

  /** Credits each operation the word matches with its own match or its synonyms', whichever scores higher. */
  private creditConcept(concept: Concept, loose: boolean, filter: ((doc: number) => boolean) | undefined): void {
    const { candidates, directly, synonymScore, synonymTerms } = this.scratch;
    const base = concept.hint ? HINT_WEIGHT : 1;
    // A kind term is matched as written: `#ipv4` is not a misspelt `#ipv6`.
    const spelling = concept.value ? 'exact' : loose ? 'loose' : 'prefix';
    const direct = this.scores([concept.term], new Map([[concept.term, base]]), spelling, filter);
    const synonyms = this.synonymScores(concept, base, filter);
    const own = concept.hint ? 0 : 1;
    directly.clear();
    for (const match of direct) {
      const doc = match.id as number;
      directly.add(doc);
      if (synonyms.has(doc) && synonymScore[doc]! > match.score)
        candidates.credit(doc, synonymScore[doc]!, synonymTerms[doc]!, own);
      else candidates.credit(doc, match.score, match.terms, own);
    }
    const throughSynonym = concept.hint ? 0 : SYNONYM_COVERAGE;
    for (const doc of synonyms.docs)
      if (!directly.has(doc)) candidates.credit(doc, synonymScore[doc]!, synonymTerms[doc]!, throughSynonym);
  }

  /**
   * Each operation's match through the concept's synonyms: its best synonym, and a share of the others.
   * Synonyms are matched one at a time: an operation that says "promotion code" and "discount" is a little
   * more of a coupon than one that says only one of them, not as much more as the two scores added up.
   */
  private synonymScores(concept: Concept, base: number, filter: ((doc: number) => boolean) | undefined): DocSet {
    const { synonymScore: score, synonymOthers: others, synonymTerms: terms } = this.scratch;
    const matched = this.scratch.synonyms;
    this.scratch.clearSynonyms();
    for (const [synonym, weight] of concept.synonyms) {
      const words = synonym.split(' ');
      for (const match of this.scores(
        words,
        new Map(words.map((t) => [t, weight * base])),
        'exact',
        filter,
        SYNONYM_FIELDS,
      )) {
        const doc = match.id as number;
        if (!matched.has(doc)) {
          matched.add(doc);
          score[doc] = match.score;
          terms[doc] = match.terms;
          others[doc] = 0;
        } else if (match.score > score[doc]!) {
          others[doc] = others[doc]! + score[doc]!;
          score[doc] = match.score;
          terms[doc] = [...terms[doc]!, ...match.terms];
        } else {
          others[doc] = others[doc]! + match.score;
          terms[doc]!.push(...match.terms);
        }
      }
    }
    for (const doc of matched.docs) score[doc] = score[doc]! + OTHER_SYNONYMS_SHARE * others[doc]!;
    return matched;
  }

  /**
   * MiniSearch's scores for some terms. Only a request's own words are matched by prefix, and by misspelling
   * only when the words as written found nothing (`loose`): a synonym's misspellings are noise, and fuzzy
   * matching costs most of a search.
   */
  private scores(
    terms: string[],
    weights: ReadonlyMap<string, number>,
    spelling: 'exact' | 'prefix' | 'loose',
    filter: ((doc: number) => boolean) | undefined,
    fields?: SearchField[],
  ): SearchResult[] {
    const loose = spelling === 'loose';
    return this.mini.search(
      { combineWith: 'OR', queries: terms },
      {
        boost: FIELD_BOOSTS,
        boostTerm: (term) => weights.get(term) ?? 1,
        ...(fields ? { fields } : {}),
        prefix: (term) => spelling !== 'exact' && term.length >= (loose ? 3 : 4),
        fuzzy: (term) => (loose && term.length >= 4 ? 0.34 : false),
        weights: { prefix: 0.35, fuzzy: 0.25 },
        ...(filter ? { filter: (r: SearchResult) => filter(r.id as number) } : {}),
      },
    );
  }

  /**
   * What kind of operation the request leans to. A question ("which machines are in my cluster?", "what
   * branches are there") asks to read, and so does a request with a read verb and no write verb: reads
   * rank a little above writes that match as well. A plural ("show me the pods") asks for a list. A request
   * with a write verb (create, change, delete and their synonyms) leaves the ranking alone.
   */
  private intentPrior(concepts: readonly Concept[], question: boolean, plural: boolean): (doc: number) => number {
    const said = (terms: ReadonlySet<string>) =>
      concepts.some((c) => !c.hint && (terms.has(c.term) || [...c.synonyms.keys()].some((t) => terms.has(t))));
    // Deleting is what a request least often means without saying so: of siblings that match alike, the
    // delete ranks last unless the request asks to delete or to end something (DELETE_TERMS, or their synonyms).
    const unasked = said(DELETE_TERMS) ? 1 : UNASKED_DELETE;
    const writes = (doc: number) => (this.operations[doc]!.method === 'DELETE' ? unasked : 1);
    // In a question, a write word is mostly a state ("which PRs are open?").
    if (!question && said(WRITE_TERMS)) return writes;
    // A request told with a verb that does something ("follow torvalds", "fork the repo") leans away from reads.
    if (
      !question &&
      concepts.some(
        (c) => c.action && ![...c.synonyms.keys()].some((t) => READ_VERBS.has(t)) && !READ_VERBS.has(c.term),
      )
    ) {
      return (doc) => (this.operations[doc]!.method === 'GET' ? 1 / READ_PREFERENCE : writes(doc));
    }
    if (!question && !plural && !said(READ_TERMS)) return writes;
    return (doc) => {
      const op = this.operations[doc]!;
      if (op.method !== 'GET') return writes(doc);
      return plural && !op.path.endsWith('}') ? READ_PREFERENCE * LIST_PREFERENCE : READ_PREFERENCE;
    };
  }

  /** The share of an operation's summary terms that the request matched: "Get a repository" is exactly "get a repo". */
  private exactness(doc: number, matched: ReadonlySet<string>): number {
    let terms = this.summaryTerms[doc];
    if (!terms) this.summaryTerms[doc] = terms = new Set(analyze(this.operations[doc]!.summary));
    if (terms.size === 0) return 0;
    let hit = 0;
    for (const term of terms) if (matched.has(term)) hit++;
    return hit / terms.size;
  }
}

/** A request as the ranking reads it (OperationSearch.request). */
interface Request {
  concepts: Concept[];
  /** The lean toward reads and lists (intentPrior), per operation. */
  prior: (doc: number) => number;
}

/** Of operations that match alike, the one on the shorter path is the general one ("list droplets", not "list a droplet's neighbors"). */
function simplicity(path: string): number {
  const segments = path.split('/').filter((s) => s && !s.startsWith('{')).length;
  return 1 / (1 + SEGMENT_PENALTY * Math.max(0, segments - 1));
}

/**
 * A set of operations, cleared in constant time: a mark per operation, current when it holds this set's
 * generation, and the members in the order they were added.
 */
class DocSet {
  readonly docs: number[] = [];
  private readonly marks: Uint32Array;
  private generation = 1;

  constructor(size: number) {
    this.marks = new Uint32Array(size);
  }

  has(doc: number): boolean {
    return this.marks[doc] === this.generation;
  }

  add(doc: number): void {
    this.marks[doc] = this.generation;
    this.docs.push(doc);
  }

  clear(): void {
    this.docs.length = 0;
    if (++this.generation === 0xffffffff) {
      this.marks.fill(0);
      this.generation = 1;
    }
  }
}

/** The operations a request matched so far, with what each has gathered. */
class Candidates extends DocSet {
  readonly score: Float64Array;
  /** Words of the request it matched: 1 each by the word itself, less through a synonym. */
  readonly covered: Float64Array;
  /** The index terms each word matched, as MiniSearch listed them: only the best RERANKED need them as a set. */
  readonly matched: Array<string[][] | undefined>;

  constructor(size: number) {
    super(size);
    this.score = new Float64Array(size);
    this.covered = new Float64Array(size);
    this.matched = new Array<string[][] | undefined>(size);
  }

  /** Adds one word's match to an operation's candidacy. */
  credit(doc: number, score: number, terms: string[], covered: number): void {
    if (!this.has(doc)) {
      this.add(doc);
      this.score[doc] = score;
      this.covered[doc] = covered;
      this.matched[doc] = [terms];
    } else {
      this.score[doc] = this.score[doc]! + score;
      this.covered[doc] = this.covered[doc]! + covered;
      this.matched[doc]!.push(terms);
    }
  }

  override clear(): void {
    for (const doc of this.docs) this.matched[doc] = undefined;
    super.clear();
  }
}

/**
 * What a search works with per operation, kept from search to search: a search on a large API weighs
 * thousands of operations, and what it allocated for each was most of what grew the server's heap.
 */
class Scratch {
  readonly candidates: Candidates;
  /** The operations the request's current word matched directly. */
  readonly directly: DocSet;
  /** The operations its synonyms matched, with the best synonym's score, the others' sum and their terms. */
  readonly synonyms: DocSet;
  readonly synonymScore: Float64Array;
  readonly synonymOthers: Float64Array;
  readonly synonymTerms: Array<string[] | undefined>;

  constructor(size: number) {
    this.candidates = new Candidates(size);
    this.directly = new DocSet(size);
    this.synonyms = new DocSet(size);
    this.synonymScore = new Float64Array(size);
    this.synonymOthers = new Float64Array(size);
    this.synonymTerms = new Array<string[] | undefined>(size);
  }

  /** Lets go of the last search's match terms, which would otherwise be held until the next search. */
  release(): void {
    this.candidates.clear();
    this.clearSynonyms();
  }

  clearSynonyms(): void {
    for (const doc of this.synonyms.docs) this.synonymTerms[doc] = undefined;
    this.synonyms.clear();
  }
}

/** How much the synonyms after an operation's best one add to its match (synonymScores). */
const OTHER_SYNONYMS_SHARE = 0.3;
const SYNONYM_FIELDS: SearchField[] = ['name', 'summary', 'tags', 'resource', 'action', 'values'];
const RERANKED = 50;
const UNSPECIFIC_KINDS: ReadonlySet<ValueKind> = new Set(['id', 'name']);
const READ_PREFERENCE = 1.25;
const SEGMENT_PENALTY = 0.05;
const DEPRECATED_PREFERENCE = 0.8;

const LIST_PREFERENCE = 1.2;
/** Terms of the `action` field (search-documents.ts): what a request asks to be done. */
const WRITE_TERMS = new Set(['create', 'update', 'replace', 'delete'].map(stemWord));
const READ_TERMS = new Set(['list', 'get'].map(stemWord));
/** Heads of ACTION_SYNONYMS that read: a request with any other verb asks for something to be done. */
const READ_VERBS = new Set(['list', 'get', 'search', 'count', 'check', 'download', 'compare'].map(stemWord));
/** Verbs that end or undo something, which APIs often do with DELETE (cancel a subscription, disable alerts, unfollow). */
const DELETE_TERMS = new Set(
  ['delete', 'cancel', 'revoke', 'disable', 'disconnect', 'unfollow', 'unlock', 'unassign'].map(stemWord),
);
const UNASKED_DELETE = 0.7;

/** A request that asks rather than tells: it ends with "?" or opens with a question word ("someone who left" does not ask). */
function isQuestion(query: string): boolean {
  return /\?\s*$/.test(query) || QUESTION_OPENING.test(query);
}
const QUESTION_OPENING = /^\s*(which|what|who|whose|where|when|how|is|are|do|does|did|can|could|has|have)\b/i;

/**
 * "pods", "branches", "policies": a word whose stem drops a plural ending (not "status", "access", "analysis").
 * The request method checks that the API knows the word: "torvalds" and "postgres" are names.
 */
function isPlural(word: string): boolean {
  return word.length > 3 && /[^su]s$|[^s]es$/.test(word) && !/(ss|us|is)$/.test(word) && analyze(word)[0] !== word;
}
const EXACTNESS_WEIGHT = 1;

/** Best first, then by catalog order. Compared, not subtracted: a difference of two scores is a new heap number. */
function byScore(a: SearchHit, b: SearchHit): number {
  return compareScores(a.score, b.score, a.doc, b.doc);
}

function compareScores(a: number, b: number, docA: number, docB: number): number {
  return a > b ? -1 : a < b ? 1 : docA - docB;
}

/** A word matched through a synonym counts this much toward coverage. */
const SYNONYM_COVERAGE = 0.5;
const COVERAGE_EXPONENT = 2;

/**
 * The share of the request's words an operation matched, squared: an operation that matches "close" and
 * "issue" beats one that matches only a rarer word many times.
 */
function coverage(covered: number, words: number): number {
  if (words <= 0) return 1;
  const share = covered / words;
  return share ** COVERAGE_EXPONENT;
}

function membership(group: SearchGroup): (doc: number) => boolean {
  const members = new Set(group.operations);
  return (doc) => members.has(doc);
}
