/** The operation search index: BM25 ranking, and recall over real APIs when searching by each summary. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/pipeline.js';
import { buildSearchIndex, search, tokenize, type SearchIndex } from '../../templates/runtime/search.js';
import type { Catalog } from '../../templates/runtime/catalog.js';
import { REPO_ROOT } from '../helpers/generated-project.js';

describe('search index', () => {
  it('tokenizes camelCase, snake_case and plurals alike', () => {
    expect(tokenize('listRepositoriesForOrg')).toEqual(['list', 'repository', 'org']);
    expect(tokenize('list_repository_issues')).toEqual(['list', 'repository', 'issue']);
  });

  it('ranks the document with the rarer, heavier-weighted match first', () => {
    const index = buildSearchIndex([
      { fields: [['listPets', 3], ['List all pets in the store', 1]] },
      { fields: [['createOrder', 3], ['Place an order for a pet', 1]] },
      { fields: [['deletePet', 3], ['Delete a pet', 1]] },
    ]);
    expect(search(index, 'delete pet', 3)[0]!.doc).toBe(2);
    expect(search(index, 'order', 3).map((h) => h.doc)).toEqual([1]);
    expect(search(index, 'nothing matches', 3)).toEqual([]);
  });
});

const SPECS = join(REPO_ROOT, '..', 'shared', 'specs');
describe.skipIf(!existsSync(SPECS)).each([
  ['spotify', 'spotify/fixed-spotify-open-api.yml'],
  ['gitea', 'gitea/gitea.io.json'],
])('search recall: %s', (_name, file) => {
  it('finds every operation among the first five results when searching for its summary', async () => {
    const result = await generate({ spec: join(SPECS, file), validate: false, write: false });
    const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
    const index = JSON.parse(result.files.find((f) => f.path === 'search-index.json')!.contents) as SearchIndex;
    const missed = catalog.tools.filter((tool, i) => {
      const query = tool.title ?? tool.description.split('\n')[0]!;
      // Operations that share the exact same summary cannot be told apart by it; any of them is a hit.
      const twins = catalog.tools.map((t, j) => ((t.title ?? t.description.split('\n')[0]) === query ? j : -1)).filter((j) => j >= 0);
      return !search(index, query, 5).some((h) => h.doc === i || twins.includes(h.doc));
    });
    expect(missed.map((t) => t.name)).toEqual([]);
  });
});
