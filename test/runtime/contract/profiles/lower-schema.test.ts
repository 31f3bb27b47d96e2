/** Each lowering rule on its own (templates/runtime/contract/profiles/lower-schema.ts), and the profiles built from them. */
/* eslint-disable @typescript-eslint/no-explicit-any -- lowered schemas are read by path in the assertions */
import { describe, expect, it } from 'vitest';
import { lowerSchema, type LoweringRules } from '../../../../templates/runtime/contract/profiles/lower-schema.js';
import { NO_RULES, PROFILES } from '../../../../templates/runtime/contract/profiles/profiles.js';

const NONE: LoweringRules = NO_RULES;
const root = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  additionalProperties: false,
  ...extra,
});

describe('lowering rules', () => {
  it('inline-refs: $refs are replaced by their targets and $defs leave; a recursive one is inlined once more, then free-form', () => {
    const schema = root(
      { item: { $ref: '#/$defs/Node', description: 'The item.' } },
      {
        $defs: { Node: { type: 'object', properties: { name: { type: 'string' }, parent: { $ref: '#/$defs/Node' } } } },
      },
    );
    const { schema: out, fired } = lowerSchema(schema, { ...NONE, inlineRefs: true });
    expect(fired).toEqual(['inline-refs']);
    expect(out['$defs']).toBeUndefined();
    const item = (out['properties'] as any).item;
    expect(item.description).toBe('The item.');
    expect(item.properties.parent.properties.name).toEqual({ type: 'string' });
    expect(item.properties.parent.properties.parent).toEqual({
      description: '(recursive: the same shape as the enclosing Node)',
    });
  });

  it('without inline-refs, $defs stay and are lowered by the same rules', () => {
    const schema = root(
      { a: { $ref: '#/$defs/A' } },
      { $defs: { A: { type: 'object', properties: { x: { type: ['string', 'null'] } } } } },
    );
    const { schema: out } = lowerSchema(schema, { ...NONE, typeArrays: 'single' });
    expect((out['$defs'] as any).A.properties.x).toEqual({ type: 'string', description: '(may be null)' });
    expect((out['properties'] as any).a).toEqual({ $ref: '#/$defs/A' });
  });

  it('merge-unions: object branches merge (required only where all require), scalars keep the first and say the rest', () => {
    const schema = root({
      target: {
        oneOf: [
          {
            type: 'object',
            properties: { id: { type: 'integer' }, kind: { type: 'string' } },
            required: ['id', 'kind'],
          },
          { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        ],
      },
      expand: { anyOf: [{ type: 'string', maxLength: 5 }, { type: 'integer' }, { type: 'null' }] },
      both: {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'integer' } }, required: ['b'] },
        ],
      },
    });
    const { schema: out, fired } = lowerSchema(schema, { ...NONE, unions: 'all' });
    expect(fired).toEqual(['merge-unions']);
    const p = out['properties'] as any;
    expect(p.target).toEqual({
      type: 'object',
      properties: { id: { type: 'integer' }, kind: { type: 'string' }, name: { type: 'string' } },
      description: '(one of these shapes (* required): object {id*, kind*} | object {name*})',
    });
    expect(p.expand).toEqual({ type: 'string', maxLength: 5, description: '(may be null; also accepts: integer)' });
    expect(p.both).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'integer' } },
      required: ['a', 'b'],
    });
  });

  it('merge-root-unions: only the root loses its combinators', () => {
    const schema = {
      type: 'object',
      properties: { v: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      anyOf: [{ required: ['v'] }],
    };
    const { schema: out, fired } = lowerSchema(schema, { ...NONE, unions: 'root' });
    expect(fired).toEqual(['merge-root-unions']);
    expect(out['anyOf']).toBeUndefined();
    expect((out['properties'] as any).v.anyOf).toHaveLength(2);
  });

  it('single-types: a type array becomes one type, with null as words or as OpenAPI 3.0 nullable', () => {
    const schema = root({ a: { type: ['string', 'null'] }, b: { type: ['integer', 'string'] } });
    const words = lowerSchema(schema, { ...NONE, typeArrays: 'single' }).schema['properties'] as any;
    expect(words.a).toEqual({ type: 'string', description: '(may be null)' });
    expect(words.b).toEqual({ type: 'integer', description: '(also accepts: string)' });
    const keyword = lowerSchema(schema, { ...NONE, typeArrays: 'nullable-keyword' }).schema['properties'] as any;
    expect(keyword.a).toEqual({ type: 'string', nullable: true });
  });

  it('typed-nodes: an untyped node gets a type from what it holds, or object for any value', () => {
    const schema = root({
      a: { properties: { x: { type: 'string' } } },
      b: { items: { type: 'string' } },
      c: { enum: [1, 2] },
      d: {},
    });
    const { schema: out, fired } = lowerSchema(schema, { ...NONE, typedNodes: true });
    expect(fired).toEqual(['typed-nodes']);
    const p = out['properties'] as any;
    expect([p.a.type, p.b.type, p.c.type, p.d.type]).toEqual(['object', 'array', 'integer', 'object']);
    expect(p.d.description).toBe('(any JSON value)');
  });

  it('string-enums and const-as-enum: only string enums stay; other values are listed in words', () => {
    const schema = root({ level: { type: 'integer', enum: [1, 2, 3] }, kind: { const: 'pet' }, flag: { const: true } });
    const { schema: out, fired } = lowerSchema(schema, { ...NONE, stringEnums: true, constAsEnum: true });
    expect(fired).toEqual(['string-enums', 'const-as-enum']);
    const p = out['properties'] as any;
    expect(p.level).toEqual({ type: 'integer', description: '(one of: 1, 2, 3)' });
    expect(p.kind).toEqual({ type: 'string', enum: ['pet'] });
    expect(p.flag).toEqual({ type: 'boolean', description: '(must be true)' });
  });

  it('keyword-subset and format-subset: a keyword or format the host does not take moves into the description', () => {
    const schema = root({
      url: {
        type: 'string',
        format: 'uri',
        minLength: 3,
        default: 'x',
        examples: ['https://a.example'],
        description: 'Where.',
      },
    });
    const rules = { ...NONE, keywords: new Set(['type', 'format', 'description']), formats: new Set(['date-time']) };
    const { schema: out, fired } = lowerSchema(schema, rules);
    expect(fired).toEqual(['keyword-subset', 'format-subset']);
    expect((out['properties'] as any).url).toEqual({
      type: 'string',
      description: 'Where. (minLength: 3; default "x"; e.g. "https://a.example"; format: uri)',
    });
  });

  it('format-subset: a dropped uuid or date format stays as a pattern where the host takes patterns', () => {
    const schema = root({
      id: { type: 'string', format: 'uuid' },
      day: { type: 'string', format: 'date', pattern: '^2' },
    });
    const p = lowerSchema(schema, PROFILES.gemini.rules!).schema['properties'] as any;
    expect(p.id).toEqual({
      type: 'string',
      pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
      description: '(format: uuid)',
    });
    expect(p.day).toEqual({ type: 'string', pattern: '^2', description: '(format: date)' });
  });

  it('nullable-keyword: a value that can only be null (Vercel\'s `ssoUserId: {type: "null"}`) is typed, nullable, and says so', () => {
    const schema = root({ only: { type: 'null' }, listed: { type: ['null'] }, either: { type: ['string', 'null'] } });
    const p = lowerSchema(schema, PROFILES.gemini.rules!).schema['properties'] as any;
    expect(p.only).toEqual({ type: 'object', nullable: true, description: '(must be null)' });
    expect(p.listed).toEqual(p.only);
    expect(p.either).toEqual({ type: 'string', nullable: true });
  });

  it('droppedKeywords: only the named keywords go', () => {
    const schema = root({ a: { type: 'object', unevaluatedProperties: false, $dynamicRef: '#meta', properties: {} } });
    const { schema: out } = lowerSchema(schema, {
      ...NONE,
      droppedKeywords: new Set(['$dynamicRef', 'unevaluatedProperties']),
    });
    expect((out['properties'] as any).a).toEqual({
      type: 'object',
      properties: {},
      description: '(unevaluatedProperties: false; $dynamicRef: "#meta")',
    });
  });

  it('object-properties and array-items: every object has properties and every array items', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'object' }, b: { type: 'array' }, c: { type: ['array', 'null'] } },
    };
    const { schema: out, fired } = lowerSchema(schema, { ...NONE, objectProperties: true, arrayItems: true });
    expect(fired).toEqual(['object-properties', 'array-items']);
    expect(out['properties']).toEqual({
      a: { type: 'object', properties: {} },
      b: { type: 'array', items: {} },
      c: { type: ['array', 'null'], items: {} },
    });
    expect(lowerSchema({ type: 'object' }, { ...NONE, objectProperties: true }).schema).toEqual({
      type: 'object',
      properties: {},
    });
  });

  it('drop-additional-properties: the keyword goes; a map says what its values are', () => {
    const schema = root({ labels: { type: 'object', additionalProperties: { type: 'string' } } });
    const { schema: out } = lowerSchema(schema, { ...NONE, dropAdditionalProperties: true });
    expect(out['additionalProperties']).toBeUndefined();
    expect((out['properties'] as any).labels).toEqual({
      type: 'object',
      description: '(other keys allowed, each string)',
    });
  });

  it('strict-objects: all properties required, optional ones nullable and recorded; free-form values become JSON text', () => {
    const schema = root(
      {
        name: { type: 'string' },
        tag: { type: 'string', enum: ['a', 'b'] },
        meta: { type: 'object', additionalProperties: { type: 'string' } },
        items: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } },
      },
      { required: ['name'] },
    );
    const { schema: out, decoding, fired } = lowerSchema(schema, PROFILES['openai-strict'].rules!);
    expect(fired).toContain('strict-objects');
    expect(fired).toContain('free-form-as-json-text');
    expect(out['required']).toEqual(['name', 'tag', 'meta', 'items']);
    const p = out['properties'] as any;
    expect(p.tag).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(p.meta).toEqual({
      type: ['string', 'null'],
      description: '(a JSON object, written as JSON text; each value string)',
    });
    expect(p.items.items).toEqual({
      type: 'object',
      properties: { id: { type: ['integer', 'null'] } },
      required: ['id'],
      additionalProperties: false,
    });
    expect(decoding).toEqual({
      absentWhenNull: [['items', '*', 'id'], ['tag'], ['meta'], ['items']],
      jsonText: [['meta']],
    });
  });

  it('max-depth: deeper than the host nests, a value is JSON text (strict) or free-form', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 12; i++) deep = { type: 'object', properties: { next: deep }, required: ['next'] };
    const { schema: out, fired } = lowerSchema(
      root({ deep }, { required: ['deep'] }),
      PROFILES['openai-strict'].rules!,
    );
    expect(fired).toContain('max-depth');
    let node = (out['properties'] as any).deep;
    let levels = 2;
    while (node.type === 'object') {
      node = node.properties.next;
      levels++;
    }
    expect(levels).toBe(11);
    expect(node.type).toBe('string');
    expect(node.description).toMatch(
      /^\(a JSON object, written as JSON text; nested too deep to show: object \{next\*\}\)$/,
    );
  });

  it('is deterministic and leaves the input alone', () => {
    const schema = root(
      { a: { anyOf: [{ type: 'string' }, { $ref: '#/$defs/B' }] } },
      { $defs: { B: { type: 'object', properties: { x: { const: 1 } } } } },
    );
    const before = JSON.stringify(schema);
    const once = JSON.stringify(lowerSchema(schema, PROFILES.portable.rules!));
    expect(JSON.stringify(lowerSchema(schema, PROFILES.portable.rules!))).toBe(once);
    expect(JSON.stringify(schema)).toBe(before);
  });
});
