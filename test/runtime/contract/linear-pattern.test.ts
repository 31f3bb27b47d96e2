/**
 * contract/linear-pattern.ts: every spec pattern is matched in linear time, and as JavaScript's engine matches it
 * (checked on every pattern of the public specs and the dev set's specs).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { linearPattern } from '../../../templates/runtime/contract/linear-pattern.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

describe('linearPattern', () => {
  it('answers at once where backtracking would take longer than the test may run', () => {
    const nested = linearPattern('^(\\w+\\s?)*$')!;
    expect(nested.test(`${'a'.repeat(100_000)}!`)).toBe(false);
    expect(nested.test('ann bob')).toBe(true);
    const alternatives = linearPattern('^(a|a?)+$')!;
    expect(alternatives.test(`${'a'.repeat(100_000)}b`)).toBe(false);
  });

  it('is unanchored, as RegExp.prototype.test, and reads ECMAScript syntax', () => {
    expect(linearPattern('b')!.test('abc')).toBe(true);
    expect(linearPattern('^\\u00e9+$')!.test('éé')).toBe(true);
    expect(linearPattern('^(?<year>\\d{4})-\\d{2}$')!.test('2026-12')).toBe(true);
    expect(linearPattern('^\\p{Lu}')!.test('Émile')).toBe(true);
  });

  it('has no matcher for a pattern that needs backtracking or is not valid', () => {
    expect(linearPattern('^(?!\\s*$).+')).toBeUndefined();
    expect(linearPattern('^(a)\\1$')).toBeUndefined();
    expect(linearPattern('(?<=x)y')).toBeUndefined();
    expect(linearPattern('[')).toBeUndefined();
  });

  const specDirs = [join(REPO_ROOT, '..', 'shared', 'specs'), join(REPO_ROOT, 'bench', 'retrieval', 'dev', 'specs')];
  it.skipIf(!specDirs.every(existsSync))('matches as JavaScript does on every pattern of the corpus', () => {
    const patterns = new Set<string>();
    for (const dir of specDirs) for (const file of filesUnder(dir)) collectPatterns(parse(file), patterns);
    expect(patterns.size).toBeGreaterThan(100);
    const disagreements: string[] = [];
    for (const pattern of patterns) {
      let native: RegExp;
      try {
        native = new RegExp(pattern, 'u');
      } catch {
        expect(linearPattern(pattern)).toBeUndefined();
        continue;
      }
      const linear = linearPattern(pattern);
      if (!linear) {
        disagreements.push(`${pattern}: no linear matcher`);
        continue;
      }
      for (const sample of SAMPLES)
        if (native.test(sample) !== linear.test(sample)) disagreements.push(`${pattern} on ${JSON.stringify(sample)}`);
    }
    expect(disagreements).toEqual([]);
  });
});

/** Values of the shapes APIs constrain (no exotic whitespace: RE2's `\s` is ASCII, see linear-pattern.ts). */
const SAMPLES = [
  '',
  'a',
  'abc',
  'ABC',
  '123',
  'a1',
  'a-b',
  'a_b',
  'a.b',
  'foo bar',
  ' ',
  'é',
  '😀',
  '2024-01-01',
  '2024-01-01T00:00:00Z',
  'user@example.com',
  'https://example.com/x?y=1',
  '00000000-0000-4000-8000-000000000000',
  '#fff',
  '+15551234567',
  'a\nb',
  'x'.repeat(40),
  '1.2.3.4',
  '10.0.0.0/8',
  'foo/bar',
  'v1.2.3',
  'my-app_1',
];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(json|ya?ml)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

function parse(file: string): unknown {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
}

function collectPatterns(node: unknown, into: Set<string>): void {
  if (Array.isArray(node)) for (const item of node) collectPatterns(item, into);
  else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if (typeof record['pattern'] === 'string') into.add(record['pattern']);
    for (const value of Object.values(record)) collectPatterns(value, into);
  }
}
