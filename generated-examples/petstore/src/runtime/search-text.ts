/**
 * Text analysis for the operation search, shared by the generator (which indexes) and the server (which
 * queries), so both sides turn words into the same terms: words split at case changes and punctuation,
 * accents dropped, abbreviations spelled out (repo → repository), function words and numbers dropped, and
 * each word reduced to its Porter2 stem (closed/closing → close, statuses → status).
 */
import stem from 'wink-porter2-stemmer';
import { ABBREVIATIONS } from './search-vocabulary.js';

/**
 * Words that say nothing about which operation is meant: English function words, and the words people wrap
 * a request in ("can you please show me my …"). Verbs that do carry intent (show, get, find) are not here:
 * the vocabulary bridge maps them.
 */
const STOP_WORDS = new Set(
  (
    'a about above after again all also am an and any are as at be been being below both but by can could did do does doing done ' +
    'each either every for from had has have having he her here hers him his how i if in into is it its itself just let lets like ' +
    'may me might mine more most must my myself need needs no nor not now of off on once only or other our ours out over own please ' +
    'same she should so some such than that the their theirs them then there these they this those through to too under until up ' +
    'us very via want wants was we were what whatever when where whether which while who whom whose why will with within without ' +
    'would you your yours yourself currently right thing things stuff someone something somebody anything everything okay ok hey hi ' +
    'thanks thank quick quickly real really actually'
  ).split(' '),
);

/** Words of `text`: camelCase and snake_case split, lower case, accents dropped. */
export function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z]{2,})/g, '$1 $2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/** The search terms of `text`, in order (repeats kept: callers decide whether a repeat counts). */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text)) {
    if (STOP_WORDS.has(word) || /^\d+$/.test(word)) continue;
    const spelled = ABBREVIATIONS[word];
    for (const w of spelled ? spelled.split(' ') : [word]) terms.push(stemWord(w));
  }
  return terms;
}

/** The distinct terms of `text`, joined by spaces: what an index field holds (each word counted once). */
export function fieldTerms(text: string): string {
  return [...new Set(analyze(text))].join(' ');
}

export function stemWord(word: string): string {
  return word.length <= 2 ? word : stem(word);
}
