/**
 * Code mode's declarations (src/emit/code-mode/declarations.ts, ts-type.ts) and the result shapes they end with
 * (src/schema/result-shape.ts): each operation as a TypeScript method of `api` that compiles, says what the
 * operation does, and stays readable however large its schemas are.
 */
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { CatalogTool, JsonSchema } from '../../../../templates/runtime/contract/catalog.js';
import { declaration } from '../../../../src/emit/code-mode/declarations.js';
import { docText, typeText } from '../../../../src/emit/code-mode/ts-type.js';
import { resultShape } from '../../../../src/schema/result-shape.js';

function tool(overrides: Partial<CatalogTool> = {}): CatalogTool {
  return {
    name: 'getPet',
    title: 'Get a pet',
    description: 'Get a pet\n\nReturns one pet by its id.',
    inputSchema: {
      type: 'object',
      properties: { petId: { type: 'integer', description: 'The id of the pet.' } },
      required: ['petId'],
      additionalProperties: false,
    },
    defs: [],
    annotations: { readOnlyHint: true, destructiveHint: false },
    request: { method: 'GET', path: '/pets/{petId}', params: [] },
    ...overrides,
  };
}

/** TypeScript's own parser: the declarations placed in `interface Api { … }` must have no syntax errors. */
function syntaxErrors(members: string[]): string[] {
  const source = `interface Api {\n${members.join('\n')}\n}\n`;
  const file = ts.createSourceFile('api.d.ts', source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const diagnostics = (file as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics;
  return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

const opts = { defs: {}, maxDepth: 4, docs: true, indent: '' };

describe('typeText', () => {
  it('writes scalars, enums, consts, arrays, unions and nullable types', () => {
    expect(typeText({ type: 'integer' }, opts)).toBe('number');
    expect(typeText({ enum: ['a', 'b'] }, opts)).toBe('"a" | "b"');
    expect(typeText({ const: 3 }, opts)).toBe('3');
    expect(typeText({ type: 'array', items: { type: ['string', 'null'] } }, opts)).toBe('(string | null)[]');
    expect(typeText({ oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'number' } }] }, opts)).toBe(
      'string | number[]',
    );
    expect(typeText({ type: 'object', additionalProperties: { type: 'boolean' } }, opts)).toBe(
      'Record<string, boolean>',
    );
  });

  it('writes objects with optional keys, quoted names and property descriptions', () => {
    const text = typeText(
      {
        type: 'object',
        properties: { id: { type: 'string', description: 'The **id**. More text.' }, 'x-y': { type: 'number' } },
        required: ['id'],
      },
      opts,
    );
    expect(text).toBe('{\n  /** The id. More text. */\n  id: string;\n  "x-y"?: number;\n}');
  });

  it('inlines $defs, names a recursive one, and stops at the depth', () => {
    const defs: Record<string, JsonSchema> = {
      Node: { type: 'object', properties: { value: { type: 'string' }, next: { $ref: '#/$defs/Node' } } },
    };
    const text = typeText({ $ref: '#/$defs/Node' }, { ...opts, defs, docs: false });
    expect(text).toContain('next?: object /* Node, recursive */;');
    const shallow = typeText(
      { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'string' } } } } },
      { ...opts, maxDepth: 1 },
    );
    expect(shallow).toContain('a?: object /* b */;');
  });

  it('stays bounded on unions nested in unions (2^40 branches)', () => {
    let wide: JsonSchema = { type: 'string' };
    for (let i = 0; i < 40; i++) wide = { anyOf: [wide, { allOf: [wide, {}] }] };
    const started = Date.now();
    expect(typeText(wide, opts).length).toBeLessThan(100_000);
    expect(JSON.stringify(resultShape(wide, (s) => s as Record<string, unknown>)).length).toBeLessThan(100_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('collapses enums past 25 values to their type', () => {
    expect(typeText({ type: 'string', enum: Array.from({ length: 30 }, (_, i) => `v${i}`) }, opts)).toBe('string');
  });

  it('keeps comments on one line, without a comment end', () => {
    expect(docText('line one\nline */ two')).toBe('line one line / two');
  });
});

describe('declaration', () => {
  it('says what the operation does, its method and path, whether it reads, and its arguments and result', () => {
    const text = declaration(
      tool(),
      { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
      {},
    );
    expect(text).toBe(
      [
        '  /**',
        '   * Get a pet',
        '   * GET /pets/{petId} (read-only)',
        '   * Returns one pet by its id.',
        '   */',
        '  getPet(args: {',
        '    /** The id of the pet. */',
        '    petId: number;',
        '  }): Promise<{',
        '    id?: number;',
        '    name?: string;',
        '  }>;',
      ].join('\n'),
    );
    expect(syntaxErrors([text])).toEqual([]);
  });

  it("opens with the description's opening, as the listing does, even when that is not a separate summary", () => {
    const text = declaration(
      tool({ description: 'Gets a pet by its id. It has a name.\n\nOnly admins see hidden pets.' }),
      undefined,
      {},
    );
    expect(text.split('\n').slice(0, 4)).toEqual([
      '  /**',
      '   * Gets a pet by its id. It has a name.',
      '   * GET /pets/{petId} (read-only)',
      '   * Only admins see hidden pets.',
    ]);
  });

  it('marks writes and destructive operations with the setting that allows them', () => {
    const del = declaration(tool({ name: 'deletePet', annotations: { destructiveHint: true } }), undefined, {});
    expect(del).toContain('(destructive: runs when MCP_CODE_ALLOW=destructive)');
    expect(del).toContain('Promise<unknown>');
    const post = declaration(tool({ name: 'addPet', annotations: {} }), undefined, {});
    expect(post).toContain('(write: runs when MCP_CODE_ALLOW is write or destructive)');
  });

  it('quotes names that are not identifiers and makes args optional when nothing is required', () => {
    const text = declaration(
      tool({ name: 'repos_list-for-org', inputSchema: { type: 'object', properties: { page: { type: 'integer' } } } }),
      undefined,
      {},
    );
    expect(text).toContain('"repos_list-for-org"(args?: {');
    expect(syntaxErrors([text])).toEqual([]);
  });

  it('writes a huge schema with less nesting until it fits 6,000 characters', () => {
    const wide = (depth: number): JsonSchema =>
      depth === 0
        ? { type: 'string', description: 'A leaf with a fairly long description that goes on.' }
        : {
            type: 'object',
            properties: Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`field${i}`, wide(depth - 1)])),
          };
    const text = declaration(tool({ inputSchema: { type: 'object', properties: { body: wide(4) } } }), undefined, {});
    expect(text.length).toBeLessThanOrEqual(6_000);
    expect(syntaxErrors([text])).toEqual([]);
  });
});

describe('resultShape', () => {
  const resolve = (s: unknown) => (typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : undefined);

  it('keeps property names and types three levels deep, merging allOf', () => {
    const shape = resultShape(
      {
        type: 'array',
        items: {
          allOf: [
            { type: 'object', properties: { id: { type: 'integer' } } },
            {
              properties: {
                owner: {
                  type: 'object',
                  properties: { login: { type: 'string' }, deep: { type: 'object', properties: { x: {} } } },
                },
              },
            },
          ],
        },
      },
      resolve,
    );
    expect(shape).toEqual({
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          owner: { type: 'object', properties: { login: { type: 'string' }, deep: { type: 'object' } } },
        },
      },
    });
  });

  it('ends a cycle at its type, and drops writeOnly properties', () => {
    const node: Record<string, unknown> = {
      type: 'object',
      properties: { secret: { type: 'string', writeOnly: true } },
    };
    (node['properties'] as Record<string, unknown>)['child'] = node;
    expect(resultShape(node, resolve)).toEqual({ type: 'object', properties: { child: { type: 'object' } } });
  });
});
