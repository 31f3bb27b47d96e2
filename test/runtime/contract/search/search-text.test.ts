/** Text analysis shared by the index and the queries (templates/runtime/contract/search/search-text.ts). */
import { describe, expect, it } from 'vitest';
import {
  analyze,
  fieldTermSet,
  withoutValues,
  words,
} from '../../../../templates/runtime/contract/search/search-text.js';

describe('search text analysis', () => {
  it('splits camelCase, snake_case, kebab-case and paths into lower-case words', () => {
    expect(words('listRepositoriesForOrg')).toEqual(['list', 'repositories', 'for', 'org']);
    expect(words('actions/cancel-workflow_run')).toEqual(['actions', 'cancel', 'workflow', 'run']);
    expect(words('getHTTPStatus Café')).toEqual(['get', 'http', 'status', 'cafe']);
  });

  it('stems the forms of a word to one term (Porter2): close/closed/closing, status/statuses, attach/attachment', () => {
    const term = (w: string) => analyze(w)[0];
    expect(new Set(['close', 'closed', 'closing'].map(term)).size).toBe(1);
    expect(term('statuses')).toBe(term('status'));
    expect(term('attachments')).toBe(term('attach'));
    expect(term('repositories')).toBe(term('repository'));
  });

  it('spells out abbreviations on both sides: repo, PR, org', () => {
    expect(analyze('my repo')).toEqual(analyze('repository'));
    expect(analyze('PRs')).toEqual(analyze('pull requests'));
    expect(analyze('orgs')).toEqual(analyze('organizations'));
  });

  it('drops function words, request wrappers and bare numbers', () => {
    expect(analyze('could you please close issue 42 in my repo for me')).toEqual([
      ...analyze('close issue'),
      ...analyze('repository'),
    ]);
  });

  it('counts each term of a field once', () => {
    expect([...fieldTermSet('repos repos repositories Repository')]).toEqual(analyze('repository'));
  });
});

describe('values in requests', () => {
  it('leaves out e-mail addresses, URLs, host names, mentions, quoted strings and joined identifiers', () => {
    const kept = words(
      withoutValues(
        'add customer billing@acme.com, see https://x.io/a and api.example.com for @bob "needs triage" cus_9 api-7f9c oauth2',
      ),
    );
    expect(kept).toEqual(['add', 'customer', 'see', 'and', 'for', 'oauth2']);
  });

  it('takes words named like Object.prototype members for words (constructor, toString, hasOwnProperty)', () => {
    expect(analyze('constructor toString hasOwnProperty __proto__')).toContain('constructor');
  });
});
