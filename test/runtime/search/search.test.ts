/** The operation search: the index file (templates/runtime/contract/search/search-index.ts) and the search over it (search.ts): ranking, the vocabulary bridge, loose matching, groups. */
import { describe, expect, it } from 'vitest';
import {
  buildSearchIndex,
  type SearchDocument,
  type SearchGroup,
} from '../../../templates/runtime/contract/search/search-index.js';
import { OperationSearch } from '../../../templates/runtime/search/search.js';

function doc(
  name: string,
  method: string,
  path: string,
  summary: string,
  extra: Partial<SearchDocument['fields']> = {},
): SearchDocument {
  return {
    fields: {
      name,
      summary,
      resource: path.replace(/\{[^}]+\}/g, ' '),
      action:
        method === 'GET'
          ? path.endsWith('}')
            ? 'get'
            : 'list'
          : method === 'DELETE'
            ? 'delete'
            : method === 'POST'
              ? 'create'
              : 'update',
      ...extra,
    },
    operation: { name, method, path, summary, required: [], group: 'all' },
  };
}

const DOCS: SearchDocument[] = [
  doc('issues_list', 'GET', '/repos/{owner}/{repo}/issues', 'List repository issues', { filters: 'open closed all' }),
  doc('issues_get', 'GET', '/repos/{owner}/{repo}/issues/{issue_number}', 'Get an issue'),
  doc('issues_update', 'PATCH', '/repos/{owner}/{repo}/issues/{issue_number}', 'Update an issue', {
    values: 'open closed',
    params: 'title body state',
  }),
  doc('repos_get', 'GET', '/repos/{owner}/{repo}', 'Get a repository'),
  doc('repos_get_views', 'GET', '/repos/{owner}/{repo}/traffic/views', 'Get page views', {
    description: 'Get the total number of views and breakdown per day or week.',
  }),
  doc('repos_create_fork', 'POST', '/repos/{owner}/{repo}/forks', 'Create a fork'),
  doc('runs_cancel', 'POST', '/repos/{owner}/{repo}/actions/runs/{run_id}/cancel', 'Cancel a workflow run'),
  doc('runs_list', 'GET', '/repos/{owner}/{repo}/actions/runs', 'List workflow runs for a repository'),
  doc('nodes_list', 'GET', '/api/v1/nodes', 'list or watch objects of kind Node'),
  doc('repos_delete', 'DELETE', '/repos/{owner}/{repo}', 'Delete a repository'),
];
const GROUPS: SearchGroup[] = [
  { name: 'issues', description: 'Issues.', operations: [0, 1, 2] },
  { name: 'repos', description: 'Repositories.', operations: [3, 4, 5, 9] },
  { name: 'actions', description: 'Actions.', operations: [6, 7] },
  { name: 'nodes', description: 'Nodes.', operations: [8] },
];
const search = OperationSearch.load(JSON.parse(JSON.stringify(buildSearchIndex(DOCS, GROUPS))));
const top = (query: string, limit = 3, within?: SearchGroup) =>
  search.search(query, limit, within).map((h) => search.operation(h.doc).name);

describe('operation search', () => {
  it('finds an operation by the words of its summary, the exact summary first', () => {
    expect(top('get a repository')[0]).toBe('repos_get');
    expect(top('list issues of a repository')[0]).toBe('issues_list');
  });

  it('reaches operations through synonyms the API uses: ticket, repo, copy, stop, machine, remove', () => {
    expect(top('show me ticket 42')).toContain('issues_get');
    expect(top('copy a repo')[0]).toBe('repos_create_fork');
    expect(top('stop the running workflow')[0]).toBe('runs_cancel');
    expect(top('which machines are there')[0]).toBe('nodes_list');
    expect(top('remove the repo')[0]).toBe('repos_delete');
  });

  it('a synonym never outscores the word the request used ("views" for "get")', () => {
    expect(top('get a repo', 2)).toEqual(['repos_get', expect.any(String)]);
    expect(top('get a repo', 1)).not.toContain('repos_get_views');
  });

  it('finds actions that live in body values (closing is an update with state: closed)', () => {
    expect(top('close issue 42')[0]).toBe('issues_update');
  });

  it('searches words named like Object.prototype members as words', () => {
    expect(() => top('constructor toString valueOf hasOwnProperty')).not.toThrow();
  });

  it('ignores numbers and the words a request is wrapped in', () => {
    expect(top('can you please get me the repository 12345')[0]).toBe('repos_get');
  });

  it('matches misspellings and prefixes of the request words', () => {
    expect(top('repositry')).toContain('repos_get');
    expect(top('workfl')).toEqual(expect.arrayContaining(['runs_cancel', 'runs_list']));
  });

  it('searches within a group, and answers nothing only when nothing matches at all', () => {
    expect(top('list', 5, search.group('actions'))).toEqual(['runs_list']);
    expect(top('xyzzy plugh')).toEqual([]);
  });

  it('answers a request alike whatever was searched before: what a search works with is kept, not its matches', () => {
    const fresh = () => OperationSearch.load(JSON.parse(JSON.stringify(buildSearchIndex(DOCS, GROUPS))));
    const requests: Array<[string, SearchGroup | undefined]> = [
      ['copy a repo', undefined],
      ['stop the running workflow', undefined],
      ['list', search.group('actions')],
      ['repositry', undefined], // found only by the loose pass, after the strict one found nothing
      ['close issue 42', undefined],
      ['remove the repo', search.group('repos')],
    ];
    const alone = requests.map(([query, within]) => fresh().search(query, 10, within));
    const reused = fresh();
    for (const round of [1, 2])
      expect(
        requests.map(([q, within]) => reused.search(q, 10, within)),
        `round ${round}`,
      ).toEqual(alone);
  });

  it('looks groups up by name, ignoring case', () => {
    expect(search.group('ISSUES')?.operations).toEqual([0, 1, 2]);
    expect(search.group('nope')).toBeUndefined();
    expect(search.groups.map((g) => g.name)).toEqual(['issues', 'repos', 'actions', 'nodes']);
  });

  it('refuses an index in another format with a message that says to regenerate', () => {
    const old = { ...buildSearchIndex(DOCS, GROUPS), format: 1 } as unknown as Parameters<
      typeof OperationSearch.load
    >[0];
    expect(() => OperationSearch.load(old)).toThrow(/regenerate/);
  });

  it('keeps in the bridge only synonyms the API uses', () => {
    const { bridge } = buildSearchIndex(DOCS, GROUPS);
    const targets = (term: string) => bridge[term] ?? [];
    expect(targets('ticket')).toContain('issu');
    expect(targets('machin')).toContain('node');
    expect(Object.values(bridge).flat(2)).not.toContain('droplet');
    // A verb searches for the API's verb, and the API's verb for the other words, at full weight.
    expect(bridge['remov']).toContain('delet');
  });

  it('ranks a delete below its siblings unless the request asks to delete or end something', () => {
    const docs = [
      doc('claims_delete', 'DELETE', '/claims/{name}', 'delete a PersistentVolumeClaim'),
      doc('claims_create', 'POST', '/claims', 'create a PersistentVolumeClaim'),
    ];
    const local = OperationSearch.load(buildSearchIndex(docs, []));
    const first = (query: string) => local.operation(local.search(query, 1)[0]!.doc).name;
    expect(first('a persistent volume claim for postgres')).toBe('claims_create');
    expect(first('get rid of the persistent volume claim')).toBe('claims_delete');
  });

  it('ranks a deprecated operation below a current one that matches as well', () => {
    const watch = doc('pods_watch', 'GET', '/v1/pods', 'list pods');
    const docs = [
      { ...watch, operation: { ...watch.operation, deprecated: true as const } },
      doc('pods_list', 'GET', '/v2/pods', 'list pods'),
    ];
    const local = OperationSearch.load(buildSearchIndex(docs, []));
    expect(local.operation(local.search('list pods', 1)[0]!.doc).name).toBe('pods_list');
  });

  it('matches a synonym of several words as one, and several synonyms count less than the word itself', () => {
    const docs = [
      doc('promotion_codes_create', 'POST', '/promotion_codes', 'A promotion code points to a coupon discount'),
      doc(
        'coupons_create',
        'POST',
        '/coupons',
        'You can create coupons easily via the coupon management page of the dashboard',
      ),
    ];
    const { bridge } = buildSearchIndex(docs, []);
    expect(bridge['coupon']).toContain('promot code');
    const local = OperationSearch.load(buildSearchIndex(docs, []));
    expect(local.operation(local.search('make a 20% off coupon', 1)[0]!.doc).name).toBe('coupons_create');
  });

  it('a request told with a doing verb leans to writes; a name that looks plural does not ask for a list', () => {
    const docs = [
      doc('followers_list', 'GET', '/users/{username}/followers', 'List followers of a user'),
      doc('users_follow', 'PUT', '/user/following/{username}', 'Follow a user'),
    ];
    const local = OperationSearch.load(buildSearchIndex(docs, []));
    const first = (query: string) => local.operation(local.search(query, 1)[0]!.doc).name;
    expect(first('follow torvalds')).toBe('users_follow');
    expect(first('who follows torvalds?')).toBe('followers_list');
  });

  it('a value in the request moves up the operation whose arguments take its kind', () => {
    const docs = [
      doc('domains_create', 'POST', '/domains', 'Create a new domain', { kinds: '#domain #name' }),
      doc('records_create', 'POST', '/domains/{domain_name}/records', 'Create a new domain record', {
        kinds: '#domain #ipv4 #name',
      }),
      doc('members_add', 'PUT', '/teams/{team}/members/{username}', 'Add a team member', { kinds: '#mention' }),
      doc('members_invite', 'POST', '/teams/{team}/members', 'Add a team member', { kinds: '#email' }),
    ];
    const local = OperationSearch.load(buildSearchIndex(docs, []));
    const first = (query: string) => local.operation(local.search(query, 1)[0]!.doc).name;
    // The words alone pick one operation; the value, another.
    expect(first('create a domain')).toBe('domains_create');
    expect(first('create a domain, www.example.com pointing at 198.51.100.4')).toBe('records_create');
    expect(first('add @bob to the team')).toBe('members_add');
    expect(first('add ann@example.org to the team')).toBe('members_invite');
    // Only a request's start is read, its values too.
    expect(first(`create a domain, ${'please '.repeat(150)}www.example.com pointing at 198.51.100.4`)).toBe(
      'domains_create',
    );
  });

  it('reads only the start of a request: no caller holds the server with a long one', () => {
    // One 200,000-character word: MiniSearch's fuzzy matching sized a table by its length squared (a RangeError
    // at 100,000 characters, gigabytes below that). Thousands of distinct words: one lookup each, seconds in all.
    expect(top(`q${'abcdefghij'.repeat(20_000)}`)).toEqual([]);
    const words = Array.from({ length: 500_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    expect(top(`${words} delete a repository`)).toEqual([]);
    expect(top(`${'x '.repeat(400)}delete a repository`)[0]).toBe('repos_delete');
  });
});
