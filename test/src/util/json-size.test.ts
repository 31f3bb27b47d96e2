/** jsonFitsIn answers what `JSON.stringify(value).length <= limit` answers, without writing long values out. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonFitsIn } from '../../../src/util/json-size.js';

const expected = (value: unknown, limit: number): boolean => {
  const text = JSON.stringify(value) as string | undefined;
  return text !== undefined && text.length <= limit;
};

describe('jsonFitsIn', () => {
  it('agrees with JSON.stringify on any JSON value and limit', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(400), (value, limit) => {
        expect(jsonFitsIn(value, limit)).toBe(expected(value, limit));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees on what JSON.stringify leaves out or converts: undefined, functions, NaN, -0, Dates, escapes', () => {
    const values: unknown[] = [
      undefined,
      () => 1,
      { a: undefined, b: () => 1, c: 1 },
      [undefined, () => 1, Symbol('s'), NaN, -0, Infinity],
      new Date(0),
      { when: new Date(0) },
      { toJSON: () => 'x' },
      'quote " backslash \\ newline \n é 😀 \u0001',
      Object.create(null) as object,
    ];
    for (const value of values)
      for (const limit of [0, 3, 10, 40, 1000])
        expect(jsonFitsIn(value, limit), String(limit)).toBe(expected(value, limit));
  });

  it('gives up early on a long value, and on a cycle (which JSON.stringify would throw on)', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    expect(jsonFitsIn(cyclic, 2_000)).toBe(false);
    expect(jsonFitsIn({ big: 'x'.repeat(10_000_000) }, 2_000)).toBe(false);
  });
});
