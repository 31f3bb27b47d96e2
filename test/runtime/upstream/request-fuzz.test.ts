/**
 * Property tests over buildRequest: whatever strings a model puts in path, query, header and cookie
 * arguments, the request stays on the API's origin and under its base path, a path value stays in its
 * own segment (or the builder refuses it), headers cannot be split, and query/cookie values round-trip.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ParamPlan, RequestPlan } from '../../../templates/runtime/contract/catalog.js';
import { buildRequest, RequestBuildError, type BuiltRequest } from '../../../templates/runtime/upstream/request.js';
import { toWellFormed } from '../../../templates/runtime/upstream/serialize.js';

/** Enough runs to hit the interesting characters often; the whole file stays well under 3 s. */
const RUNS = { numRuns: 300 };

const BASE_URLS = [
  'https://api.example.com',
  'https://api.example.com/v1',
  'https://api.example.com/v1/',
  'http://127.0.0.1:8080/a/b',
  'https://user@api.example.com:8443/deep/er/',
];

/** Characters that have a meaning somewhere in a URL, a header or a cookie. */
const TRICKY_UNITS = [
  '.',
  '/',
  '\\',
  '%',
  '2',
  'e',
  'E',
  'F',
  '?',
  '#',
  '&',
  '=',
  ';',
  ',',
  ' ',
  '+',
  ':',
  '@',
  '\r',
  '\n',
  '\0',
  '\t',
  '\u00e9',
  '\ud800',
  '\udc00',
  '😀',
  '[',
  ']',
];

const TRICKY_STRINGS = [
  '',
  '.',
  '..',
  '../',
  '../../etc/passwd',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '%252e%252e',
  '?admin=1',
  '#frag',
  'a\r\nX-Injected: yes',
  '\0',
  'http://evil.example/x',
  '//evil.example/x',
  'https:evil.example',
  '\\\\evil.example\\x',
  '@evil.example',
  ':8080',
];

/** Mostly short strings built from tricky characters, plus any Unicode, fixed nasties and very long ones. */
const anyString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.string({ unit: fc.constantFrom(...TRICKY_UNITS), maxLength: 12 }), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 40 }), weight: 3 },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
  { arbitrary: fc.constantFrom(...TRICKY_STRINGS), weight: 2 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom(...TRICKY_STRINGS), fc.integer({ min: 2_000, max: 20_000 }))
      .map(([s, n]) => s.repeat(n / Math.max(1, s.length)) + 'x'),
    weight: 1,
  },
);

function param(name: string, location: ParamPlan['in'], extra: Partial<ParamPlan> = {}): ParamPlan {
  const style = location === 'path' || location === 'header' ? 'simple' : 'form';
  return { arg: name, name, in: location, style, explode: style === 'form', ...extra };
}

/** Builds, or returns the RequestBuildError; any other exception fails the property. */
function tryBuild(plan: RequestPlan, args: Record<string, unknown>, base: string): BuiltRequest | RequestBuildError {
  try {
    return buildRequest(plan, args, base);
  } catch (error) {
    if (error instanceof RequestBuildError) return error;
    throw error;
  }
}

function basePathOf(base: string): string {
  return new URL(base).pathname.replace(/\/+$/, '');
}

function segmentsAfterBase(url: URL, base: string): string[] {
  const basePath = basePathOf(base);
  expect(url.pathname.startsWith(`${basePath}/`)).toBe(true);
  return url.pathname.slice(basePath.length + 1).split('/');
}

describe('buildRequest properties', () => {
  it('a path value stays in its one segment, on the base origin, or the builder refuses it', () => {
    const templates = [
      { path: '/items/{id}', segments: ['items', 0] },
      { path: '/a/{id}/b', segments: ['a', 0, 'b'] },
      { path: '/{id}', segments: [0] },
      { path: '/files/{id}.json', segments: ['files', 0] },
    ] as const;
    fc.assert(
      fc.property(fc.constantFrom(...BASE_URLS), fc.constantFrom(...templates), anyString, (base, template, value) => {
        const built = tryBuild(
          { method: 'get', path: template.path, params: [param('id', 'path')] },
          { id: value },
          base,
        );
        // Refused exactly when the segment would vanish or climb: an empty value or a dot-segment.
        const whole = !template.path.endsWith('.json');
        expect(built instanceof RequestBuildError).toBe(whole && ['', '.', '..'].includes(value));
        if (built instanceof RequestBuildError) return;
        const url = new URL(built.url);
        expect(url.origin).toBe(new URL(base).origin);
        expect(url.search).toBe('');
        expect(url.hash).toBe('');
        const segments = segmentsAfterBase(url, base);
        expect(segments).toHaveLength(template.segments.length);
        template.segments.forEach((expected, index) => {
          const segment = segments[index]!;
          if (expected !== 0) return expect(segment).toBe(expected);
          const decoded = decodeURIComponent(whole ? segment : segment.replace(/\.json$/, ''));
          expect(decoded).toBe(toWellFormed(value));
        });
      }),
      RUNS,
    );
  });

  it('label and matrix path styles never leave their segment either', () => {
    let refused = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...BASE_URLS),
        fc.constantFrom<ParamPlan['style']>('label', 'matrix', 'simple'),
        fc.boolean(),
        fc.oneof(anyString, fc.array(anyString, { maxLength: 3 }), fc.dictionary(anyString, anyString, { maxKeys: 3 })),
        (base, style, explode, value) => {
          const plan: RequestPlan = {
            method: 'get',
            path: '/x/{id}/y',
            params: [param('id', 'path', { style, explode })],
          };
          const built = tryBuild(plan, { id: value }, base);
          if (built instanceof RequestBuildError) return void refused++;
          const url = new URL(built.url);
          expect(url.origin).toBe(new URL(base).origin);
          expect(url.search + url.hash).toBe('');
          const segments = segmentsAfterBase(url, base);
          expect(segments).toHaveLength(3);
          expect([segments[0], segments[2]]).toEqual(['x', 'y']);
          expect(['', '.', '..']).not.toContain(segments[1]!.replace(/%2e/gi, '.'));
        },
      ),
      RUNS,
    );
    // Refusing every value would pass the property above: most must be built and checked.
    expect(refused).toBeLessThan(RUNS.numRuns / 2);
  });

  it('query values round-trip and cannot add parameters, a fragment or a path', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BASE_URLS),
        anyString,
        fc.array(anyString, { maxLength: 4 }),
        (base, single, many) => {
          const plan: RequestPlan = {
            method: 'get',
            path: '/search',
            params: [param('q', 'query'), param('tags', 'query'), param('last', 'query')],
          };
          const built = buildRequest(plan, { q: single, tags: many, last: 'end' }, base);
          const url = new URL(built.url);
          expect(url.origin).toBe(new URL(base).origin);
          expect(url.pathname).toBe(`${basePathOf(base)}/search`);
          expect(url.hash).toBe('');
          expect(url.searchParams.getAll('q')).toEqual([toWellFormed(single)]);
          expect(url.searchParams.getAll('tags')).toEqual(many.map(toWellFormed));
          expect(url.searchParams.getAll('last')).toEqual(['end']);
          expect([...url.searchParams.keys()].every((key) => ['q', 'tags', 'last'].includes(key))).toBe(true);
        },
      ),
      RUNS,
    );
  });

  it('header values never carry CR, LF or NUL, and fetch accepts them', () => {
    fc.assert(
      fc.property(anyString, fc.array(anyString, { maxLength: 3 }), (value, items) => {
        const plan: RequestPlan = {
          method: 'get',
          path: '/h',
          params: [param('X-One', 'header'), param('X-Many', 'header')],
        };
        const built = buildRequest(plan, { 'X-One': value, 'X-Many': items }, 'https://api.example.com');
        for (const headerValue of Object.values(built.headers)) {
          expect(headerValue).not.toMatch(/[\r\n\0]/);
        }
        expect(() => new Headers(built.headers)).not.toThrow();
        expect(Object.keys(built.headers).sort()).toEqual(
          ['accept', 'x-one', ...(items.length > 0 ? ['x-many'] : [])].sort(),
        );
      }),
      RUNS,
    );
  });

  it('cookie values round-trip and cannot start another cookie', () => {
    fc.assert(
      fc.property(anyString, anyString, (session, theme) => {
        const plan: RequestPlan = {
          method: 'get',
          path: '/c',
          params: [param('session', 'cookie'), param('theme', 'cookie')],
        };
        const built = buildRequest(plan, { session, theme }, 'https://api.example.com');
        const cookie = built.headers['cookie']!;
        expect(cookie).not.toMatch(/[\r\n\0]/);
        const pairs = cookie.split('; ').map((pair) => pair.split('='));
        expect(pairs.map(([name]) => name)).toEqual(['session', 'theme']);
        expect(pairs.every((pair) => pair.length === 2)).toBe(true);
        expect(pairs.map(([, encoded]) => decodeURIComponent(encoded!))).toEqual([
          toWellFormed(session),
          toWellFormed(theme),
        ]);
      }),
      RUNS,
    );
  });
});
