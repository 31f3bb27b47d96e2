/** Loading without bundling when bundling would change nothing: what hasCanonicalRefs accepts, swagger-parser's bundle returns unchanged. */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { hasCanonicalRefs } from '../../../src/load/canonical-refs.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

type Doc = Record<string, unknown>;

const doc = (schemas: Doc, extra: Doc = {}): Doc => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: {
    '/a': {
      get: {
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } },
        },
      },
    },
  },
  components: { schemas },
  ...extra,
});

describe('hasCanonicalRefs', () => {
  it('accepts internal refs that point straight at an object', () => {
    expect(
      hasCanonicalRefs(
        doc({ A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: 'string' } }),
      ),
    ).toBe(true);
  });

  it.each([
    ['an external ref', { A: { $ref: 'other.yaml#/A' } }],
    ['a percent-encoded pointer', { A: { type: 'object' }, B: { $ref: '#/components/schemas/%41' } }],
    [
      'a ref to a ref',
      { A: { type: 'object' }, B: { $ref: '#/components/schemas/A' }, C: { $ref: '#/components/schemas/B' } },
    ],
    [
      'a ref through a ref',
      {
        A: { $ref: '#/components/schemas/B' },
        B: { type: 'object', properties: { x: { type: 'string' } } },
        C: { $ref: '#/components/schemas/A/properties/x' },
      },
    ],
    ['a missing target', { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/Nope' } } } }],
    ['a ref to the whole document', { A: { type: 'object', properties: { b: { $ref: '#' } } } }],
  ])('declines %s (bundling may change it)', (_what, schemas) => {
    expect(hasCanonicalRefs(doc(schemas as Doc))).toBe(false);
  });

  it('accepts refs with sibling keys and cyclic refs', () => {
    expect(
      hasCanonicalRefs(
        doc({
          A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B', description: 'b' } } },
          B: { type: 'string' },
        }),
      ),
    ).toBe(true);
    expect(
      hasCanonicalRefs(doc({ A: { type: 'object', properties: { self: { $ref: '#/components/schemas/A' } } } })),
    ).toBe(true);
  });

  it('declines a $id where json-schema-ref-parser reads ids as scopes: OpenAPI 3.1, or at the root', () => {
    const withId = { A: { type: 'object', properties: { b: { $id: 'https://example.com/b', type: 'string' } } } };
    expect(hasCanonicalRefs(doc(withId, { openapi: '3.1.0' }))).toBe(false);
    expect(hasCanonicalRefs(doc(withId, { $schema: 'https://json-schema.org/draft/2020-12/schema' }))).toBe(false);
    expect(hasCanonicalRefs(doc({ A: { type: 'object' } }, { $id: 'https://example.com/api' }))).toBe(false);
  });

  it('accepts a $id in an OpenAPI 3.0 document below the root, which bundling leaves alone', async () => {
    const withId = doc({
      A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } }, example: { $id: 'x', b: 'y' } },
      B: { type: 'string', $id: 'https://example.com/b' },
    });
    expect(hasCanonicalRefs(withId)).toBe(true);
    expect(await SwaggerParser.bundle(structuredClone(withId) as never)).toEqual(withId);
  });

  it('ignores 3.1 anchor refs, as swagger-parser does', () => {
    expect(hasCanonicalRefs(doc({ A: { type: 'object', properties: { b: { $ref: '#anchor' } } } }))).toBe(true);
  });
});

const specFiles = [
  ...readdirSync(join(REPO_ROOT, 'fixtures', 'specs', 'features')).map((f) =>
    join(REPO_ROOT, 'fixtures', 'specs', 'features', f),
  ),
  join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
  ...[
    'petstore-v3/openapi.yaml',
    'train-travel/openapi.yaml',
    'spotify/fixed-spotify-open-api.yml',
    'petstore-v2-separate/spec/swagger.yaml',
    'box/openapi.json',
  ]
    .map((f) => join(REPO_ROOT, '..', 'shared', 'specs', f))
    .filter((f) => existsSync(f)),
];

it('leaves every canonical spec of the corpus as bundling would leave it, and bundles the multi-file one', async () => {
  const canonical: string[] = [];
  for (const file of specFiles) {
    const parsed = (await SwaggerParser.parse(file)) as Doc;
    if (!hasCanonicalRefs(parsed)) continue;
    canonical.push(file);
    expect(await SwaggerParser.bundle(file), file).toEqual(parsed);
  }
  expect(canonical).toContain(join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'));
  expect(canonical.filter((f) => f.includes('petstore-v2-separate'))).toEqual([]);
  expect(canonical.length).toBeGreaterThan(specFiles.length / 2);
});
