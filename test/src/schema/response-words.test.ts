/** The words of a success response that the search indexes (src/schema/response-words.ts). */
import { describe, expect, it } from 'vitest';
import { responseWords } from '../../../src/schema/response-words.js';
import { isPlainObject } from '../../../src/util/stable.js';

const SCHEMAS: Record<string, Record<string, unknown>> = {
  'full-repository': {
    allOf: [{ $ref: '#/components/schemas/repository' }, { type: 'object', properties: { license: {} } }],
  },
  repository: { type: 'object', properties: { name: {}, stargazers_count: {} } },
  track: { type: 'object', title: 'Track object', properties: { duration_ms: {}, album: {} } },
};

/** resolveRaw's contract: a `$ref` followed, anything else as it is. */
function resolve(schema: unknown): Record<string, unknown> | undefined {
  if (!isPlainObject(schema)) return undefined;
  const ref = schema['$ref'];
  return typeof ref === 'string' ? SCHEMAS[ref.slice(ref.lastIndexOf('/') + 1)] : schema;
}

describe('response words', () => {
  it('names an object response by its $ref and lists its properties, through allOf', () => {
    expect(responseWords({ $ref: '#/components/schemas/full-repository' }, resolve)).toEqual({
      names: ['full-repository'],
      properties: ['name', 'stargazers_count', 'license'],
    });
  });

  it("reads an array response's items: their name, title and properties", () => {
    expect(responseWords({ type: 'array', items: { $ref: '#/components/schemas/track' } }, resolve)).toEqual({
      names: ['track', 'Track object'],
      properties: ['duration_ms', 'album'],
    });
  });

  it('has nothing to say of a response without a schema or words', () => {
    expect(responseWords(undefined, resolve)).toBeUndefined();
    expect(responseWords({ type: 'string' }, resolve)).toBeUndefined();
  });
});
