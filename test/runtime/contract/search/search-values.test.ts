/** Values in a request and their kinds (templates/runtime/contract/search/search-values.ts). */
import { describe, expect, it } from 'vitest';
import {
  findValues,
  KIND_SAMPLES,
  kindOfValue,
  kindTerm,
  VALUE_PATTERNS,
  valueKinds,
  type ValueKind,
} from '../../../../templates/runtime/contract/search/search-values.js';

describe('value kinds', () => {
  it.each<[string, ValueKind]>([
    ['https://example.com/a?b=1', 'url'],
    ['ann@example.org', 'email'],
    ['123e4567-e89b-12d3-a456-426614174000', 'uuid'],
    ['2024-03-01', 'date'],
    ['2024-03-01T10:00:00Z', 'date'],
    ['3/4/2025', 'date'],
    ['March 3', 'date'],
    ['3rd March 2025', 'date'],
    ['since yesterday', 'date'],
    ['after last week', 'date'],
    ['10.0.0.0/24', 'cidr'],
    ['198.51.100.4', 'ipv4'],
    ['2001:db8::1', 'ipv6'],
    ['51.5072, -0.1276', 'coordinates'],
    ['+1 415 555 0100', 'phone'],
    ['(415) 555-0100', 'phone'],
    ['$25', 'money'],
    ['40 EUR', 'money'],
    ['report.pdf', 'file'],
    ['final-v2.pptx', 'file'],
    ['www.example.com', 'domain'],
    ['ABC-12', 'key'],
    ['9fceb02', 'sha'],
    ['@ann', 'mention'],
    ['#general', 'channel'],
    ['"Pro plan"', 'name'],
    ['30 days', 'span'],
    ['24h', 'span'],
    ['SW1A 1AA', 'postcode'],
    ['#17', 'id'],
    ['cus_9', 'id'],
    ['42', 'id'],
  ])('reads %s as %s', (value, kind) => {
    expect(kindOfValue(value)).toBe(kind);
  });

  it('gives a span to the first kind that reads it: an address holds a domain, a URL a file name', () => {
    expect(valueKinds('invite ann@example.org')).toEqual(['email']);
    expect(valueKinds('fetch https://example.com/report.pdf')).toEqual(['url']);
    expect(valueKinds('what changed since 2024-03-01T10:00:00Z')).toEqual(['date']);
  });

  it('finds each value of a request, in order', () => {
    const query = "point www.example.com at my droplet's IP 198.51.100.4";
    expect(findValues(query).map((v) => [v.kind, query.slice(v.start, v.end)])).toEqual([
      ['domain', 'www.example.com'],
      ['ipv4', '198.51.100.4'],
    ]);
  });

  it('leaves words, counts and times of day alone', () => {
    expect(valueKinds('close the stale issues in my repo')).toEqual([]);
    expect(valueKinds('covid-19 numbers')).not.toContain('key');
    expect(valueKinds('meet at 10:30:00')).not.toContain('ipv6');
    expect(valueKinds('give 20% off')).toEqual([]);
  });

  it('reads no whole value from a sentence', () => {
    expect(kindOfValue('Send to ann@example.org today')).toBeUndefined();
    expect(kindOfValue('')).toBeUndefined();
  });

  it('has a pattern and samples (to test parameter patterns with) for every kind', () => {
    expect(new Set(VALUE_PATTERNS.map((p) => p.kind))).toEqual(new Set(Object.keys(KIND_SAMPLES)));
    for (const samples of Object.values(KIND_SAMPLES)) expect(samples.length).toBeGreaterThan(0);
  });

  it('writes a kind as a term no word can be', () => {
    expect(kindTerm('email')).toBe('#email');
  });
});
