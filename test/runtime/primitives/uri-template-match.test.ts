/** Resource template matching: the path by the SDK, query variables optional and in any order. */
import { describe, expect, it } from 'vitest';
import { UriTemplate } from '@modelcontextprotocol/server';
import { uriMatcher } from '../../../templates/runtime/primitives/uri-template-match.js';

describe('uriMatcher', () => {
  const matches = uriMatcher('github://repos/{owner}/{repo}{?per_page,page}');

  it('matches the path, with or without the optional query variables, in any order', async () => {
    expect(await matches('github://repos/octo/hello')).toEqual({ owner: 'octo', repo: 'hello' });
    expect(await matches('github://repos/octo/hello?page=2')).toEqual({ owner: 'octo', repo: 'hello', page: '2' });
    expect(await matches('github://repos/octo/hello?page=2&per_page=5')).toEqual({
      owner: 'octo',
      repo: 'hello',
      page: '2',
      per_page: '5',
    });
  });

  it('collects a repeated query variable, and keeps values percent-encoded', async () => {
    expect(await matches('github://repos/a%20b/c?page=1&page=2')).toEqual({
      owner: 'a%20b',
      repo: 'c',
      page: ['1', '2'],
    });
  });

  it('refuses other paths and queries the template does not declare', async () => {
    expect(await matches('github://repos/octo')).toBeNull();
    expect(await matches('github://users/octo/hello')).toBeNull();
    expect(await matches('github://repos/octo/hello?sort=asc')).toBeNull();
  });

  it('matches templates without a query as the SDK does', async () => {
    expect(await uriMatcher('items://{id}')('items://7')).toEqual({ id: '7' });
    expect(await uriMatcher('items://{id}')('items://7?x=1')).toBeNull();
  });

  /**
   * Attack: a resources/read whose URI makes the template's regular expression backtrack. The SDK's match builds
   * `^files://([^/,]+)\.([^/,]+)$` for `files://{name}.{ext}`; against a URI of dots that does not end as the
   * template does, the engine tries every split: quadratic with two variables (7.4 s at 200,000 characters),
   * cubic with three (16 s at 8,000 characters, longer than anyone waits at the 1,000,000 the SDK accepts), all
   * of it on the server's one thread. The sizes below held it 7.4 s, 6.8 s and 3.7 s.
   */
  it.each([
    ['files://{name}.{ext}', `files://${'a.'.repeat(100_000)}/`],
    ['x://{a}-{b}-{c}', `x://${'a-'.repeat(3_000)}/`],
    ['docs://{+first}/{+rest}', `docs://${'/'.repeat(100_000)}\n`],
  ])('matches %s in linear time, whatever the URI', async (template, uri) => {
    const matches = uriMatcher(template);
    await matches('warm-up'); // RE2 loads on the first read
    const started = Date.now();
    expect(await matches(uri)).toBeNull();
    // Generous: the attack took seconds; a linear match takes milliseconds.
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('matches as the SDK does where it does not backtrack', async () => {
    const cases: Array<[string, string]> = [
      ['files://{name}.{ext}', 'files://report.2024.pdf'],
      ['files://{name}.{ext}', 'files://report'],
      ['docs://{+path}', 'docs://a/b/c.md'],
      ['docs://{+path}', 'docs://'],
      ['list://{ids*}', 'list://1,2,3'],
      ['list://{ids}', 'list://1,2'],
      ['tree://root{/segments*}', 'tree://root/a,b'],
      ['tree://root{/segment}', 'tree://root/a/b'],
      ['v://{.ext}', 'v://.json'],
      ['f://{#frag}', 'f://x#y'],
      ['m://{;id}', 'm://;7'],
      ['a.b://{x}', 'aXb://1'],
      ['a.b://{x}', 'a.b://1'],
      ['p://{a,b}', 'p://1'],
      ['u://{x}', 'u://caf%C3%A9'],
      ['u://{x}', 'u://line\nbreak'],
      ['g://{+x}', 'g://a\u2028b'],
      ['g://{+x}', 'g://a\rb'],
    ];
    for (const [template, uri] of cases)
      expect([template, uri, await uriMatcher(template)(uri)]).toEqual([
        template,
        uri,
        new UriTemplate(template).match(uri),
      ]);
  });

  it('refuses a URI longer than the SDK reads, as the SDK does', async () => {
    await expect(uriMatcher('u://{x}')(`u://${'a'.repeat(1_000_001)}`)).rejects.toThrow(/exceeds maximum length/);
  });
});
