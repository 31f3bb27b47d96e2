/** The default hybrid core (src/emit/search/hybrid-core.ts): list, get and create on the main resources, then updates. */
import { describe, expect, it } from 'vitest';
import { chooseCore, defaultCore } from '../../../../src/emit/search/hybrid-core.js';
import { toolOf, toolsOf } from '../../../helpers/tool-models.js';

const API = toolsOf([
  'get /repos/{owner}/{repo}',
  'patch /repos/{owner}/{repo}',
  'delete /repos/{owner}/{repo}',
  'get /repos/{owner}/{repo}/topics',
  'get /repos/{owner}/{repo}/issues',
  'post /repos/{owner}/{repo}/issues',
  'get /repos/{owner}/{repo}/issues/{number}',
  'patch /repos/{owner}/{repo}/issues/{number}',
  'put /repos/{owner}/{repo}/issues/{number}/lock',
  'get /repos/{owner}/{repo}/issues/{number}/comments',
  'get /user/repos',
  'post /user/repos',
  'get /gists/{id}/comments',
  'get /emojis',
  'get /v1/status',
]);
const routes = (list: string[]) =>
  list.map((name) => {
    const t = API.find((x) => x.name === name)!;
    return `${t.source.method} ${t.source.path}`;
  });

describe('hybrid core', () => {
  it('takes list, get and create of the heaviest resources, borrowing a list from a more general place', () => {
    expect(routes(defaultCore(API, 5))).toEqual([
      'get /repos/{owner}/{repo}',
      'get /repos/{owner}/{repo}/issues',
      'post /repos/{owner}/{repo}/issues',
      'get /repos/{owner}/{repo}/issues/{number}',
      'get /user/repos',
    ]);
  });

  it('adds updates only when every resource has its reads and creation', () => {
    expect(routes(defaultCore(API, 9))).toContain('patch /repos/{owner}/{repo}/issues/{number}');
    expect(routes(defaultCore(API, 6))).not.toContain('patch /repos/{owner}/{repo}/issues/{number}');
  });

  it('leaves out deprecated operations, also those deprecated in their own words', () => {
    const tools = [
      toolOf('get', '/things', { deprecated: true }),
      toolOf('get', '/things/{id}', { description: 'deprecated: use the watch parameter' }),
      toolOf('get', '/others'),
    ];
    expect(defaultCore(tools, 5)).toEqual([tools[2]!.name]);
  });

  it('is what the user names, by tool name, operationId or tag, when they name any', () => {
    const tools = [
      toolOf('get', '/a', { operationId: 'getA' }),
      toolOf('get', '/b', { tags: ['bees'] }),
      toolOf('get', '/c'),
    ];
    expect(chooseCore(tools, ['getA'], ['bees'])).toEqual(['getA', tools[1]!.name]);
  });
});
