/** The config's problems as the schema words them (src/config/schema.ts, src/config/validate.ts). */
import { expect, it } from 'vitest';
import { configProblems } from '../../../src/config/validate.js';

it('words each problem once, at the outermost place, in the order of the file', () => {
  expect(
    configProblems({
      exlude: {},
      include: [{ methods: ['fetch', ''] }, {}],
      tools: { 'GET /a/b': { name: ' ', annotations: { readOnly: true } } },
      confirm: ['a', 3],
      prompts: { custom: [{ name: 'a b' }] },
      codeMode: { allow: 'everything', timeoutMs: 0 },
    }),
  ).toEqual([
    {
      pointer: '/exlude',
      message: 'unknown key exlude (expected include, exclude, tools, confirm, resources, prompts, publish, codeMode)',
    },
    { pointer: '/include/0/methods', message: 'methods must be a non-empty list of strings' },
    {
      pointer: '/include/1',
      message: 'a selector is an object with one or more of tags, operationIds, paths, methods',
    },
    { pointer: '/tools/GET ~1a~1b/name', message: 'name must be a non-empty string' },
    {
      pointer: '/tools/GET ~1a~1b/annotations/readOnly',
      message: 'unknown annotation readOnly (expected readOnlyHint, destructiveHint, idempotentHint, openWorldHint)',
    },
    { pointer: '/confirm/1', message: 'each confirm entry is an operationId or "METHOD /path"' },
    { pointer: '/prompts/custom/0/name', message: 'name must match ^[A-Za-z0-9_.-]{1,64}$' },
    { pointer: '/prompts/custom/0/text', message: 'a prompt needs a text' },
    { pointer: '/codeMode/allow', message: 'allow must be one of read, write, destructive' },
    { pointer: '/codeMode/timeoutMs', message: 'timeoutMs must be a positive integer' },
  ]);
});

it('names the value it does not know, and accepts what the docs allow', () => {
  expect(configProblems({ exclude: { methods: ['GET', 'fetch'] } })).toEqual([
    { pointer: '/exclude/methods/1', message: 'unknown HTTP method fetch' },
  ]);
  expect(configProblems([])).toEqual([{ pointer: '', message: 'the config must be an object' }]);
  expect(
    configProblems({
      $schema: 'x',
      include: { tags: ['pet'], methods: ['Get'] },
      confirm: 'writes',
      resources: { templates: { getPet: 'pets://{petId}', listPets: { uri: 'pets://all{?limit}', name: 'pets' } } },
      publish: { mcpName: 'io.github.a/b', repository: 'https://github.com/a/b', keywords: ['x'] },
      codeMode: { allow: 'write', maxCalls: 10 },
    }),
  ).toEqual([]);
});
