/**
 * A generated petstore server, published as `--tool-mode code` with the defaults, attacked with its own input:
 * a 12 MiB message and malformed lines over stdio, an argument nested 100,000 levels deep over stdio and over
 * HTTP, and a direct call of a write operation that code mode does not list. Each is answered with an error,
 * sends nothing upstream, and the server goes on serving. The upstream is a local mock that records requests.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernStdio } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { deeplyNested, MODERN_META, requestLine, startRawStdio, type RawStdio } from '../../helpers/raw-stdio.js';
import { startHttpServer } from '../../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/petstore.yaml`;
const MiB = 1024 * 1024;
type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":1}' }));
  project = await generateAndBuild(SPEC, { toolMode: 'code' });
});
afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

/** Credentials for every scheme: a call the server lets through is really sent. */
function env(extra: Record<string, string> = {}): Record<string, string> {
  return {
    API_BASE_URL: `${upstream.url}/v3`,
    API_KEY: 'pk-test-1',
    PETSTORE_AUTH_TOKEN: 'oauth-test-1',
    ...extra,
  };
}

/** addPet's arguments with a free-form member nested `levels` deep, as JSON text. */
const deepAddPetArguments = (levels: number) =>
  `{"body":{"name":"Rex","photoUrls":[],"extra":${deeplyNested(levels)}}}`;

async function expectStillServing(stdio: RawStdio, id: number): Promise<void> {
  await stdio.write(requestLine(id, 'tools/list'));
  const listed = await stdio.answer(id);
  expect(listed.result?.tools?.map((t) => t.name)).toEqual(['search', 'execute']);
  expect(stdio.running()).toBe(true);
}

describe('stdio: no message makes the server stop', () => {
  let stdio: RawStdio;
  beforeEach(() => {
    stdio = startRawStdio(project.entry, env());
  });
  afterEach(async () => {
    await stdio.stop();
  });

  it('answers a 12 MiB request with an invalid-request error carrying its id, then serves the next one', async () => {
    const program = 'x'.repeat(12 * MiB);
    await stdio.write(requestLine(2, 'tools/call', { name: 'execute', arguments: { code: program } }));
    const refused = await stdio.answer(2);
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/MCP_STDIO_MAX_MESSAGE_BYTES/);
    await expectStillServing(stdio, 3);
    expect(stdio.stderr()).toMatch(/over the limit/);
  });

  it('answers a line that is not JSON with a parse error, and JSON that is not JSON-RPC with an invalid-request error', async () => {
    await stdio.write('{"jsonrpc":"2.0","id":4,"method":"tools/list"');
    expect((await stdio.answer(null)).error?.code).toBe(-32700);
    await stdio.write('{"jsonrpc":"2.0","id":5,"method":7}');
    expect((await stdio.answer(5)).error?.code).toBe(-32600);
    await expectStillServing(stdio, 6);
  });

  it('refuses an argument nested 100,000 levels deep, naming the limit, and sends nothing', async () => {
    const withDeepArgument = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'addPet', arguments: 'ARGUMENTS', _meta: MODERN_META },
    }).replace('"ARGUMENTS"', deepAddPetArguments(100_000));
    await stdio.write(withDeepArgument);
    const answer = await stdio.answer(7);
    expect(answer.error).toBeUndefined();
    expect(answer.result?.isError).toBe(true);
    expect(answer.result?.content?.[0]?.text).toMatch(/nested more than \d+ levels deep/);
    await expectStillServing(stdio, 8);
    expect(upstream.requests).toHaveLength(0);
  });
});

describe('stdio with the SDK client', () => {
  it('fails a 12 MiB execute call with the error, and answers the next call', async () => {
    const client = await connectModernStdio(project.entry, env());
    try {
      const call = client.callTool({ name: 'execute', arguments: { code: 'x'.repeat(12 * MiB) } });
      await expect(call).rejects.toThrow(/MCP_STDIO_MAX_MESSAGE_BYTES/);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['search', 'execute']);
    } finally {
      await client.close();
    }
  });
});

describe('HTTP: an argument nested 100,000 levels deep', () => {
  it('is refused naming the limit, sends nothing, and the server goes on serving', async () => {
    const server = await startHttpServer(project.entry, env());
    const post = (method: string, body: string) =>
      fetch(server.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(method === 'tools/call' ? { 'mcp-name': 'addPet' } : {}),
        },
        body,
      }).then(async (response) => {
        const text = await response.text();
        return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? text)) as {
          result?: CallResult & { tools?: unknown[] };
          error?: { code: number; message: string };
        };
      });
    try {
      const call = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'addPet', arguments: 'ARGUMENTS', _meta: MODERN_META },
      }).replace('"ARGUMENTS"', deepAddPetArguments(100_000));
      const answer = await post('tools/call', call);
      expect(answer.error).toBeUndefined();
      expect(answer.result?.isError).toBe(true);
      expect(answer.result?.content[0]?.text).toMatch(/nested more than \d+ levels deep/);
      const listed = await post('tools/list', requestLine(2, 'tools/list'));
      expect(listed.result?.tools).toHaveLength(2);
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await server.stop();
    }
  });
});

describe('code mode: one write policy for programs and direct calls', () => {
  it('refuses a direct call of a write under the default MCP_CODE_ALLOW=read: nothing reaches the upstream', async () => {
    const client = await connectModernStdio(project.entry, env());
    try {
      const result = (await client.callTool({
        name: 'addPet',
        arguments: { body: { name: 'Rex', photoUrls: [] } },
      })) as CallResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/MCP_CODE_ALLOW=write/);
      expect(upstream.requests).toHaveLength(0);
      // A read called directly is sent, as a program's would be.
      const read = (await client.callTool({ name: 'getPetById', arguments: { petId: 1 } })) as CallResult;
      expect(read.isError).toBeFalsy();
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /v3/pet/1']);
    } finally {
      await client.close();
    }
  });

  it('sends a direct write once the owner allows writes, as it would a program’s', async () => {
    const client = await connectModernStdio(project.entry, env({ MCP_CODE_ALLOW: 'write' }));
    try {
      const result = (await client.callTool({
        name: 'addPet',
        arguments: { body: { name: 'Rex', photoUrls: [] } },
      })) as CallResult;
      expect(result.isError).toBeFalsy();
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v3/pet']);
    } finally {
      await client.close();
    }
  });
});
