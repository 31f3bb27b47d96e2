/**
 * Text analysis for the operation search, shared by the generator (which indexes) and the server (which
 * queries), so both sides turn words into the same terms: words split at case changes and punctuation,
 * accents dropped, abbreviations spelled out (repo → repository), function words and numbers dropped, and
 * each word reduced to its Porter2 stem (closed/closing → close, statuses → status).
 */
import stem from 'wink-porter2-stemmer';
import { memoized } from '../memo.js';
import { ABBREVIATIONS, entryOf, PHRASES } from './search-vocabulary.js';

/** Stems are cached: an index and a stream of queries come back to the same few thousand words. */
const stemmed = memoized(stem);

/**
 * Words that say nothing about which operation is meant: English function words, and the words people wrap
 * a request in ("can you please show me my …"). Verbs that do carry intent (show, get, find) are not here:
 * the vocabulary bridge maps them. Nor is "all": it names a scope APIs name too ("List all customers",
 * "list pods for all namespaces").
 */
const STOP_WORDS = new Set(
  (
    'a about above after again also am an and any are as at be been being below both but by can could did do does doing done ' +
    'each either every for from had has have having he her here hers him his how i if in into is it its itself just let lets like ' +
    'may me might mine more most must my myself need needs no nor not now of off on once only or other our ours out over own please ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under until up ' +
    'us very via want wants was we were what whatever when where whether which while who whom whose why will with within without ' +
    'would you your yours yourself currently right thing things stuff someone something somebody anything everything okay ok hey hi ' +
    'thanks thank quick quickly real really actually called named titled saying says said using use used anymore ' +
    'so because since also instead even still already maybe perhaps kind sort bunch lot lots gonna wanna one two three'
  ).split(' '),
);

/** An identifier that joins letters and digits with `_` or `-` (`cus_9`, `api-7f9c`): an item's id, not a word. */
const identifierSource = String.raw`\b(?=[\w-]*\d)(?=[\w-]*[a-z])(?=[\w-]*[_-])[\w-]+\b`;

/**
 * Values a request carries that say nothing about which operation is meant: e-mail addresses, URLs, host
 * names, @mentions, quoted strings and identifiers that join letters and digits with `_` or `-` (`cus_9`, `api-7f9c`).
 */
const VALUES = new RegExp(
  `\\S+@\\S+|\\bhttps?://\\S+|\\b[\\w-]+(\\.[\\w-]+)+\\b|@\\w+|"[^"]*"|“[^”]*”|${identifierSource}`,
  'gi',
);

/** A request with its values left out (see VALUES); the index never needs this. */
export function withoutValues(query: string): string {
  return query.replace(VALUES, ' ');
}

/** A capital letter after a token's first character: the token joins words in camelCase. */
const INNER_CAPITAL = /.[A-Z]/;

/**
 * Words of `text`: camelCase and snake_case split, lower case, accents dropped.
 */
export function words(text: string): string[] {
  const out: string[] = [];
  // eslint-disable-next-line no-control-regex
  const plain = /[^\x00-\x7f]/.test(text) ? text.normalize('NFKD').replace(/[\u0300-\u036f]/g, '') : text;
  for (const token of plain.split(/[^A-Za-z0-9]+/)) {
    if (!token) continue;
    // Most tokens are one lower-case word; only tokens with an inner capital are split.
    if (!INNER_CAPITAL.test(token)) {
      out.push(token.toLowerCase());
      continue;
    }
    const parts = token
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2')
      .toLowerCase()
      .split(' ');
    out.push(...parts);
  }
  return out;
}

/** The search terms of `text`, in order (repeats kept: callers decide whether a repeat counts). */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const word of phraseWords(words(text))) {
    if (isStopWord(word)) continue;
    const spelled = entryOf(ABBREVIATIONS, word);
    if (spelled === undefined) terms.push(stemWord(word));
    else for (const w of spelled.split(' ')) terms.push(stemWord(w));
  }
  return terms;
}

function isStopWord(word: string): boolean {
  return word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word);
}

/** One word's terms: none for a stop word or a number, several for an abbreviation spelled out. */
export function wordTerms(word: string): string[] {
  if (isStopWord(word)) return [];
  const spelled = entryOf(ABBREVIATIONS, word);
  return (spelled ? spelled.split(' ') : [word]).map(stemWord);
}

/** PHRASES by the stem of their first word, so "logged in" and "calling off" are found as "log in" and "call off". */
const STEMMED_PHRASES = new Map(
  Object.entries(PHRASES).map(([phrase, word]) => {
    const [first, ...rest] = phrase.split(' ');
    return [[stemWord(first!), ...rest].join(' '), word] as const;
  }),
);

const PHRASE_STARTS = new Set([...STEMMED_PHRASES.keys()].map((phrase) => phrase.split(' ')[0]!));

/** Words with each phrasal verb of PHRASES replaced by the word it means ("call off" → cancel). */
export function phraseWords(list: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length; i++) {
    const first = stemWord(list[i]!);
    if (!PHRASE_STARTS.has(first)) {
      out.push(list[i]!);
      continue;
    }
    const three = i + 2 < list.length ? STEMMED_PHRASES.get(`${first} ${list[i + 1]} ${list[i + 2]}`) : undefined;
    const two = i + 1 < list.length ? STEMMED_PHRASES.get(`${first} ${list[i + 1]}`) : undefined;
    if (three !== undefined) {
      out.push(...three.split(' '));
      i += 2;
    } else if (two !== undefined) {
      out.push(...two.split(' '));
      i += 1;
    } else out.push(list[i]!);
  }
  return out;
}

/** The distinct terms of `text`, in order: what an index field holds (each word counted once). */
export function fieldTermSet(text: string): Set<string> {
  return new Set(analyze(text));
}

export function stemWord(word: string): string {
  return word.length <= 2 ? word : stemmed(word);
}
