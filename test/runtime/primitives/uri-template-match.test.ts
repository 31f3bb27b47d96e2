/** Resource template matching: the path by the SDK, query variables optional and in any order. */
import { describe, expect, it } from 'vitest';
import { uriMatcher } from '../../../templates/runtime/primitives/uri-template-match.js';

describe('uriMatcher', () => {
  const matches = uriMatcher('github://repos/{owner}/{repo}{?per_page,page}');

  it('matches the path, with or without the optional query variables, in any order', () => {
    expect(matches('github://repos/octo/hello')).toEqual({ owner: 'octo', repo: 'hello' });
    expect(matches('github://repos/octo/hello?page=2')).toEqual({ owner: 'octo', repo: 'hello', page: '2' });
    expect(matches('github://repos/octo/hello?page=2&per_page=5')).toEqual({
      owner: 'octo',
      repo: 'hello',
      page: '2',
      per_page: '5',
    });
  });

  it('collects a repeated query variable, and keeps values percent-encoded', () => {
    expect(matches('github://repos/a%20b/c?page=1&page=2')).toEqual({ owner: 'a%20b', repo: 'c', page: ['1', '2'] });
  });

  it('refuses other paths and queries the template does not declare', () => {
    expect(matches('github://repos/octo')).toBeNull();
    expect(matches('github://users/octo/hello')).toBeNull();
    expect(matches('github://repos/octo/hello?sort=asc')).toBeNull();
  });

  it('matches templates without a query as the SDK does', () => {
    expect(uriMatcher('items://{id}')('items://7')).toEqual({ id: '7' });
    expect(uriMatcher('items://{id}')('items://7?x=1')).toBeNull();
  });
});
