/**
 * Loading without bundling when bundling would change nothing, and dereferencing in place for validation:
 * what inspectRefs accepts, swagger-parser's bundle returns unchanged, and withDereferenced builds the graph
 * swagger-parser's dereference builds, then restores the document.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { inspectRefs, withDereferenced } from '../../src/load/canonical-refs.js';
import { REPO_ROOT } from '../helpers/generated-project.js';

type Doc = Record<string, unknown>;

const doc = (schemas: Doc, extra: Doc = {}): Doc => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  paths: { '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } } } } } },
  components: { schemas },
  ...extra,
});

describe('inspectRefs', () => {
  it('accepts internal refs that point straight at an object', () => {
    const shape = inspectRefs(doc({ A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: 'string' } }));
    expect(shape.canonical).toBe(true);
    expect(shape.dereference).toHaveLength(2);
  });

  it.each([
    ['an external ref', { A: { $ref: 'other.yaml#/A' } }],
    ['a percent-encoded pointer', { A: { type: 'object' }, B: { $ref: '#/components/schemas/%41' } }],
    ['a ref to a ref', { A: { type: 'object' }, B: { $ref: '#/components/schemas/A' }, C: { $ref: '#/components/schemas/B' } }],
    ['a ref through a ref', { A: { $ref: '#/components/schemas/B' }, B: { type: 'object', properties: { x: { type: 'string' } } }, C: { $ref: '#/components/schemas/A/properties/x' } }],
    ['a missing target', { A: { type: 'object', properties: { b: { $ref: '#/components/schemas/Nope' } } } }],
    ['a ref to the whole document', { A: { type: 'object', properties: { b: { $ref: '#' } } } }],
    ['a $id', { A: { $id: 'https://example.com/a', type: 'object' } }],
  ])('declines %s (bundling may change it)', (_what, schemas) => {
    expect(inspectRefs(doc(schemas as Doc)).canonical).toBe(false);
  });

  it('leaves refs with sibling keys and cyclic refs to swagger-parser', () => {
    const extended = inspectRefs(doc({ A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B', description: 'b' } } }, B: { type: 'string' } }));
    expect(extended).toEqual({ canonical: true });
    const cyclic = inspectRefs(doc({ A: { type: 'object', properties: { self: { $ref: '#/components/schemas/A' } } } }));
    expect(cyclic).toEqual({ canonical: true });
  });

  it('ignores 3.1 anchor refs, as swagger-parser does', () => {
    expect(inspectRefs(doc({ A: { type: 'object', properties: { b: { $ref: '#anchor' } } } })).canonical).toBe(true);
  });
});

describe('withDereferenced', () => {
  it('shows every ref as its shared target while it runs, and restores the document after', () => {
    const document = doc({ A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' }, c: { $ref: '#/components/schemas/B' } } }, B: { type: 'string' } });
    const before = JSON.stringify(document);
    const a = (document['components'] as Doc)['schemas'] as Doc;
    const refB = ((a['A'] as Doc)['properties'] as Doc)['b'];
    const seen: unknown[] = [];
    const ran = withDereferenced(document, inspectRefs(document).dereference, (d) => {
      const props = (((d['components'] as Doc)['schemas'] as Doc)['A'] as Doc)['properties'] as Doc;
      seen.push(props['b'], props['c']);
    });
    expect(ran).toBe(true);
    expect(seen[0]).toBe(a['B']);
    expect(seen[1]).toBe(a['B']);
    expect(JSON.stringify(document)).toBe(before);
    expect(((a['A'] as Doc)['properties'] as Doc)['b']).toBe(refB);
  });

  it('gives the graph swagger-parser dereferences to', async () => {
    const document = doc({ A: { type: 'object', properties: { b: { $ref: '#/components/schemas/B' } } }, B: { type: 'array', items: { $ref: '#/components/schemas/C' } }, C: { type: 'integer' } });
    const expected = await SwaggerParser.dereference(structuredClone(document) as never);
    let actual = '';
    withDereferenced(document, inspectRefs(document).dereference, (d) => (actual = JSON.stringify(d)));
    expect(actual).toBe(JSON.stringify(expected));
  });
});

const specFiles = [
  ...readdirSync(join(REPO_ROOT, 'fixtures', 'specs', 'features')).map((f) => join(REPO_ROOT, 'fixtures', 'specs', 'features', f)),
  join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
  ...['petstore-v3/openapi.yaml', 'train-travel/openapi.yaml', 'spotify/fixed-spotify-open-api.yml', 'petstore-v2-separate/spec/swagger.yaml']
    .map((f) => join(REPO_ROOT, '..', 'shared', 'specs', f))
    .filter((f) => existsSync(f)),
];

describe.each(specFiles)('%s', (file) => {
  // Canonical must mean "bundling leaves it as it is" (the bundle is skipped then); for these files the
  // converse holds too, so a check that grew too cautious fails here as well.
  it('is said canonical exactly when bundling would leave it as it is', async () => {
    const parsed = (await SwaggerParser.parse(file)) as Doc;
    const unchanged = JSON.stringify(await SwaggerParser.bundle(file)) === JSON.stringify(parsed);
    expect(inspectRefs(parsed).canonical).toBe(unchanged);
  });
});
