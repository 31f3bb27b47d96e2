/**
 * Full-text search over the API's operations, for the `dynamic` and `hybrid` tool modes: Okapi BM25 over
 * weighted fields (name, summary, tags and path count more than prose). The index is built at generation
 * time (the generator imports this same tokenizer) and only scored here.
 */

export interface SearchIndex {
  /** Number of documents (operations), in catalog tool order. */
  docCount: number;
  /** Weighted length of each document. */
  docLengths: number[];
  avgDocLength: number;
  /** term → [docIndex, weighted term frequency] pairs, flattened: [d0, tf0, d1, tf1, …]. */
  postings: Record<string, number[]>;
}

export interface SearchHit {
  doc: number;
  score: number;
}

const BM25_K1 = 1.2;
const BM25_B = 0.75;

const STOP_WORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was will with'.split(' '),
);

/** Lowercase words, camelCase and snake_case split, stop words dropped, crudely stemmed. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 1 && !STOP_WORDS.has(w))
    .map(stem);
}

/** Enough stemming to match "repositories"/"repository" and "listing"/"list"; not a linguistic stemmer. */
function stem(word: string): string {
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('es') && /(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

export interface SearchDocument {
  /** Fields with weights, e.g. [[name, 3], [summary, 2], [description, 1]]. */
  fields: Array<[text: string, weight: number]>;
}

export function buildSearchIndex(docs: readonly SearchDocument[]): SearchIndex {
  const postings = new Map<string, Map<number, number>>();
  const docLengths = docs.map((doc, index) => {
    let length = 0;
    for (const [text, weight] of doc.fields) {
      for (const term of tokenize(text)) {
        const perDoc = postings.get(term) ?? new Map<number, number>();
        perDoc.set(index, (perDoc.get(index) ?? 0) + weight);
        postings.set(term, perDoc);
        length += weight;
      }
    }
    return length;
  });
  const flat: Record<string, number[]> = {};
  for (const term of [...postings.keys()].sort()) {
    flat[term] = [...postings.get(term)!.entries()].flat();
  }
  const total = docLengths.reduce((a, b) => a + b, 0);
  return { docCount: docs.length, docLengths, avgDocLength: docs.length > 0 ? total / docs.length : 0, postings: flat };
}

export function search(index: SearchIndex, query: string, limit: number): SearchHit[] {
  const scores = new Map<number, number>();
  for (const term of new Set(tokenize(query))) {
    const list = index.postings[term];
    if (!list) continue;
    const df = list.length / 2;
    const idf = Math.log(1 + (index.docCount - df + 0.5) / (df + 0.5));
    for (let i = 0; i < list.length; i += 2) {
      const doc = list[i]!;
      const tf = list[i + 1]!;
      const norm = tf + BM25_K1 * (1 - BM25_B + (BM25_B * index.docLengths[doc]!) / (index.avgDocLength || 1));
      scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (BM25_K1 + 1)) / norm);
    }
  }
  return [...scores.entries()]
    .map(([doc, score]) => ({ doc, score }))
    .sort((a, b) => b.score - a.score || a.doc - b.doc)
    .slice(0, limit);
}
