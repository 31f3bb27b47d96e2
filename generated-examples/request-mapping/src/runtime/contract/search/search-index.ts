/**
 * search-index.json: what the operation search (search.ts) needs, made at generation time. Each operation's
 * fields are analyzed into terms here (search-text.ts), with the synonym tables cut down to the API's own
 * vocabulary; the server indexes the terms with MiniSearch on its first search. Kept apart from search.ts so
 * the generator never loads the search library.
 */
import { analyze, fieldTermSet } from './search-text.js';
import { ACTION_SYNONYMS, THING_SYNONYMS } from './search-vocabulary.js';

/**
 * The indexed fields and how much a match in each counts: short fields whose every word names the operation
 * (summary, name, path resources, the response's schema name) high; long ones where most words are
 * incidental (the whole description, every argument's description, the response's property names) low.
 * MiniSearch's BM25 normalizes length per field, so a long field's match counts less within it as well.
 */
export const FIELD_BOOSTS = {
  name: 2,
  summary: 3,
  tags: 1,
  resource: 1.5,
  action: 0.6,
  params: 0.6,
  argdocs: 0.3,
  values: 1.5,
  filters: 0.2,
  description: 0.5,
  returns: 1,
  returnFields: 0.3,
  /** The kinds of value the arguments accept (search-values.ts), as kind terms: written as terms, not analyzed. */
  kinds: 1,
} as const;

export type SearchField = keyof typeof FIELD_BOOSTS;
export const FIELDS = Object.keys(FIELD_BOOSTS) as SearchField[];

/** What a result shows of an operation: enough to choose it and call it without another lookup. */
export interface OperationSummary {
  name: string;
  method: string;
  path: string;
  summary: string;
  /** Arguments the call must supply. */
  required: string[];
  /**
   * For required arguments (a body property as `body.name`) that another operation's result supplies: those
   * operations, by catalog index, best first (src/emit/search/suppliers.ts); results show their names. A model
   * then knows where to get `uri` first.
   */
  sources?: Record<string, number[]>;
  group: string;
  /** Deprecated in the spec or in its own words: it ranks below a current operation that matches as well. */
  deprecated?: true;
}

/** A browsable set of operations: a tag, or a path resource; large ones are split by sub-resource. */
export interface SearchGroup {
  name: string;
  description: string;
  /** Operations by catalog index, in catalog order. */
  operations: number[];
}

export interface SearchDocument {
  /** Raw text per field; analyzed (and each word counted once) when indexed. */
  fields: Partial<Record<SearchField, string>>;
  operation: OperationSummary;
}

/** search-index.json. */
export interface SearchIndexFile {
  format: 5;
  /** The indexed fields, in the order of each document's entries. */
  fields: SearchField[];
  /**
   * Each operation's fields as analyzed terms (search-text.ts), distinct and space-separated, by catalog
   * index. The server builds its MiniSearch index from these on the first search: building takes about as
   * long as loading a serialized index, and the generator does not spend its time or the file's bytes on one.
   */
  documents: string[][];
  /**
   * Query term → what it also searches (its synonyms that the API uses). A synonym of several words
   * ("promotion code" for coupon) is its terms joined by spaces, matched together.
   */
  bridge: Record<string, string[]>;
  /** Every operation's summary, by catalog index. */
  operations: OperationSummary[];
  groups: SearchGroup[];
}

export function buildSearchIndex(docs: readonly SearchDocument[], groups: readonly SearchGroup[]): SearchIndexFile {
  const vocabulary = new Set<string>();
  // Many operations share a field's text (their tag's words, their action): each text is analyzed once.
  const analyzed = new Map<string, string>();
  const termsOf = (text: string) => {
    let terms = analyzed.get(text);
    if (terms === undefined) {
      // An index field holds each distinct term once, joined by spaces; the vocabulary is read from the set,
      // since splitting the joined field again would make a new string of every term, to be hashed anew.
      const distinct = fieldTermSet(text);
      for (const term of distinct) vocabulary.add(term);
      analyzed.set(text, (terms = [...distinct].join(' ')));
    }
    return terms;
  };
  const documents = docs.map((doc) =>
    FIELDS.map((field) => (field === 'kinds' ? (doc.fields.kinds ?? '') : termsOf(doc.fields[field] ?? ''))),
  );
  return {
    format: 5,
    fields: FIELDS,
    documents,
    bridge: bridgeFor(vocabulary),
    operations: docs.map((d) => d.operation),
    groups: [...groups],
  };
}

/**
 * The synonym tables restricted to one API: for each query term, the terms it also searches that the
 * index contains. An action's member searches for its head and the head for its members;
 * the words of a thing set search for each other. A phrase keeps the terms of it that the API uses, matched
 * together.
 */
function bridgeFor(vocabulary: ReadonlySet<string>): SearchIndexFile['bridge'] {
  const related = new Map<string, Set<string>>();
  const relate = (from: readonly string[], to: readonly string[]) => {
    if (from.length !== 1) return; // a query phrase is not looked up by one of its terms
    const source = from[0]!;
    const target = to.filter((term) => term !== source && vocabulary.has(term)).join(' ');
    if (target === '') return;
    let targets = related.get(source);
    if (!targets) related.set(source, (targets = new Set()));
    targets.add(target);
  };
  for (const [head, members] of Object.entries(ACTION_SYNONYMS)) {
    const headTerms = analyze(head);
    for (const member of members) {
      const memberTerms = analyze(member);
      relate(memberTerms, headTerms);
      relate(headTerms, memberTerms);
    }
  }
  for (const set of THING_SYNONYMS) {
    const termsOf = set.map((entry) => analyze(entry));
    for (const from of termsOf) for (const to of termsOf) if (from !== to) relate(from, to);
  }
  const bridge: SearchIndexFile['bridge'] = {};
  for (const source of [...related.keys()].sort()) bridge[source] = [...related.get(source)!].sort();
  return bridge;
}
