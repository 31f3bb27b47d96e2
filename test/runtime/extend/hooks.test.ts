/** Hooks around an upstream call: order, changed requests and results, short-circuits, and failing hooks. */
import { describe, expect, it } from 'vitest';
import { callTool, type CallDeps } from '../../../templates/runtime/server/call-tool.js';
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import { readConfig } from '../../../templates/runtime/server/config.js';
import type { Hooks } from '../../../templates/runtime/extend/hooks.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { registryOf } from '../../helpers/registry.js';

const catalog = {
  format: 1,
  toolMode: 'all',
  core: [],
  server: { name: 't', version: '1.0.0', title: 't', instructions: '' },
  baseUrl: 'https://api.example.com',
  defs: {},
  securitySchemes: [],
  tools: [
    {
      name: 'getThing',
      description: 'd',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string' } },
        required: ['id'],
        additionalProperties: false,
      },
      defs: [],
      annotations: { readOnlyHint: true },
      request: {
        method: 'GET',
        path: '/things/{id}',
        params: [{ arg: 'id', name: 'id', in: 'path', style: 'simple', explode: false }],
      },
    },
  ],
} as unknown as Catalog;

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

function setup(hooks: Hooks) {
  const seen: Array<{ url: string; headers: Record<string, string> }> = [];
  const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
    seen.push({ url: String(url), headers: Object.fromEntries(new Headers(init?.headers).entries()) });
    return new Response('{"id":"1"}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const registry = registryOf(catalog);
  const deps: CallDeps = { registry, config: readConfig({}), env: {}, log: silent, fetch: fakeFetch, hooks };
  return { seen, call: (args: Record<string, unknown>) => callTool(deps, registry.get('getThing')!, args) };
}

const text = (r: { content: Array<{ type: string; text?: string }> }) => r.content.map((c) => c.text ?? '').join('|');

describe('hooks', () => {
  it('runs the all-tools hook, then the tool hook, before; the reverse after', async () => {
    const order: string[] = [];
    const { seen, call } = setup({
      beforeRequest: ({ request }) => {
        order.push('before:all');
        return { ...request, headers: { ...request.headers, 'x-a': '1' } };
      },
      afterResponse: ({ result }) => {
        order.push('after:all');
        return { ...result, content: [...result.content, { type: 'text', text: 'all' }] };
      },
      tools: {
        getThing: {
          beforeRequest: ({ request, args }) => {
            order.push('before:tool');
            return { ...request, url: `${request.url}?echo=${String(args['id'])}` };
          },
          afterResponse: () => {
            order.push('after:tool');
          },
        },
      },
    });
    const result = await call({ id: '7' });
    expect(order).toEqual(['before:all', 'before:tool', 'after:tool', 'after:all']);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe('https://api.example.com/things/7?echo=7');
    expect(seen[0]!.headers['x-a']).toBe('1');
    expect(result.isError).toBeUndefined();
    expect(text(result)).toBe('{"id":"1"}|all');
  });

  it('answers without calling the API when beforeRequest returns a result', async () => {
    const { seen, call } = setup({
      tools: { getThing: { beforeRequest: () => ({ content: [{ type: 'text', text: 'cached' }] }) } },
    });
    expect(text(await call({ id: '1' }))).toBe('cached');
    expect(seen).toHaveLength(0);
  });

  it('turns a throwing hook into a tool error, and sends nothing when beforeRequest throws', async () => {
    const before = setup({
      beforeRequest: () => {
        throw new Error('no token');
      },
    });
    const result = await before.call({ id: '1' });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The beforeRequest hook failed for getThing: no token' }],
    });
    expect(before.seen).toHaveLength(0);
    const after = setup({
      tools: {
        getThing: {
          afterResponse: () => {
            throw new Error('bad');
          },
        },
      },
    });
    expect(text(await after.call({ id: '1' }))).toBe('The tools.getThing.afterResponse hook failed for getThing: bad');
  });

  it('does not run hooks for arguments that fail validation', async () => {
    let ran = false;
    const { call } = setup({
      beforeRequest: () => {
        ran = true;
      },
    });
    expect((await call({})).isError).toBe(true);
    expect(ran).toBe(false);
  });
});
