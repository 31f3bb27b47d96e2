/** The WordNet lexicon (src/emit/search/wordnet-lexicon.ts): built from WordNet's files, cut down to an API. */
import { describe, expect, it } from 'vitest';
import {
  buildLexicon,
  buildLexiconText,
  parseLexicon,
  wordNetBridge,
  type WordNetFiles,
} from '../../../../src/emit/search/wordnet-lexicon.js';
import { buildSearchIndex } from '../../../../templates/runtime/contract/search/search-index.js';

/**
 * A tiny WordNet: verb "pay" (sense 1 derives payment and payer; sense 2 is "remunerate"), noun "payment",
 * noun "payer", and "bank_account" for a phrase. Offsets are line keys only; WordNet's are byte offsets.
 */
const FILES: WordNetFiles = {
  'index.verb': [
    '  1 licence line starts with spaces',
    'pay v 2 1 + 2 0 00000001 00000002  ',
    'remunerate v 1 0 1 0 00000002  ',
  ].join('\n'),
  'data.verb': [
    '00000001 40 v 01 pay 0 003 + 00000010 n 0101 + 00000011 n 0101 ~ 00000012 n 0000 | give money',
    '00000002 40 v 02 remunerate 0 pay 1 001 + 00000013 n 0201 | make payment to',
  ].join('\n'),
  'index.noun': [
    'payment n 1 1 + 1 0 00000010  ',
    'payer n 1 0 1 0 00000011  ',
    'bank_account n 1 0 1 0 00000014  ',
  ].join('\n'),
  'data.noun': [
    '00000010 04 n 01 payment 0 001 + 00000001 v 0101 | a sum of money paid',
    '00000011 18 n 01 payer 0 001 + 00000001 v 0101 | a person who pays',
    '00000012 04 n 01 bank_account 0 000 | an account at a bank',
    '00000013 04 n 01 remuneration 0 000 | something paid',
    '00000014 04 n 01 bank_account 0 001 + 00000001 v 0000 | an account',
  ].join('\n'),
  'index.adj': '',
  'data.adj': '',
};

describe('WordNet lexicon', () => {
  it("relates a word's analyzed term to the derived forms of the word itself in its first senses", () => {
    const lexicon = buildLexicon(FILES);
    expect(lexicon.get('pay')).toEqual([
      { target: 'payer', kind: 'derived', sense: 1 },
      { target: 'payment', kind: 'derived', sense: 1 },
      { target: 'remuner', kind: 'derived', sense: 2 },
    ]);
    // Remuneration is derived from "pay", the synset's second word, not from "remunerate".
    expect(lexicon.has('remuner')).toBe(false);
    expect(lexicon.get('payment')).toEqual([{ target: 'pay', kind: 'derived', sense: 1 }]);
  });

  it('reads only the kinds with a weight', () => {
    const lexicon = buildLexicon(FILES, { synonym: 1, derived: 0, broader: 0, narrower: 1, similar: 0 });
    expect(lexicon.get('pay')).toEqual([
      { target: 'bank account', kind: 'narrower', sense: 1 },
      { target: 'remuner', kind: 'synonym', sense: 2 },
    ]);
  });

  it('writes text that parses back to the same lexicon, after the notice', () => {
    const text = buildLexiconText(FILES, 'WordNet notice\n\nline two');
    expect(text.startsWith('# WordNet notice\n#\n# line two\n')).toBe(true);
    expect(parseLexicon(text)).toEqual(buildLexicon(FILES));
  });
});

describe('WordNet bridge', () => {
  const lexicon = parseLexicon('pay\tpayer|d1\tpayment|d1\nsubscrib\tsubscript|d2\nspend\tbank account|d1\n');

  it('bridges a word the API does not use to its related terms that the API uses', () => {
    expect(wordNetBridge(new Set(['payment', 'subscript']), lexicon)).toEqual([
      ['pay', ['payment'], 1],
      ['subscrib', ['subscript'], 1],
    ]);
  });

  it('leaves out a word the API uses itself, and a phrase the API uses only part of', () => {
    expect(wordNetBridge(new Set(['pay', 'payment', 'bank']), lexicon)).toEqual([]);
    expect(wordNetBridge(new Set(['bank', 'account']), lexicon)).toEqual([['spend', ['bank', 'account'], 1]]);
  });

  it('adds its relations to the search index bridge', () => {
    const doc = { fields: { summary: 'List payments' }, operation: {} as never };
    const { bridge } = buildSearchIndex([doc], [], (vocabulary) => wordNetBridge(vocabulary, lexicon));
    expect(bridge['pay']).toEqual([['payment', 1]]);
  });
});
