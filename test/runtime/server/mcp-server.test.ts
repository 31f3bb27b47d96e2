/**
 * Compact input schemas as the server serves them (mcp-server.ts, tool-registry.ts): a hybrid listing shows a
 * core tool's compact schema to every client (Claude Code's lowering on top for `claude-code`), mode `all` the
 * whole one; calls are validated against the whole schema whatever was listed; describe_operation gives the whole.
 * Output schemas are listed to the clients whose hosts have a place for them (not claude-code).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { COMPACT_NOTE } from '../../../src/schema/compact-schema.js';
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import { createServer } from '../../../templates/runtime/server/create-server.js';

const work = mkdtempSync(join(tmpdir(), 'otm-mcp-server-'));
const LONG = 'This sentence is here so that the schema is long, as the schemas of large APIs are. '.repeat(3);

/** One create whose body nests three levels deep, with long descriptions: over the per-tool budget. */
function spec(): string {
  const leaf = (n: number) =>
    Object.fromEntries(
      Array.from({ length: 40 }, (_, i) => [`field${n}${i}`, { type: 'string', description: `Field ${i}. ${LONG}` }]),
    );
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Deep', version: '1' },
    servers: [{ url: 'http://deep.test' }],
    paths: {
      '/things': {
        post: {
          operationId: 'createThing',
          summary: 'Create a thing',
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['name'],
                  properties: {
                    name: { type: 'string' },
                    spec: {
                      type: 'object',
                      description: `The thing's spec. ${LONG}`,
                      properties: {
                        replicas: { type: 'integer' },
                        template: {
                          type: 'object',
                          description: 'The template.',
                          properties: { size: { type: 'integer' }, ...leaf(1) },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          responses: {
            '201': {
              description: 'Created',
              content: {
                'application/json': { schema: { type: 'object', properties: { id: { type: 'integer' } } } },
              },
            },
          },
        },
        get: { operationId: 'listThings', summary: 'List things', responses: { '200': { description: 'OK' } } },
      },
    },
  });
}

let hybrid: URL;
let all: URL;
beforeAll(async () => {
  writeFileSync(join(work, 'deep.json'), spec());
  await generate({ spec: join(work, 'deep.json'), out: join(work, 'hybrid'), core: ['createThing'], validate: false });
  await generate({ spec: join(work, 'deep.json'), out: join(work, 'all'), toolMode: 'all', validate: false });
  hybrid = pathToFileURL(join(work, 'hybrid', 'catalog.json'));
  all = pathToFileURL(join(work, 'all', 'catalog.json'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function connect(catalogUrl: URL, clientName: string, sent: string[] = []): Promise<Client> {
  const fake: typeof fetch = async (input, init) => {
    sent.push(String(init?.body ?? ''));
    return new Response(JSON.stringify({ id: 1 }), { status: 201, headers: { 'content-type': 'application/json' } });
  };
  const server = await createServer({ catalogUrl, env: {}, fetch: fake });
  const endpoint = await server.endpoint();
  const client = new Client(
    { name: clientName, version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => endpoint.fetch(new Request(url, init)),
    }),
  );
  return client;
}

type Schema = Record<string, unknown>;
const at = (schema: unknown, ...path: string[]) =>
  path.reduce((node, key) => (node as Schema)[key] as Schema, schema as Schema);
type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: Schema };

describe('compact input schemas', () => {
  it('are generated for core tools over the budget, kept beside the whole schema in the catalog', async () => {
    const { files } = await generate({
      spec: join(work, 'deep.json'),
      core: ['createThing'],
      write: false,
      validate: false,
    });
    const catalog = JSON.parse(files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
    const create = catalog.tools.find((t) => t.name === 'createThing')!;
    expect(create.compactInputSchema).toBeDefined();
    expect(Object.keys(create).indexOf('compactInputSchema')).toBe(Object.keys(create).indexOf('defs') + 1);
    expect(catalog.tools.find((t) => t.name === 'listThings')!.compactInputSchema).toBeUndefined();
  });

  for (const clientName of ['claude-code', 'some-client']) {
    it(`are what a hybrid listing shows ${clientName}; calls are still checked against the whole schema`, async () => {
      const sent: string[] = [];
      const client = await connect(hybrid, clientName, sent);
      try {
        const { tools } = await client.listTools();
        const create = tools.find((t) => t.name === 'createThing')!;
        const template = at(create.inputSchema, 'properties', 'body', 'properties', 'spec', 'properties', 'template');
        expect(template['description']).toContain(COMPACT_NOTE);
        expect(template['properties']).toBeUndefined();
        // The listing would let a wrong deep value through; the server does not.
        const wrong = (await client.callTool({
          name: 'createThing',
          arguments: { body: { name: 'a', spec: { template: { size: 'big' } } } },
        })) as CallResult;
        expect(wrong.isError).toBe(true);
        expect(wrong.content[0]!.text).toMatch(/body\.spec\.template\.size/);
        expect(sent).toEqual([]);
        const right = (await client.callTool({
          name: 'createThing',
          arguments: { body: { name: 'a', spec: { template: { size: 2 } } } },
        })) as CallResult;
        expect(right.isError).toBeFalsy();
        expect(right.structuredContent).toEqual({ id: 1 });
        expect(JSON.parse(sent[0]!)).toEqual({ name: 'a', spec: { template: { size: 2 } } });
        // describe_operation gives the whole schema.
        const described = (await client.callTool({
          name: 'describe_operation',
          arguments: { name: 'createThing' },
        })) as CallResult;
        const whole = at(described.structuredContent, 'inputSchema', 'properties', 'body');
        expect(JSON.stringify(whole)).toContain('field16');
      } finally {
        await client.close();
      }
    });
  }

  it('are not what mode all shows: it lists every schema whole', async () => {
    const client = await connect(all, 'claude-code');
    try {
      const { tools } = await client.listTools();
      const create = tools.find((t) => t.name === 'createThing')!;
      expect(JSON.stringify(create.inputSchema)).not.toContain(COMPACT_NOTE);
      expect(JSON.stringify(create.inputSchema)).toContain('field16');
    } finally {
      await client.close();
    }
  });

  it('come with no output schema for claude-code (its model API has none), with the outline for other clients', async () => {
    for (const [clientName, declared] of [
      ['claude-code', false],
      ['some-client', true],
    ] as const) {
      const client = await connect(hybrid, clientName);
      try {
        const { tools } = await client.listTools();
        const create = tools.find((t) => t.name === 'createThing')!;
        expect(create.outputSchema !== undefined, clientName).toBe(declared);
      } finally {
        await client.close();
      }
    }
  });
});
