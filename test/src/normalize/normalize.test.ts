import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { normalizeSpec } from '../../../src/normalize/index.js';
import { pickMediaType } from '../../../src/normalize/request-body.js';
import type { SpecDialect } from '../../../src/ir/types.js';

function normalize(document: Record<string, unknown>, dialect: SpecDialect = 'openapi-3.0') {
  const diags = new Diagnostics();
  return { api: normalizeSpec({ document, dialect }, diags), diags };
}

describe('normalize', () => {
  it('merges path-level and operation-level parameters, the operation winning', () => {
    const { api } = normalize({
      openapi: '3.0.0',
      paths: {
        '/a/{id}': {
          parameters: [
            { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'q', in: 'query', schema: { type: 'string' } },
          ],
          get: { parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'integer' } }], responses: {} },
        },
      },
    });
    const params = api.operations[0]!.parameters;
    expect(params.map((p) => [p.in, p.name, p.required, p.schema['type']])).toEqual([
      ['path', 'id', true, 'string'],
      ['query', 'q', true, 'integer'],
    ]);
  });

  it('normalizes a shared parameter once, and reports its problems where it is defined', () => {
    const { api, diags } = normalize({
      openapi: '3.0.0',
      components: {
        parameters: {
          page: { name: 'page', in: 'query', description: 'Page number', schema: { type: 'integer' } },
          odd: { name: 'odd', in: 'nowhere', schema: { type: 'string' } },
        },
      },
      paths: {
        '/a': {
          get: {
            parameters: [{ $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/odd' }],
            responses: {},
          },
        },
        '/b': {
          get: {
            parameters: [{ $ref: '#/components/parameters/page' }, { $ref: '#/components/parameters/odd' }],
            responses: {},
          },
        },
      },
    });
    const [a, b] = api.operations;
    expect(a!.parameters).toHaveLength(1);
    expect(a!.parameters[0]).toBe(b!.parameters[0]);
    expect(a!.parameters[0]!.schema).toEqual({ type: 'integer', description: 'Page number' });
    expect(diags.all.filter((d) => d.code === 'OTM_PARAM_INVALID').map((d) => d.pointer)).toEqual([
      '#/components/parameters/odd',
    ]);
  });

  it('maps Swagger 2.0 collectionFormat, host/basePath and formData', () => {
    const { api } = normalize(
      {
        swagger: '2.0',
        host: 'api.example.com',
        basePath: '/v2',
        schemes: ['http', 'https'],
        paths: {
          '/pets': {
            post: {
              consumes: ['multipart/form-data'],
              parameters: [
                { name: 'tags', in: 'query', type: 'array', items: { type: 'string' }, collectionFormat: 'pipes' },
                { name: 'ids', in: 'query', type: 'array', items: { type: 'integer' } },
                { name: 'file', in: 'formData', type: 'file', required: true },
                { name: 'note', in: 'formData', type: 'string' },
              ],
              responses: {},
            },
          },
        },
      },
      'swagger-2.0',
    );
    expect(api.servers.map((s) => s.url)).toEqual(['https://api.example.com/v2']);
    const op = api.operations[0]!;
    expect(op.parameters.map((p) => [p.name, p.style, p.explode])).toEqual([
      ['tags', 'pipeDelimited', false],
      ['ids', 'form', false],
    ]);
    expect(op.body).toMatchObject({
      mediaType: 'multipart/form-data',
      encodingKind: 'multipart',
      required: true,
      fileFields: ['file'],
    });
    expect(op.body!.schema['required']).toEqual(['file']);
  });

  it('substitutes server variables with their defaults', () => {
    const { api } = normalize({
      openapi: '3.0.0',
      servers: [
        { url: 'https://{region}.example.com/{v}', variables: { region: { default: 'eu' }, v: { default: 'v1' } } },
      ],
      paths: {},
    });
    expect(api.servers[0]!.url).toBe('https://eu.example.com/v1');
  });

  it('picks request body media types by a fixed preference', () => {
    expect(pickMediaType(['text/plain', 'application/x-www-form-urlencoded', 'application/vnd.api+json'])).toEqual({
      mediaType: 'application/vnd.api+json',
      kind: 'json',
    });
    expect(pickMediaType(['application/octet-stream', 'multipart/form-data'])).toEqual({
      mediaType: 'multipart/form-data',
      kind: 'multipart',
    });
    expect(pickMediaType(['application/xml'])).toEqual({ mediaType: 'application/xml', kind: 'text' });
  });

  it('requires path parameters to be non-empty strings', () => {
    const { api } = normalize({
      openapi: '3.0.0',
      paths: {
        '/a/{id}': {
          get: { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: {} },
        },
      },
    });
    expect(api.operations[0]!.parameters[0]!.schema).toEqual({ type: 'string', minLength: 1 });
  });

  it('ignores Accept header parameters, as OpenAPI says', () => {
    const { api } = normalize({
      openapi: '3.0.0',
      paths: {
        '/a': { get: { parameters: [{ name: 'Accept', in: 'header', schema: { type: 'string' } }], responses: {} } },
      },
    });
    expect(api.operations[0]!.parameters).toEqual([]);
  });

  it('sends format byte bodies as base64 text and format binary bodies as bytes', () => {
    const binary = (format: string) => ({
      required: true,
      content: { 'application/octet-stream': { schema: { type: 'string', format } } },
    });
    const { api } = normalize({
      openapi: '3.0.0',
      paths: {
        '/a': {
          put: { requestBody: binary('binary'), responses: {} },
          post: { requestBody: binary('byte'), responses: {} },
        },
      },
    });
    const [put, post] = api.operations.map((op) => op.body!);
    expect([put!.encodingKind, put!.schema['type'], put!.base64Text]).toEqual(['binary', 'object', undefined]);
    expect([post!.encodingKind, post!.schema['type'], post!.schema['contentEncoding'], post!.base64Text]).toEqual([
      'text',
      'string',
      'base64',
      'base64',
    ]);
  });

  it('reads OpenAPI 3.1 contentEncoding as base64 text, a JSON string under a JSON media type', () => {
    const body = (mediaType: string, schema: Record<string, unknown>) => ({
      required: true,
      content: { [mediaType]: { schema } },
    });
    const { api } = normalize(
      {
        openapi: '3.1.0',
        paths: {
          '/a': {
            put: { requestBody: body('image/png', { type: 'string', contentEncoding: 'base64' }), responses: {} },
            post: { requestBody: body('text/plain', { contentEncoding: 'base64url' }), responses: {} },
            patch: { requestBody: body('application/json', { type: 'string', format: 'byte' }), responses: {} },
          },
        },
      },
      'openapi-3.1',
    );
    const shapes = api.operations.map((op) => [op.method, op.body!.encodingKind, op.body!.base64Text]);
    expect(shapes).toEqual([
      ['put', 'text', 'base64'],
      ['post', 'text', 'base64url'],
      ['patch', 'json', 'base64'],
    ]);
  });

  it('reads a Swagger 2.0 body parameter of format byte as base64 text', () => {
    const { api } = normalize(
      {
        swagger: '2.0',
        paths: {
          '/files/{name}': {
            put: {
              consumes: ['application/octet-stream'],
              parameters: [
                { name: 'name', in: 'path', required: true, type: 'string' },
                { name: 'file', in: 'body', required: true, schema: { type: 'string', format: 'byte' } },
              ],
              responses: {},
            },
          },
        },
      },
      'swagger-2.0',
    );
    const body = api.operations[0]!.body!;
    expect([body.mediaType, body.encodingKind, body.base64Text, body.schema['contentEncoding']]).toEqual([
      'application/octet-stream',
      'text',
      'base64',
      'base64',
    ]);
  });

  it('requires a required JSON body the spec does not describe, any value but null', () => {
    const body = (required: boolean) => ({ required, content: { 'application/json': {} } });
    const { api } = normalize({
      openapi: '3.0.0',
      paths: {
        '/a': { delete: { requestBody: body(true), responses: {} }, post: { requestBody: body(false), responses: {} } },
      },
    });
    const [post, del] = api.operations.map((op) => op.body!);
    expect(del!.required).toBe(true);
    expect(del!.schema['type']).toEqual(['object', 'array', 'string', 'number', 'boolean']);
    expect(post!.schema).toEqual({});
  });

  it('samples responses nested or branched without bound without overflowing or blowing up', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 3000; i++) deep = i % 2 ? { oneOf: [deep, {}] } : { allOf: [deep, {}] };
    let wide: Record<string, unknown> = {};
    for (let i = 0; i < 40; i++) wide = { anyOf: [wide, wide] };
    const response = (schema: unknown) => ({
      '200': { description: 'ok', content: { 'application/json': { schema } } },
    });
    const started = Date.now();
    const { api } = normalize({
      openapi: '3.0.0',
      paths: { '/deep': { get: { responses: response(deep) } }, '/wide': { get: { responses: response(wide) } } },
    });
    expect(api.operations).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('maps the file fields of a multipart body whose schema adds them with allOf', () => {
    const { api } = normalize({
      openapi: '3.0.0',
      components: {
        schemas: { Meta: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } },
      },
      paths: {
        '/up': {
          post: {
            requestBody: {
              content: {
                'multipart/form-data': {
                  schema: {
                    allOf: [
                      { $ref: '#/components/schemas/Meta' },
                      {
                        type: 'object',
                        required: ['file'],
                        properties: { file: { type: 'string', format: 'binary' } },
                      },
                    ],
                  },
                },
              },
            },
            responses: {},
          },
        },
      },
    });
    const body = api.operations[0]!.body!;
    expect(body.fileFields).toEqual(['file']);
    expect(Object.keys(body.schema['properties'] as object)).toEqual(['title', 'file']);
    expect(body.schema['required']).toEqual(['title', 'file']);
  });
});
