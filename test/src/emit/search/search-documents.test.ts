/** What the search indexes per operation (src/emit/search/search-documents.ts). */
import { describe, expect, it } from 'vitest';
import { searchDocuments } from '../../../../src/emit/search/search-documents.js';
import { createBody, createParameter } from '../../../../src/ir/factory.js';
import type { ApiModel } from '../../../../src/ir/types.js';
import { toolOf } from '../../../helpers/tool-models.js';

describe('search documents', () => {
  const update = toolOf('patch', '/repos/{owner}/{repo}/issues/{issue_number}', {
    operationId: 'issues/update',
    summary: 'Update an issue',
    tags: ['issues'],
    parameters: [
      createParameter({ name: 'owner', in: 'path', schema: { type: 'string' } }),
      createParameter({ name: 'sort', in: 'query', schema: { enum: ['created', 'updated'] } }),
    ],
    body: createBody({ mediaType: 'application/json', encodingKind: 'json', schema: { $ref: '#/$defs/IssueUpdate' } }),
  });
  const api = {
    tags: [{ kind: 'tag', name: 'issues', displayName: 'Issues', description: 'Interact with GitHub Issues.' }],
    schemas: {
      IssueUpdate: { type: 'object', properties: { title: { type: 'string' }, state: { enum: ['open', 'closed'] } } },
    },
  } as unknown as ApiModel;
  const [doc] = searchDocuments(api, [update], ['issues']);

  it('indexes the name, summary, tag words, path resources and the HTTP action', () => {
    expect(doc!.fields).toMatchObject({
      name: expect.stringContaining('issues/update'),
      summary: 'Update an issue',
      tags: expect.stringContaining('Interact with GitHub Issues.'),
      resource: 'repos issues',
      action: 'update',
    });
  });

  it('indexes argument names, body enum values as actions and parameter enum values as filters, through $refs', () => {
    expect(doc!.fields.params!.split(' ')).toEqual(expect.arrayContaining(['owner', 'sort', 'title', 'state']));
    expect(doc!.fields.values).toBe('open closed');
    expect(doc!.fields.filters).toBe('created updated');
  });

  it('summarizes the operation for results: method, path, summary, required arguments, group', () => {
    expect(doc!.operation).toEqual({
      name: update.name,
      method: 'PATCH',
      path: '/repos/{owner}/{repo}/issues/{issue_number}',
      summary: 'Update an issue',
      required: expect.arrayContaining(['owner']),
      group: 'issues',
    });
  });

  it('leaves HTTP method names out of the indexed summary, and marks operations deprecated in their own words', () => {
    const proxy = toolOf('get', '/api/v1/nodes/{name}/proxy', {
      operationId: 'connectGetNodeProxy',
      summary: 'connect GET requests to proxy of Node',
      description: 'deprecated: use the proxy subresource',
    });
    const [indexed] = searchDocuments({ tags: [], schemas: {} } as unknown as ApiModel, [proxy], ['nodes']);
    expect(indexed!.fields.summary).not.toMatch(/GET/);
    expect(indexed!.operation.summary).toBe('connect GET requests to proxy of Node');
    expect(indexed!.operation.deprecated).toBe(true);
    expect(doc!.operation.deprecated).toBeUndefined();
  });

  it('indexes the start of the description as plain text: markup and link targets out, the tail left', () => {
    const long = `Lists the **pull requests** of a [repository](https://docs.example.com/repos).\n\n${'More about it. '.repeat(40)}<p>Also returns the merge &amp; review state.</p>`;
    const [indexed] = searchDocuments(
      { tags: [], schemas: {} } as unknown as ApiModel,
      [toolOf('get', '/repos/{repo}/pulls', { description: long })],
      ['pulls'],
    );
    const description = indexed!.fields.description!;
    expect(description).toContain('Lists the pull requests of a repository.');
    expect(description).not.toContain('merge');
    expect(description.length).toBeLessThanOrEqual(300);
    expect(description).not.toMatch(/docs\.example|\*\*|<p>|&amp;/);
  });

  it("indexes the start of every argument's description, and examples that are words", () => {
    const list = toolOf('get', '/repos/{owner}/issues', {
      parameters: [
        createParameter({ name: 'owner', in: 'path', schema: { type: 'string', description: 'The account owner.' } }),
        createParameter({
          name: 'since',
          in: 'query',
          schema: { type: 'string', description: 'Only issues updated after this time. An ISO 8601 timestamp.' },
        }),
        createParameter({
          name: 'visibility',
          in: 'query',
          schema: { type: 'string', examples: ['private', '2024-01-01'] },
        }),
      ],
      body: createBody({
        mediaType: 'application/json',
        encodingKind: 'json',
        schema: {
          type: 'object',
          properties: { note: { type: 'string', description: 'A _note_ for the reviewers.' } },
        },
      }),
    });
    const [indexed] = searchDocuments({ tags: [], schemas: {} } as unknown as ApiModel, [list], ['issues']);
    expect(indexed!.fields.argdocs).toBe(
      'The account owner. Only issues updated after this time. An ISO 8601 timestamp. A note for the reviewers.',
    );
    expect(indexed!.fields.filters).toBe('private');
  });

  it("indexes what the response holds: its schema's names apart from its property names", () => {
    const balance = toolOf('get', '/v1/balance', {
      responseWords: { names: ['balance'], properties: ['available', 'pending'] },
    });
    const [indexed] = searchDocuments({ tags: [], schemas: {} } as unknown as ApiModel, [balance], ['balance']);
    expect(indexed!.fields.returns).toBe('balance');
    expect(indexed!.fields.returnFields).toBe('available pending');
    expect(doc!.fields.returns).toBe('');
  });
});
