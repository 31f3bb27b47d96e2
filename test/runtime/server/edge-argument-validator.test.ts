/**
 * Workers' validator of tool arguments (edge-argument-validator.ts): the SDK's CfWorkerJsonSchemaValidator with
 * each pattern decided by RE2. Without the wrapper, `^(\w+\s?)*$` against 29 letters and a "!" held this test
 * 23 s (each further character doubles it); that call is not repeated here.
 */
import { describe, expect, it } from 'vitest';
import type { JsonSchemaType, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/server/validators/cf-worker';
import { linearPatterns, trieSource } from '../../../templates/runtime/server/edge-argument-validator.js';

const plain: jsonSchemaValidator = new CfWorkerJsonSchemaValidator();
const wrapped = linearPatterns(plain);

const validity = (validator: jsonSchemaValidator, schema: object, input: unknown) =>
  validator.getValidator(schema as JsonSchemaType)(input).valid;

/** The wrapper's verdict, checked against the plain validator's (whose patterns here are all linear). */
function verdict(schema: object, input: unknown): boolean {
  const valid = validity(wrapped, schema, input);
  expect(valid).toBe(validity(plain, schema, input));
  return valid;
}

describe('linearPatterns', () => {
  it('refuses a 100,000-character argument against a backtracking pattern promptly, and accepts a valid one', () => {
    const schema = { type: 'object', properties: { name: { type: 'string', pattern: '^(\\w+\\s?)*$' } } };
    const started = performance.now();
    expect(validity(wrapped, schema, { name: 'a'.repeat(100_000) + '!' })).toBe(false);
    expect(validity(wrapped, schema, { name: 'a'.repeat(99_999) + ' b' })).toBe(true);
    expect(validity(wrapped, schema, { name: 'two words' })).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('passes a schema without patterns to the inner validator as it is', () => {
    const schema = { type: 'object', properties: { pattern: { type: 'string' } }, const: { pattern: '^x$' } };
    let given: unknown;
    linearPatterns({
      getValidator: (s) => ((given = s), () => ({ valid: true, data: undefined as never, errorMessage: undefined })),
    }).getValidator(schema as JsonSchemaType);
    expect(given).toBe(schema);
  });

  it('decides as the plain validator under properties, items, anyOf and $defs/$ref', () => {
    const schema = {
      type: 'object',
      properties: {
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        tags: { type: 'array', items: { type: 'string', pattern: '^#' } },
        id: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: '^id-\\d+$' }] },
        body: { $ref: '#/$defs/Body' },
      },
      $defs: { Body: { type: 'object', properties: { slug: { type: 'string', pattern: '^[a-z-]+$' } } } },
    };
    expect(verdict(schema, { code: 'ABC', tags: ['#a', '#b'], id: 'id-12', body: { slug: 'a-b' } })).toBe(true);
    expect(verdict(schema, { code: 'ABCD' })).toBe(false);
    expect(verdict(schema, { tags: ['#a', 'b'] })).toBe(false);
    expect(verdict(schema, { id: 7 })).toBe(true);
    expect(verdict(schema, { id: 'id-x' })).toBe(false);
    expect(verdict(schema, { body: { slug: 'A' } })).toBe(false);
    // The same string valid at one place and not at another.
    expect(verdict(schema, { code: 'ABC', body: { slug: 'ABC' } })).toBe(false);
    expect(verdict(schema, { tags: ['#x'], body: { slug: 'x' } })).toBe(true);
  });

  it('decides as the plain validator on patternProperties, whose keys may come to the same source', () => {
    const schema = {
      type: 'object',
      patternProperties: { '^x-': { type: 'string' }, '^y-': { type: 'integer' }, '^z-': { minLength: 2 } },
      additionalProperties: false,
    };
    expect(verdict(schema, { 'x-a': 'v', 'y-b': 1 })).toBe(true);
    expect(verdict(schema, { 'x-a': 1 })).toBe(false);
    expect(verdict(schema, { 'y-a': 'v' })).toBe(false);
    expect(verdict(schema, { other: 1 })).toBe(false);
    // No key matches ^y- nor ^z-: both come to the source that matches nothing, their schemas joined.
    expect(verdict(schema, { 'x-a': 'v' })).toBe(true);
  });

  it('walks a property named "pattern", and leaves a "pattern" inside const, enum, default and examples', () => {
    const schema = {
      type: 'object',
      properties: { pattern: { type: 'string', pattern: '^a' }, rule: { const: { pattern: '^a' } } },
      default: { pattern: '^a' },
      examples: [{ pattern: '^a' }],
    };
    expect(verdict(schema, { pattern: 'abc' })).toBe(true);
    expect(verdict(schema, { pattern: 'b' })).toBe(false);
    expect(verdict(schema, { rule: { pattern: '^a' } })).toBe(true);
    expect(verdict(schema, { rule: { pattern: 'zzz' } })).toBe(false);
  });

  it('matches strings holding regex syntax, newlines, non-ASCII and astral characters as the plain validator', () => {
    const schema = { type: 'array', items: { type: 'string', pattern: '^[^!]*$' } };
    const strings = ['a.b*c', '(x)|[y]{z}', '^$\\/?+', 'line\nbreak', 'é€', '😀', '😁!', '\ud83d', '\ud83d!', ''];
    expect(verdict(schema, strings)).toBe(false);
    expect(
      verdict(
        schema,
        strings.filter((text) => !text.includes('!')),
      ),
    ).toBe(true);
    for (const text of strings) expect(verdict(schema, [text])).toBe(!text.includes('!'));
  });

  it('checks 10,000 distinct strings promptly, and takes every pattern to match beyond (the API validates)', () => {
    const schema = { type: 'array', items: { type: 'string', pattern: '^(\\w+\\s?)*$' } };
    const strings = Array.from({ length: 10_000 }, (_, index) => `a${'a'.repeat(index % 50)} ${index}`);
    const started = performance.now();
    expect(verdict(schema, strings)).toBe(true);
    expect(verdict(schema, [...strings.slice(1), 'x!'])).toBe(false);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(validity(wrapped, schema, [...strings, 'x!'])).toBe(true);
  });

  it('takes a pattern RE2 cannot run (lookaround) to match every string, as on the other runtimes', () => {
    const schema = { type: 'string', pattern: '^(?!x)' };
    expect(validity(wrapped, schema, 'xyz')).toBe(true);
  });
});

describe('trieSource', () => {
  const separates = (strings: string[], matched: string[]) => {
    const source = trieSource(strings, new Set(matched))!;
    const regExp = new RegExp(source, 'u');
    const found = strings.filter((text) => regExp.test(text));
    expect(found.map((text) => text.length)).toEqual(
      strings.filter((text) => matched.includes(text)).map((text) => text.length),
    );
    expect(found).toEqual(strings.filter((text) => matched.includes(text)));
    return source;
  };

  it('factors common prefixes and escapes what the u flag needs escaped', () => {
    expect(separates(['ab.', 'ab*', 'ac', 'a'], ['ab.', 'a'])).toBe('^(?:a(?:|b\\.[\\s\\S]*))$');
    expect(separates(['x', 'y'], [])).toBe('^(?:[^\\s\\S])$');
    expect(separates(['x', 'y'], ['x', 'y'])).toBe('^(?:[\\s\\S]*)$');
  });

  it('keeps a surrogate pair whole where two astral characters share their high half', () => {
    separates(['😀a', '😁b', '\ud83d', '\ud83dc'], ['😁b', '\ud83d']);
    separates(['😀', '😁'], ['😀']);
  });

  it('writes a long shared run as a count, which V8 compiles (it refuses a literal of 100,000 characters)', () => {
    const long = 'a'.repeat(100_000);
    expect(separates([long + 'x', long + 'y'], [long + 'y'])).toBe('^(?:[\\s\\S]{100000}y[\\s\\S]*)$');
  });

  it('gives up on a trie nested too deep for V8, rather than crashing the isolate', () => {
    const strings = Array.from({ length: 2_000 }, (_, index) => 'a'.repeat(index) + 'b');
    expect(trieSource(strings, new Set(strings.filter((_, index) => index % 2 === 0)))).toBeUndefined();
  });
});
