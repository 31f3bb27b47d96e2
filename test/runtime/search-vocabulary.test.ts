/** The vocabulary bridge tables (templates/runtime/search-vocabulary.ts) are well-formed and bridge what they promise. */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../templates/runtime/search-text.js';
import { ABBREVIATIONS, HINT_WORDS, SYNONYM_SETS } from '../../templates/runtime/search-vocabulary.js';

const inOneSet = (a: string, b: string) => SYNONYM_SETS.some((set) => set.includes(a) && set.includes(b));

describe('search vocabulary', () => {
  it('has lower-case entries, no set with a repeated entry, no empty analysis', () => {
    for (const set of SYNONYM_SETS) {
      expect(set.length).toBeGreaterThan(1);
      expect(new Set(set).size, set.join(',')).toBe(set.length);
      for (const entry of set) expect(entry).toBe(entry.toLowerCase());
    }
    // An entry made only of stop words (or numbers) would never match anything.
    expect(SYNONYM_SETS.flat().filter((entry) => analyze(entry).length === 0)).toEqual([]);
  });

  it('abbreviations are single lower-case words spelled out to other words', () => {
    for (const [short, long] of Object.entries(ABBREVIATIONS)) {
      expect(short).toMatch(/^[a-z0-9]+$/);
      expect(long).not.toBe(short);
      expect(long.split(' ').every((w) => !(w in ABBREVIATIONS) || w === short)).toBe(true);
    }
  });

  it('bridges the words people use to the words APIs use', () => {
    for (const [said, meant] of [
      ['ticket', 'issue'],
      ['bug', 'issue'],
      ['machine', 'node'],
      ['machine', 'droplet'],
      ['stop', 'cancel'],
      ['copy', 'fork'],
      ['remove', 'delete'],
      ['kill', 'delete'],
      ['attach', 'upload'],
      ['customer', 'client'],
      ['refund', 'reimburse'],
    ] as const) {
      expect(inOneSet(said, meant), `${said} -> ${meant}`).toBe(true);
    }
    expect(analyze('PR')).toEqual(analyze('pull request'));
  });

  it('hint words map to terms, not to themselves', () => {
    for (const [word, terms] of Object.entries(HINT_WORDS)) expect(terms).not.toContain(word);
  });
});
