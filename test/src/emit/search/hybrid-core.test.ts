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

  it('fits a token budget: a tool that would pass it is skipped, and cheaper ones after it still fit', () => {
    const create = API.findIndex((t) => t.source.method === 'post' && t.source.path === '/repos/{owner}/{repo}/issues');
    const cost = (index: number) => (index === create ? 500 : 100);
    const core = routes(defaultCore(API, 5, { cost, tokens: 450 }));
    expect(core).not.toContain('post /repos/{owner}/{repo}/issues');
    expect(core).toEqual([
      'get /repos/{owner}/{repo}',
      'get /repos/{owner}/{repo}/issues',
      'get /repos/{owner}/{repo}/issues/{number}',
      'get /user/repos',
    ]);
    // With room for it, the same core as without a budget.
    expect(defaultCore(API, 5, { cost, tokens: 900 })).toEqual(defaultCore(API, 5));
  });

  it('stops when what is left holds no tool, and a named core ignores the budget', () => {
    let asked = 0;
    const cost = () => (asked++, 30);
    expect(defaultCore(API, 15, { cost, tokens: 75 })).toHaveLength(2);
    expect(asked).toBe(2);
    const tools = [toolOf('get', '/a', { operationId: 'getA' })];
    expect(chooseCore(tools, ['getA'], [], { cost: () => 1e6, tokens: 1 })).toEqual(['getA']);
  });
});
