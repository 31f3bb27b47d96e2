/** Browsing groups (src/emit/search/browse-groups.ts): tags, else path resources; large groups split by sub-resource. */
import { describe, expect, it } from 'vitest';
import { browseGroups, MAX_GROUP_SIZE } from '../../../../src/emit/search/browse-groups.js';
import type { ApiModel } from '../../../../src/ir/types.js';
import { toolOf } from '../../../helpers/tool-models.js';

const api = (tags: ApiModel['tags'] = []) => ({ tags, schemas: {} }) as unknown as ApiModel;

describe('browse groups', () => {
  it('groups by first tag with the tag description, else by the first path resource after a shared prefix', () => {
    const tools = [
      toolOf('get', '/v1/pets', { tags: ['pets'] }),
      toolOf('get', '/v1/customers'),
      toolOf('post', '/v1/customers/{id}/cards'),
      toolOf('get', '/v1/pets/{id}', { tags: ['pets'] }),
    ];
    const { groups, groupOf } = browseGroups(
      api([{ kind: 'tag', name: 'pets', description: 'Everything about your **Pets**. More.' }]),
      tools,
    );
    expect(groups.map((g) => [g.name, g.operations])).toEqual([
      ['pets', [0, 3]],
      ['customers', [1, 2]],
    ]);
    expect(groups[0]!.description).toMatch(/^Everything about your Pets\. 2 operations, e\.g\. /);
    expect(groupOf).toEqual(['pets', 'customers', 'customers', 'pets']);
  });

  it('splits a group larger than a listing should be by the first resource its operations do not all share', () => {
    const tools = Array.from({ length: MAX_GROUP_SIZE + 10 }, (_, i) =>
      toolOf('get', `/repos/{owner}/{repo}/${i % 2 ? 'hooks' : 'branches'}/${i}`, { tags: ['repos'] }),
    );
    const { groups } = browseGroups(api(), tools);
    expect(groups.map((g) => g.name)).toEqual(['repos / branches', 'repos / hooks']);
    expect(groups.every((g) => g.operations.length <= MAX_GROUP_SIZE)).toBe(true);
    expect(groups.flatMap((g) => g.operations).sort((a, b) => a - b)).toEqual(tools.map((_, i) => i));
  });
});
