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
});
