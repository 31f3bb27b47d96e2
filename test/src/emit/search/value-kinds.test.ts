/** The kinds of value an operation's arguments accept (src/emit/search/value-kinds.ts). */
import { describe, expect, it } from 'vitest';
import { argumentKinds, nameKinds, operationKinds } from '../../../../src/emit/search/value-kinds.js';
import { createBody, createParameter } from '../../../../src/ir/factory.js';
import type { ApiModel } from '../../../../src/ir/types.js';
import { toolOf } from '../../../helpers/tool-models.js';

describe('argument kinds', () => {
  it('reads the format', () => {
    expect(argumentKinds('to', { type: 'string', format: 'email' })).toEqual(['email']);
    expect(argumentKinds('x', { type: 'string', format: 'date-time' })).toEqual(['date']);
    expect(argumentKinds('x', { type: 'string', format: 'ipv4' })).toEqual(['ipv4']);
    expect(argumentKinds('x', { type: 'string', format: 'binary' })).toEqual(['file']);
  });

  it('tests the pattern with each kind’s samples, and ignores a pattern that accepts anything', () => {
    expect(argumentKinds('x', { type: 'string', pattern: '^[A-Z]+-[0-9]+$' })).toEqual(['key']);
    expect(argumentKinds('x', { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' })).toEqual(['date']);
    expect(argumentKinds('x', { type: 'string', pattern: '.*' })).toEqual([]);
    expect(argumentKinds('x', { type: 'string', pattern: '([' })).toEqual([]);
  });

  it('reads whole example and default values, of the schema and of its items', () => {
    expect(argumentKinds('x', { type: 'string', example: '198.51.100.4' })).toEqual(['ipv4']);
    expect(argumentKinds('x', { type: 'array', items: { type: 'string', examples: ['ann@example.org'] } })).toEqual([
      'email',
    ]);
    expect(argumentKinds('x', { type: 'string', example: 'see https://example.com for details' })).toEqual([]);
  });

  it('reads the words of the name', () => {
    expect(nameKinds('ip_address')).toEqual(['ipv4', 'ipv6']);
    expect(nameKinds('since')).toEqual(['date']);
    expect(nameKinds('created_at')).toEqual(['date']);
    expect(nameKinds('userEmail')).toEqual(['email']);
    expect(nameKinds('customer_id')).toEqual(['id']);
    expect(nameKinds('state')).toEqual([]);
  });
});

describe('operation kinds', () => {
  const api = {
    tags: [],
    schemas: {
      Record: {
        type: 'object',
        properties: {
          type: { enum: ['A', 'AAAA'] },
          data: { type: 'string', example: '198.51.100.4' },
          meta: { type: 'object', properties: { contact: { type: 'string', format: 'email' } } },
        },
      },
    },
  } as unknown as ApiModel;

  it('classifies path, query and body arguments, through $refs and one level into the body', () => {
    const tool = toolOf('post', '/domains/{domain_name}/records', {
      operationId: 'create_record',
      parameters: [
        createParameter({ name: 'domain_name', in: 'path', schema: { type: 'string', format: 'hostname' } }),
        createParameter({ name: 'since', in: 'query', schema: { type: 'string' } }),
      ],
      body: createBody({ mediaType: 'application/json', encodingKind: 'json', schema: { $ref: '#/$defs/Record' } }),
    });
    expect(operationKinds(tool, api.schemas)).toBe('#date #domain #email #ipv4 #name');
  });

  it('takes a file for a binary body', () => {
    const tool = toolOf('put', '/files/{id}/content', {
      operationId: 'upload',
      body: createBody({ mediaType: 'application/octet-stream', encodingKind: 'binary', schema: { type: 'string' } }),
    });
    expect(operationKinds(tool, {})).toContain('#file');
  });
});
