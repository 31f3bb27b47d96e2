/**
 * Client profiles end to end: a generated server, started over stdio and HTTP, lists each client the schemas
 * its host takes, chosen from the client's identity (the `_meta` envelope on 2026-07-28, `initialize` on
 * 2025-11-25 over stdio), and a call made with arguments valid for the lowered schema reaches the upstream as
 * the exact request. Unknown clients keep the full schemas.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listAllTools, type ListedTool } from '../../../templates/runtime/contract/listing.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { hostViolations } from '../../helpers/host-rules.js';
import {
  connectLegacyHttp,
  connectLegacyStdio,
  connectModernHttp,
  connectModernStdio,
} from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startHttpServer } from '../../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/unions.yaml`;
type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- listed schemas are read by path in assertions
type Schema = Record<string, any>;

let upstream: MockUpstream;
let project: BuiltProject;
let env: Record<string, string>;
let fullListing: ListedTool[];

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(SPEC, { toolMode: 'all' });
  env = { API_BASE_URL: upstream.url };
  fullListing = listAllTools(JSON.parse(readFileSync(join(project.dir, 'catalog.json'), 'utf8')));
});
afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

/** createShape's body schema as listed, through its `$ref` when the profile keeps `$defs`. */
function body(tools: Array<{ name: string; inputSchema: unknown }>): Schema {
  const schema = tools.find((t) => t.name === 'createShape')!.inputSchema as Schema;
  const listed = schema.properties.body as Schema;
  return typeof listed.$ref === 'string' ? schema.$defs[listed.$ref.split('/').pop()!] : listed;
}
const square = { geometry: { kind: 'square', side: 2 }, label: 'box', metadata: { color: 'red' } };

/** JSON text of arrays nested 200,000 levels deep. */
const DEEP_JSON_TEXT = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;

/** A strict-mode createShape whose `fields` hold the deep JSON text: refused by the depth limit, nothing sent. */
async function expectDeepTextRefused(client: Client, fields: Record<string, unknown>): Promise<void> {
  upstream.requests.length = 0;
  const body = { geometry: { kind: 'square', side: 2, radius: null }, label: 'box', homepage: null, parent: null };
  const deep = (await client.callTool({
    name: 'createShape',
    arguments: { body: { ...body, metadata: null, ...fields } },
  })) as CallResult;
  expect(deep.isError).toBe(true);
  expect(deep.content[0]!.text).toMatch(/nested more than 64 levels/);
  expect(upstream.requests).toHaveLength(0);
}

function expectCreated(result: CallResult, sent: unknown): void {
  expect(result.isError, result.content[0]?.text).toBeFalsy();
  expect(upstream.requests).toHaveLength(1);
  expect(upstream.requests[0]).toMatchObject({ method: 'POST', url: '/shapes' });
  expect(JSON.parse(upstream.requests[0]!.body.toString())).toEqual(sent);
}

describe('2026-07-28 clients, by the clientInfo in the _meta envelope', () => {
  it('cursor-vscode over stdio: no unions or type arrays; a call valid for that schema makes the exact request', async () => {
    const client = await connectModernStdio(project.entry, env, 'cursor-vscode');
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) expect(hostViolations('cursor', tool.inputSchema as Schema), tool.name).toEqual([]);
      const geometry = body(tools).properties.geometry;
      expect(geometry.properties.kind).toEqual({ type: 'string', enum: ['circle', 'square'] });
      expect(geometry.description).toContain('one of these shapes');
      expect(body(tools).properties.label.description).toContain('may be null');
      expectCreated(
        (await client.callTool({ name: 'createShape', arguments: { body: square } })) as CallResult,
        square,
      );
    } finally {
      await client.close();
    }
  });

  it('cursor-vscode over HTTP gets the same listing; an invalid call says what to change and sends nothing', async () => {
    const server = await startHttpServer(project.entry, env);
    try {
      const client = await connectModernHttp(`${server.url}`, 'cursor-vscode');
      try {
        const { tools } = await client.listTools();
        for (const tool of tools) expect(hostViolations('cursor', tool.inputSchema as Schema), tool.name).toEqual([]);
        const invalid = (await client.callTool({
          name: 'createShape',
          arguments: { body: { geometry: { kind: 'triangle', side: 2 } } },
        })) as CallResult;
        expect(invalid.isError).toBe(true);
        expect(invalid.content[0]!.text).toMatch(/"body\.geometry(\.kind)?"/);
        expect(upstream.requests).toHaveLength(0);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  });

  it('the tools/list answer is marked private: it depends on the client', async () => {
    const server = await startHttpServer(project.entry, env);
    try {
      const envelope = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'gemini-cli-mcp-client', version: '1' },
      };
      const response = await fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }),
      });
      const answer = (await response.json()) as {
        result: { cacheScope: string; tools: Array<{ name: string; inputSchema: Schema }> };
      };
      expect(answer.result.cacheScope).toBe('private');
      for (const tool of answer.result.tools) expect(hostViolations('gemini', tool.inputSchema), tool.name).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('an unknown client gets the full schemas, as the catalog holds them', async () => {
    const client = await connectModernStdio(project.entry, env);
    try {
      expect((await client.listTools()).tools).toEqual(fullListing);
    } finally {
      await client.close();
    }
  });
});

describe('2025-11-25 clients, by the clientInfo of initialize', () => {
  it("Visual Studio Code and Gemini CLI over stdio get their hosts' listings", async () => {
    const vscode = await connectLegacyStdio(project.entry, env, 'Visual Studio Code');
    try {
      const { tools } = await vscode.listTools();
      for (const tool of tools) expect(hostViolations('vscode', tool.inputSchema as Schema), tool.name).toEqual([]);
    } finally {
      await vscode.close();
    }
    const gemini = await connectLegacyStdio(project.entry, env, 'gemini-cli-mcp-client');
    try {
      const { tools } = await gemini.listTools();
      for (const tool of tools) expect(hostViolations('gemini', tool.inputSchema as Schema), tool.name).toEqual([]);
      expect(body(tools).properties.homepage.description).toContain('format: uri');
      expectCreated(
        (await gemini.callTool({ name: 'createShape', arguments: { body: square } })) as CallResult,
        square,
      );
    } finally {
      await gemini.close();
    }
  });

  it('over stateless HTTP a request carries no clientInfo: full schemas, unless MCP_CLIENT_PROFILE names one', async () => {
    const plain = await startHttpServer(project.entry, env);
    try {
      const client = await connectLegacyHttp(plain.url, 'cursor-vscode');
      expect((await client.listTools()).tools).toEqual(fullListing);
      await client.close();
    } finally {
      await plain.stop();
    }
    const forced = await startHttpServer(project.entry, { ...env, MCP_CLIENT_PROFILE: 'cursor' });
    try {
      const client = await connectLegacyHttp(forced.url, 'cursor-vscode');
      const { tools } = await client.listTools();
      for (const tool of tools) expect(hostViolations('cursor', tool.inputSchema as Schema), tool.name).toEqual([]);
      await client.close();
    } finally {
      await forced.stop();
    }
  });
});

describe('OpenAI strict mode, named through MCP_CLIENT_PROFILES', () => {
  it('every property is required; null for an optional one and JSON text for a free-form one are undone before the call', async () => {
    const client = await connectModernStdio(
      project.entry,
      { ...env, MCP_CLIENT_PROFILES: 'strict-agent=openai-strict' },
      'strict-agent',
    );
    try {
      const { tools } = await client.listTools();
      for (const tool of tools)
        expect(hostViolations('openai-strict', tool.inputSchema as Schema), tool.name).toEqual([]);
      const args = {
        body: {
          geometry: { kind: 'square', side: 2, radius: null },
          label: 'box',
          homepage: null,
          metadata: '{"color":"red"}',
          parent: null,
        },
      };
      expectCreated((await client.callTool({ name: 'createShape', arguments: args })) as CallResult, square);
      upstream.requests.length = 0;
      const notJson = (await client.callTool({
        name: 'createShape',
        arguments: { body: { ...args.body, metadata: 'color: red' } },
      })) as CallResult;
      expect(notJson.isError).toBe(true);
      expect(notJson.content[0]!.text).toContain('"body.metadata" is text that does not parse as JSON');
      expect(upstream.requests).toHaveLength(0);
      const list = (await client.callTool({
        name: 'listShapes',
        arguments: { limit: 5, since: null, kind: null },
      })) as CallResult;
      expect(list.isError).toBeFalsy();
      expect(upstream.requests[0]!.url).toBe('/shapes?limit=5');
    } finally {
      await client.close();
    }
  });
  it('a free-form value sent as JSON text nested 200,000 levels deep is refused like nested arguments, and nothing is sent', async () => {
    const client = await connectModernStdio(
      project.entry,
      { ...env, MCP_CLIENT_PROFILES: 'strict-agent=openai-strict' },
      'strict-agent',
    );
    try {
      await expectDeepTextRefused(client, { metadata: DEEP_JSON_TEXT });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('JSON text that any value may be, on a call the user must confirm, is refused by the depth limit before the confirmation reads it', async () => {
    const client = await connectModernStdio(
      project.entry,
      { ...env, MCP_CLIENT_PROFILES: 'strict-agent=openai-strict', MCP_CONFIRM: 'writes' },
      'strict-agent',
      { capabilities: { elicitation: { form: {} } } },
    );
    try {
      await expectDeepTextRefused(client, { metadata: null, extra: DEEP_JSON_TEXT });
    } finally {
      await client.close();
    }
  });
});

describe('tool caps', () => {
  it('a client whose host takes fewer tools than mode all lists gets the hybrid listing; others get every tool', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'otm-cap-'));
    const paths = Object.fromEntries(
      Array.from({ length: 45 }, (_, i) => [
        `/things${i}`,
        {
          get: {
            operationId: `getThings${i}`,
            summary: `Get things ${i}`,
            responses: { '200': { description: 'ok' } },
          },
        },
      ]),
    );
    const spec = join(dir, 'many.json');
    writeFileSync(
      spec,
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'Many', version: '1' },
        servers: [{ url: 'https://many.example.com' }],
        paths,
      }),
    );
    const many = await generateAndBuild(spec, { toolMode: 'all' });
    try {
      const cursor = await connectModernStdio(many.entry, env, 'cursor-vscode');
      try {
        const { tools } = await cursor.listTools();
        expect(tools.length).toBeLessThanOrEqual(40);
        expect(tools.slice(-3).map((t) => t.name)).toEqual([
          'search_operations',
          'describe_operation',
          'call_operation',
        ]);
        expect(cursor.getInstructions()).toContain('If search_operations is among your tools');
        const called = (await cursor.callTool({
          name: 'call_operation',
          arguments: { name: 'getThings44' },
        })) as CallResult;
        expect(called.isError).toBeFalsy();
        expect(upstream.requests.map((r) => r.url)).toEqual(['/things44']);
      } finally {
        await cursor.close();
      }
      const unknown = await connectModernStdio(many.entry, env);
      try {
        expect((await unknown.listTools()).tools).toHaveLength(45);
      } finally {
        await unknown.close();
      }
    } finally {
      many.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
