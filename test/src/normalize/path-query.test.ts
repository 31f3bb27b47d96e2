import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { normalizeSpec } from '../../../src/normalize/index.js';
import { splitPathQuery } from '../../../src/normalize/path-query.js';

describe('path keys with a query string', () => {
  it('splits templates from literal pairs', () => {
    expect(splitPathQuery('/a/{id}')).toBeUndefined();
    expect(splitPathQuery('/sms?date_from={date_from}&date_to={to}')).toEqual({
      requestPath: '/sms',
      templates: [
        { name: 'date_from', variable: 'date_from' },
        { name: 'date_to', variable: 'to' },
      ],
    });
    expect(splitPathQuery('/calls?kind=inbound&since={since}&flag&q={a}-{b}')).toEqual({
      requestPath: '/calls?kind=inbound&flag&q={a}-{b}',
      templates: [{ name: 'since', variable: 'since' }],
    });
    expect(splitPathQuery('/x?a={a}&a={b}')).toEqual({
      requestPath: '/x?a={b}',
      templates: [{ name: 'a', variable: 'a' }],
    });
  });

  it('makes each template a query parameter: declared as path, as query, or not at all', () => {
    const diags = new Diagnostics();
    const api = normalizeSpec(
      {
        dialect: 'openapi-3.0',
        document: {
          openapi: '3.0.3',
          paths: {
            '/e?file={file}&from={from}&to={to}': {
              get: {
                parameters: [
                  { name: 'file', in: 'path', required: true, description: 'File name', schema: { type: 'string' } },
                  { name: 'from', in: 'query', schema: { type: 'string', format: 'date' } },
                ],
                responses: {},
              },
            },
          },
        },
      },
      diags,
    );
    const op = api.operations[0]!;
    expect(op.path).toBe('/e?file={file}&from={from}&to={to}');
    expect(op.requestPath).toBe('/e');
    expect(op.parameters.map((p) => [p.in, p.name, p.required, p.style, p.explode, p.schema])).toEqual([
      ['query', 'file', true, 'form', true, { type: 'string', minLength: 1, description: 'File name' }],
      ['query', 'from', false, 'form', true, { type: 'string', format: 'date' }],
      ['query', 'to', true, 'form', true, { type: 'string' }],
    ]);
    expect(diags.all.map((d) => [d.code, d.severity, d.pointer])).toEqual([
      ['OTM_QUERY_IN_PATH', 'warning', '#/paths/~1e?file={file}&from={from}&to={to}'],
    ]);
  });
});
