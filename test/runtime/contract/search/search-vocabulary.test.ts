/** The vocabulary bridge tables (templates/runtime/contract/search/search-vocabulary.ts) are well-formed and bridge what they promise. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../../../templates/runtime/contract/search/search-text.js';
import {
  ABBREVIATIONS,
  ACTION_SYNONYMS,
  HINT_WORDS,
  PHRASES,
  THING_SYNONYMS,
} from '../../../../templates/runtime/contract/search/search-vocabulary.js';

/** Whether a request word `said` searches for the API word `meant` through the tables. */
const bridges = (said: string, meant: string) =>
  (ACTION_SYNONYMS[meant]?.includes(said) ?? false) ||
  THING_SYNONYMS.some((set) => set.includes(said) && set.includes(meant));

const entries = [
  ...Object.entries(ACTION_SYNONYMS).flatMap(([head, members]) => [head, ...members]),
  ...THING_SYNONYMS.flat(),
  ...Object.values(PHRASES),
];

describe('search vocabulary', () => {
  it('has lower-case entries, no set or head with a repeated entry, none made only of stop words', () => {
    for (const set of [...THING_SYNONYMS, ...Object.values(ACTION_SYNONYMS)])
      expect(new Set(set).size, set.join(',')).toBe(set.length);
    for (const [head, members] of Object.entries(ACTION_SYNONYMS)) expect(members, head).not.toContain(head);
    expect(entries.filter((e) => e !== e.toLowerCase())).toEqual([]);
    // An entry made only of stop words (or numbers) would never match anything.
    expect(entries.filter((entry) => analyze(entry).length === 0)).toEqual([]);
  });

  it('abbreviations are single lower-case words spelled out to other words', () => {
    for (const [short, long] of Object.entries(ABBREVIATIONS)) {
      expect(short).toMatch(/^[a-z0-9]+$/);
      expect(long).not.toBe(short);
    }
  });

  it('phrasal verbs are read as the word they mean, on both sides', () => {
    expect(analyze('call off the payment')).toEqual(analyze('cancel payment'));
    expect(analyze('turn off notifications')).toEqual(analyze('disable notifications'));
    expect(analyze('get rid of the draft')).toEqual(analyze('delete draft'));
    for (const phrase of Object.keys(PHRASES)) expect(phrase.split(' ').length).toBeGreaterThan(1);
  });

  it('bridges the words people use to the words APIs use', () => {
    for (const [said, meant] of [
      ['ticket', 'issue'],
      ['bug', 'issue'],
      ['machine', 'node'],
      ['machine', 'droplet'],
      ['server', 'droplet'],
      ['stop', 'cancel'],
      ['copy', 'fork'],
      ['remove', 'delete'],
      ['kill', 'delete'],
      ['attach', 'upload'],
      ['make', 'create'],
      ['customer', 'client'],
      ['refund', 'refund'],
      ['reimburse', 'refund'],
    ] as const) {
      expect(said === meant || bridges(said, meant), `${said} -> ${meant}`).toBe(true);
    }
    expect(analyze('PR')).toEqual(analyze('pull request'));
  });

  it('hint words map to terms, not to themselves', () => {
    for (const [word, terms] of Object.entries(HINT_WORDS)) expect(terms).not.toContain(word);
  });
});
