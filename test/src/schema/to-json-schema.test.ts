import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import {
  firstSentence,
  MAX_CONVERSION_DEPTH,
  plainPunctuation,
  SchemaConverter,
  trimDescription,
} from '../../../src/schema/to-json-schema.js';
import { transitiveDefs } from '../../../src/schema/refs.js';
import type { SpecDialect } from '../../../src/ir/types.js';

function converter(document: Record<string, unknown> = {}, dialect: SpecDialect = 'openapi-3.0') {
  const diags = new Diagnostics();
  return { c: new SchemaConverter(document, diags, dialect), diags };
}

describe('OpenAPI schema → JSON Schema 2020-12', () => {
  it('rewrites nullable, boolean exclusive bounds and example', () => {
    const { c } = converter();
    expect(c.convert({ type: 'integer', nullable: true, minimum: 1, exclusiveMinimum: true, example: 5 }, '#')).toEqual(
      {
        type: ['integer', 'null'],
        exclusiveMinimum: 1,
        examples: [5],
      },
    );
    expect(c.convert({ type: 'string', enum: ['a'], nullable: true }, '#')).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
  });

  it('drops vendor extensions, discriminator and xml, and gives every array items', () => {
    const { c } = converter();
    expect(
      c.convert({ type: 'array', 'x-foo': 1, xml: { name: 'a' }, discriminator: { propertyName: 't' } }, '#'),
    ).toEqual({ type: 'array', items: {} });
  });

  it('leaves readOnly properties out of inputs, including from required', () => {
    const { c } = converter();
    const out = c.convert(
      {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } },
      },
      '#',
    );
    expect(out).toEqual({ type: 'object', required: ['name'], properties: { name: { type: 'string' } } });
  });

  it('turns refs into $defs, converting recursive schemas once', () => {
    const doc = {
      components: {
        schemas: { Node: { type: 'object', properties: { child: { $ref: '#/components/schemas/Node' } } } },
      },
    };
    const { c } = converter(doc);
    expect(c.convert({ $ref: '#/components/schemas/Node' }, '#')).toEqual({ $ref: '#/$defs/Node' });
    expect(c.defs['Node']).toEqual({ type: 'object', properties: { child: { $ref: '#/$defs/Node' } } });
    expect(transitiveDefs({ $ref: '#/$defs/Node' }, c.defs)).toEqual(['Node']);
  });

  it('merges allOf of inline objects and keeps shared members as refs', () => {
    const doc = { components: { schemas: { Base: { type: 'object', properties: { a: { type: 'string' } } } } } };
    const { c } = converter(doc);
    expect(
      c.convert(
        {
          allOf: [
            { type: 'object', properties: { a: { type: 'string' } } },
            { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
          ],
        },
        '#',
      ),
    ).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['b'],
    });
    expect(
      c.convert({ allOf: [{ $ref: '#/components/schemas/Base' }, { properties: { b: { type: 'integer' } } }] }, '#'),
    ).toEqual({
      allOf: [{ $ref: '#/$defs/Base' }, { properties: { b: { type: 'integer' } } }],
    });
  });

  it('keeps 3.1 type arrays and const, drops patterns Ajv cannot compile', () => {
    const { c, diags } = converter();
    expect(c.convert({ type: ['string', 'null'], const: 'x', pattern: '(?<!a' }, '#')).toEqual({
      type: ['string', 'null'],
      const: 'x',
    });
    expect(diags.all.map((d) => d.message)).toEqual([
      'pattern "(?<!a" is not a valid ECMAScript regular expression; it is left out',
    ]);
  });

  it('keeps the patterns the server matches in linear time, and says why it drops the others', () => {
    const { c, diags } = converter();
    expect(c.convert({ type: 'string', pattern: '^(\\w+\\s?)*$' }, '#/a')).toEqual({
      type: 'string',
      pattern: '^(\\w+\\s?)*$',
    });
    expect(c.convert({ type: 'string', pattern: '^(?!\\s*$).+' }, '#/b')).toEqual({ type: 'string' });
    expect(c.convert({ type: 'string', pattern: '^(ab)\\1$' }, '#/c')).toEqual({ type: 'string' });
    expect(diags.all.map((d) => [d.code, d.pointer, d.message])).toEqual([
      [
        'OTM_SCHEMA_SIMPLIFIED',
        '#/b',
        'pattern "^(?!\\\\s*$).+" needs lookaround or backreferences, which the server cannot check in linear time; it is left out',
      ],
      [
        'OTM_SCHEMA_SIMPLIFIED',
        '#/c',
        'pattern "^(ab)\\\\1$" needs lookaround or backreferences, which the server cannot check in linear time; it is left out',
      ],
    ]);
  });

  it('wraps a scalar default of an array parameter', () => {
    const { c } = converter();
    expect(c.convert({ type: 'array', items: { type: 'string' }, default: 'available' }, '#')).toEqual({
      type: 'array',
      items: { type: 'string' },
      default: ['available'],
    });
  });

  it('keeps a required name the spec forgot to describe, as a free-form property', () => {
    const { c } = converter();
    const out = c.convert({ type: 'object', required: ['key'], properties: { name: { type: 'string' } } }, '#');
    expect(out['required']).toEqual(['key']);
    expect(Object.keys(out['properties'] as object)).toEqual(['name', 'key']);
  });

  it('reports unresolved refs and accepts any value there', () => {
    const { c, diags } = converter();
    expect(c.convert({ $ref: 'other.yaml#/X' }, '#/p')).toHaveProperty('description');
    expect(diags.all.map((d) => d.code)).toEqual(['OTM_UNRESOLVED_REF']);
  });
});

describe('descriptions in plain punctuation', () => {
  it('turns typographic quotes, dashes, ellipses and odd spaces into their ASCII twins, and nothing else', () => {
    expect(
      plainPunctuation('It\u2019s \u201cquoted\u201d \u2013 a range 1\u20132 \u2014 aside\u2026\u00a0done\u200b'),
    ).toBe('It\'s "quoted" - a range 1-2 -- aside... done');
    expect(plainPunctuation('Café, naïve, 東京, emoji 😀')).toBe('Café, naïve, 東京, emoji 😀');
  });

  it('keeps a tool list of Latin-script text in one-byte characters, cut marks included', () => {
    const long = `${'A sentence\u2019s worth. '.repeat(200)}`;
    for (const text of [trimDescription(long, 300), firstSentence(`${'word '.repeat(100)}end.`, 50)]) {
      expect(text.endsWith('...')).toBe(true);
      expect([...text].every((ch) => ch.charCodeAt(0) <= 0xff)).toBe(true);
    }
  });
});

describe('siblings of $ref', () => {
  const document = { components: { schemas: { Id: { type: 'integer', minimum: 1 } } } };
  const withSiblings = {
    $ref: '#/components/schemas/Id',
    type: 'string',
    maximum: 9,
    nullable: true,
    description: 'The id. More.',
  };

  it('are ignored in OpenAPI 3.0 and Swagger 2.0, but for the description', () => {
    for (const dialect of ['openapi-3.0', 'swagger-2.0'] as const) {
      const { c } = converter(document, dialect);
      expect(c.convert(withSiblings, '#/p')).toEqual({ $ref: '#/$defs/Id', description: 'The id.' });
      expect(c.defs['Id']).toEqual({ type: 'integer', minimum: 1 });
    }
  });

  it('apply next to the $ref in OpenAPI 3.1', () => {
    const { c } = converter(document, 'openapi-3.1');
    expect(c.convert({ $ref: '#/components/schemas/Id', maximum: 9, description: 'The id. More.' }, '#/p')).toEqual({
      $ref: '#/$defs/Id',
      maximum: 9,
      description: 'The id.',
    });
    expect(c.convert({ $ref: '#/components/schemas/Id', type: 'string' }, '#/p')).toEqual({
      $ref: '#/$defs/Id',
      type: 'string',
    });
  });
});

describe('nesting a hostile spec could use to overflow the stack', () => {
  it('stops converting past MAX_CONVERSION_DEPTH levels, refs included, with a diagnostic', () => {
    let nested: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 5000; i++) nested = { type: 'object', properties: { n: nested } };
    const { c, diags } = converter();
    let level = c.convert(nested, '#/s');
    let depth = 0;
    while (level['properties']) {
      level = (level['properties'] as Record<string, Record<string, unknown>>)['n']!;
      depth++;
    }
    expect(depth).toBe(MAX_CONVERSION_DEPTH);
    expect(level['description']).toMatch(/nests its schema more than 64 levels/);
    expect(diags.all.map((d) => d.code)).toEqual(['OTM_SCHEMA_SIMPLIFIED']);

    const schemas: Record<string, unknown> = {};
    for (let i = 0; i < 3000; i++)
      schemas[`S${i}`] = { type: 'object', properties: { n: { $ref: `#/components/schemas/S${i + 1}` } } };
    const chain = converter({ components: { schemas } });
    expect(() => chain.c.convert({ $ref: '#/components/schemas/S0' }, '#/s')).not.toThrow();
    expect(chain.diags.all.some((d) => d.code === 'OTM_SCHEMA_SIMPLIFIED')).toBe(true);
  });

  it('cuts YAML alias cycles and alias bombs (shared objects) short, with a diagnostic', () => {
    const cyclic: Record<string, unknown> = { type: 'object', properties: {} };
    (cyclic['properties'] as Record<string, unknown>)['self'] = cyclic;
    const cycle = converter();
    expect(cycle.c.convert(cyclic, '#/s')).toEqual({
      type: 'object',
      properties: { self: { description: 'Free-form value (the spec nests this schema inside itself)' } },
    });

    let bomb: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) bomb = { anyOf: [bomb, bomb] };
    const laughs = converter();
    const started = Date.now();
    expect(JSON.stringify(laughs.c.convert(bomb, '#/s')).length).toBeLessThan(5_000_000);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(laughs.diags.all.map((d) => d.message)).toEqual([expect.stringMatching(/more than 10000 times/)]);

    const shared = { type: 'integer' };
    const benign = converter();
    expect(benign.c.convert({ type: 'object', properties: { a: shared, b: shared } }, '#/s')).toEqual({
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
    });
    expect(benign.diags.all).toEqual([]);
  });
});
