import { describe, expect, it } from 'vitest';
import { assignArgumentNames } from '../../../src/tools/arguments.js';
import { baseToolName, NameRegistry, sanitizeName, TOOL_NAME_PATTERN } from '../../../src/tools/naming.js';
import { createParameter } from '../../../src/ir/factory.js';

describe('tool names', () => {
  it.each([
    ['getPetById', 'get', '/pet/{id}', 'getPetById'],
    ['repos/list-for-org', 'get', '/orgs/{org}/repos', 'repos_list-for-org'],
    ['Créer un élément', 'post', '/x', 'Creer_un_element'],
    [undefined, 'get', '/pets/{petId}/photos', 'get_pets_by_petId_photos'],
    ['___', 'delete', '/a-b/{c}', 'delete_a-b_by_c'],
  ])('%s %s %s → %s', (operationId, method, path, expected) => {
    expect(baseToolName(operationId, method, path)).toBe(expected);
  });

  it('makes names unique ignoring case, in order', () => {
    const registry = new NameRegistry();
    expect(['list', 'List', 'list', 'other'].map((n) => registry.claim(n))).toEqual([
      'list',
      'List_2',
      'list_3',
      'other',
    ]);
  });

  it('shortens long names with a stable hash and keeps them valid and unique', () => {
    const long = 'a'.repeat(80);
    const registry = new NameRegistry();
    const first = registry.claim(long);
    const second = registry.claim(long);
    expect(first).toHaveLength(64);
    expect(first).toMatch(TOOL_NAME_PATTERN);
    expect(second).toMatch(TOOL_NAME_PATTERN);
    expect(second).not.toBe(first);
    expect(new NameRegistry().claim(long)).toBe(first);
  });

  it('sanitizes to the MCP name alphabet', () => {
    expect(sanitizeName('a b/c:d')).toBe('a_b_c_d');
  });
});

describe('argument names', () => {
  it('keeps the first of colliding names and suffixes the rest with their location', () => {
    const params = [
      createParameter({ name: 'id', in: 'query' }),
      createParameter({ name: 'id', in: 'path' }),
      createParameter({ name: 'id', in: 'header' }),
      createParameter({ name: 'body', in: 'query' }),
    ];
    const names = assignArgumentNames(params, true);
    expect(names.params.map((p) => `${p.param.in}:${p.param.name}→${p.arg}`)).toEqual([
      'path:id→id',
      'query:id→id_query',
      'query:body→body',
      'header:id→id_header',
    ]);
    expect(names.body).toBe('body_2');
  });

  it('turns names that are not valid property names into valid ones', () => {
    const names = assignArgumentNames([createParameter({ name: 'filter[name]', in: 'query' })], false);
    expect(names.params[0]!.arg).toBe('filter_name');
  });
});
