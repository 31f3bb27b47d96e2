import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { createBody, createOperation, createParameter } from '../../../src/ir/factory.js';
import type { SecuritySchemeModel } from '../../../src/ir/types.js';
import { mapOperation } from '../../../src/tools/map-operation.js';

const bearer: SecuritySchemeModel = { kind: 'securityScheme', name: 'bearer', type: 'http', scheme: 'bearer' };

function map(
  op: ReturnType<typeof createOperation>,
  securitySchemes: SecuritySchemeModel[] = [],
  globalSecurity?: string[][],
) {
  const diags = new Diagnostics();
  return {
    tool: mapOperation(op, 'tool', { defs: {}, globalSecurity, securitySchemes, diags, outputSchemas: true }),
    diags,
  };
}

describe('operation → tool', () => {
  it('builds a root object schema with parameters and the body, and a request plan with wire names', () => {
    const op = createOperation({
      method: 'post',
      path: '/a/{id}',
      parameters: [
        createParameter({ name: 'id', in: 'path', schema: { type: 'string' } }),
        createParameter({ name: 'id', in: 'query', schema: { type: 'integer' } }),
      ],
      body: createBody({
        mediaType: 'application/json',
        encodingKind: 'json',
        required: true,
        schema: { type: 'object' },
      }),
    });
    const { tool } = map(op);
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, id_query: { type: 'integer' }, body: { type: 'object' } },
      required: ['id', 'body'],
      additionalProperties: false,
    });
    expect(tool.request.params.map((p) => [p.arg, p.name, p.in])).toEqual([
      ['id', 'id', 'path'],
      ['id_query', 'id', 'query'],
    ]);
    expect(tool.request.body).toEqual({ arg: 'body', mediaType: 'application/json', kind: 'json', required: true });
    expect(tool.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    });
  });

  it('accepts an undeclared path variable as a required string, with a warning', () => {
    const { tool, diags } = map(createOperation({ method: 'get', path: '/a/{x}' }));
    expect(tool.inputSchema['required']).toEqual(['x']);
    expect(diags.all.map((d) => d.code)).toEqual(['OTM_PATH_PARAM_MISSING']);
  });

  it('keeps an Authorization header parameter only where no security scheme supplies it', () => {
    const op = createOperation({
      method: 'get',
      path: '/a',
      parameters: [createParameter({ name: 'Authorization', in: 'header', required: true })],
    });
    expect(Object.keys(map(op).tool.inputSchema['properties'] as object)).toEqual(['Authorization']);
    expect(Object.keys(map(op, [bearer], [['bearer']]).tool.inputSchema['properties'] as object)).toEqual([]);
  });

  it('drops a Content-Type header parameter when the body sets it', () => {
    const header = createParameter({ name: 'Content-Type', in: 'header' });
    const withBody = createOperation({
      method: 'post',
      path: '/a',
      parameters: [header],
      body: createBody({ mediaType: 'text/plain', encodingKind: 'text' }),
    });
    expect(map(withBody).tool.request.params).toEqual([]);
    const withoutBody = createOperation({ method: 'post', path: '/a', parameters: [header] });
    expect(map(withoutBody).tool.request.params.map((p) => p.name)).toEqual(['Content-Type']);
  });

  it('marks deprecated operations and cuts long descriptions', () => {
    const { tool } = map(
      createOperation({ method: 'get', path: '/a', deprecated: true, description: 'x'.repeat(5000) }),
    );
    expect(tool.description.startsWith('[Deprecated] ')).toBe(true);
    expect(tool.description.length).toBeLessThan(1300);
  });
});

describe('content type without a body', () => {
  it('sends the media type when the spec requires a Content-Type header next to an optional body', () => {
    const op = createOperation({
      method: 'post',
      path: '/a',
      parameters: [createParameter({ name: 'Content-Type', in: 'header', required: true })],
      body: createBody({ mediaType: 'application/json', encodingKind: 'json' }),
    });
    const diags = new Diagnostics();
    const tool = mapOperation(op, 'tool', {
      defs: {},
      globalSecurity: undefined,
      securitySchemes: [],
      diags,
      outputSchemas: true,
    });
    expect(tool.request.body).toMatchObject({ contentTypeRequired: true });
  });

  it('describes the operation by its summary first, condensed, and keeps the whole text beside it', () => {
    const description = `Multiple status values can be provided. ${'See [the guide](https://example.com/guide) for more. '.repeat(30)}`;
    const { tool } = map(
      createOperation({ method: 'get', path: '/pets', summary: 'Finds Pets by status', description }),
    );
    expect(tool.title).toBe('Finds Pets by status');
    expect(
      tool.description.startsWith('Finds Pets by status.\n\nMultiple status values can be provided. See the guide'),
    ).toBe(true);
    expect(Buffer.byteLength(tool.description)).toBeLessThanOrEqual(400);
    expect(tool.fullDescription).toBe(description.trim());
  });

  it('marks deprecation and raw-body usage in both texts; a tool with nothing to say is its route', () => {
    const op = createOperation({
      method: 'put',
      path: '/files/{id}',
      deprecated: true,
      summary: 'Upload a file',
      description: 'Uploads the bytes. '.repeat(40),
      parameters: [createParameter({ name: 'id', in: 'path', schema: { type: 'string' } })],
      body: createBody({ mediaType: 'application/octet-stream', encodingKind: 'binary', required: true, schema: {} }),
    });
    const { tool } = map(op);
    expect(tool.description).toMatch(/^\[Deprecated\] Upload a file\.\n\nUploads the bytes\./);
    expect(tool.description).toContain('Request body (application/octet-stream): raw bytes');
    expect(tool.fullDescription).toMatch(/^\[Deprecated\] Uploads the bytes\./);
    expect(tool.fullDescription).toContain('Request body (application/octet-stream): raw bytes');
    const bare = map(createOperation({ method: 'get', path: '/ping' })).tool;
    expect(bare.description).toBe('GET /ping');
    expect(bare.fullDescription).toBe('GET /ping');
  });
});
