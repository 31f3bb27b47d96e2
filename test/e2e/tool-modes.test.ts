/**
 * Tool modes: `dynamic` lists only search/describe/call meta-tools, `hybrid` adds a core of direct tools,
 * MCP_TOOL_MODE overrides the generated mode, and long tool lists are paged. Every operation stays callable
 * through call_operation with the same validation and the same HTTP request as the direct tool.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { listAllTools } from '../../templates/runtime/contract/listing.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { connectModernStdio } from '../helpers/mcp-clients.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/requests.yaml`;
type CallResult = {
  content: Array<{ type: string; text?: string }>;
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
};

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(SPEC, { toolMode: 'dynamic', core: ['getItem'] });
});
afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

async function connect(extra: Record<string, string> = {}): Promise<Client> {
  return connectModernStdio(project.entry, { API_BASE_URL: `${upstream.url}/v1`, ...extra });
}

describe('dynamic mode', () => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists only the three meta-tools and says how to use them', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_operations', 'describe_operation', 'call_operation']);
    expect(client.getInstructions()).toContain('search_operations');
  });

  it('finds an operation by what it does, describes it, and calls it with the same request as the direct tool', async () => {
    const found = (await client.callTool({
      name: 'search_operations',
      arguments: { query: 'create a charge form body' },
    })) as CallResult;
    const results = found.structuredContent!['results'] as Array<{ name: string; method: string; path: string }>;
    expect(results[0]).toMatchObject({ name: 'createCharge', method: 'POST', path: '/charges' });
    const described = (await client.callTool({
      name: 'describe_operation',
      arguments: { name: 'createCharge' },
    })) as CallResult;
    expect(described.structuredContent!['inputSchema']).toMatchObject({
      type: 'object',
      properties: { body: { type: 'object' } },
    });
    const called = (await client.callTool({
      name: 'call_operation',
      arguments: {
        name: 'createCharge',
        arguments: { body: { amount: 100, metadata: { order_id: '6735' }, expand: ['customer'] } },
      },
    })) as CallResult;
    expect(called.isError).toBeFalsy();
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.url).toBe('/v1/charges');
    expect(decodeURIComponent(upstream.requests[0]!.body.toString())).toBe(
      'amount=100&metadata[order_id]=6735&expand[]=customer',
    );
  });

  it('browses without words: no query lists the groups, a group lists its operations with their required arguments', async () => {
    const browsed = (await client.callTool({ name: 'search_operations', arguments: {} })) as CallResult;
    const groups = browsed.structuredContent!['groups'] as Array<{ name: string; operations: number }>;
    expect(groups.reduce((n, g) => n + g.operations, 0)).toBe(6);
    const first = (await client.callTool({
      name: 'search_operations',
      arguments: { group: groups[0]!.name },
    })) as CallResult;
    const results = first.structuredContent!['results'] as Array<{
      name: string;
      method: string;
      path: string;
      required: string[];
    }>;
    expect(results).toHaveLength(groups[0]!.operations);
    expect(results[0]).toMatchObject({
      name: expect.any(String),
      method: expect.any(String),
      path: expect.stringMatching(/^\//),
      required: expect.any(Array),
    });
    expect(upstream.requests).toHaveLength(0);
  });

  it('validates the operation arguments and names unknown operations, without calling upstream', async () => {
    const invalid = (await client.callTool({
      name: 'call_operation',
      arguments: { name: 'createCharge', arguments: { body: { amount: 'x' } } },
    })) as CallResult;
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]!.text).toMatch(/amount/);
    const unknown = (await client.callTool({ name: 'call_operation', arguments: { name: 'nope' } })) as CallResult;
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toContain('search_operations');
    const badMeta = (await client.callTool({ name: 'search_operations', arguments: { limit: 'ten' } })) as CallResult;
    expect(badMeta.isError).toBe(true);
    const badGroup = (await client.callTool({
      name: 'search_operations',
      arguments: { group: 'no such group' },
    })) as CallResult;
    expect(badGroup.isError).toBe(true);
    expect(badGroup.content[0]!.text).toMatch(/There is no group "no such group"\. Groups: /);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('mode overrides and paging', () => {
  it('MCP_TOOL_MODE=hybrid lists the core tools plus the meta-tools', async () => {
    const client = await connect({ MCP_TOOL_MODE: 'hybrid' });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual([
        'getItem',
        'search_operations',
        'describe_operation',
        'call_operation',
      ]);
    } finally {
      await client.close();
    }
  });

  it('MCP_TOOL_MODE=all lists every operation; pages follow cursors', async () => {
    const client = await connect({ MCP_TOOL_MODE: 'all', MCP_TOOLS_PAGE_SIZE: '4' });
    try {
      const all = await client.listTools();
      expect(all.tools).toHaveLength(6);
      const page = await client.listTools({ cursor: '1' });
      expect(page.tools.map((t) => t.name)).toEqual(['createCharge', 'get_search']);
      await expect(client.listTools({ cursor: 'bogus' })).rejects.toThrow(/cursor/i);
    } finally {
      await client.close();
    }
  });

  it('MCP_TOOL_MODE=code stops the start of a project generated without code mode, saying to regenerate', async () => {
    // The project carries no code mode at all (test/src/emit/plan.test.ts): it built, and refuses at once.
    expect(existsSync(join(project.dir, 'src', 'runtime', 'code-mode'))).toBe(false);
    const started = spawnSync(process.execPath, [project.entry], {
      env: { PATH: process.env['PATH'], API_BASE_URL: `${upstream.url}/v1`, MCP_TOOL_MODE: 'code' },
      input: '',
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(started.status).toBe(1);
    expect(started.stderr).toContain('MCP_TOOL_MODE=code needs a project generated with --tool-mode code');
    expect(started.stderr).toContain('Regenerate it with --tool-mode code');
  });
});

describe('tools/list over stdio', () => {
  const catalogListing = () => listAllTools(JSON.parse(readFileSync(join(project.dir, 'catalog.json'), 'utf8')));

  async function listEveryPage(client: Client): Promise<unknown[]> {
    const tools: unknown[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  it('lists exactly what the catalog describes, page by page, and beside the meta-tools in hybrid mode', async () => {
    const expected = catalogListing();
    // Without confirmation: a client that cannot elicit is listed a `confirm` argument on DELETEs (confirm.test.ts).
    const all = await connect({ MCP_TOOL_MODE: 'all', MCP_TOOLS_PAGE_SIZE: '4', MCP_CONFIRM: 'never' });
    try {
      expect(await listEveryPage(all)).toEqual(expected);
    } finally {
      await all.close();
    }
    const hybrid = await connect({ MCP_TOOL_MODE: 'hybrid' });
    try {
      const { tools } = await hybrid.listTools();
      expect(tools[0]).toEqual(expected.find((t) => t.name === 'getItem'));
      expect(tools.slice(1).map((t) => t.name)).toEqual(['search_operations', 'describe_operation', 'call_operation']);
    } finally {
      await hybrid.close();
    }
  });
});
