/**
 * End to end: confirmation of destructive calls (templates/runtime/confirm/confirm.ts). A generated server asks the
 * user through elicitation before a DELETE: the SDK v2 client (2026-07-28, `input_required` rounds) over
 * stdio and HTTP, the v1 client (2025-11-25, `elicitation/create`) over stdio. Declined sends nothing
 * upstream, accepted sends the request once; a tampered request state is refused; clients that cannot elicit
 * get the documented fallback, the `confirm` argument.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { elicitingModernClient, rawToolCall, user, type Answer } from '../helpers/elicitation.js';
import { connectLegacyHttp, connectModernHttp, TEST_CLIENT_NAME } from '../helpers/mcp-clients.js';
import { startHttpServer, type HttpServerProcess } from '../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/features/requests.yaml`;

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  project = await generateAndBuild(SPEC);
});

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }));
});

const env = (extra: Record<string, string> = {}) => ({
  PATH: process.env['PATH'] ?? '',
  API_BASE_URL: `${upstream.url}/v1`,
  ...extra,
});

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

const text = (result: unknown) => (result as CallResult).content.map((c) => c.text ?? '').join('');

async function elicitingLegacyStdio(
  answer: (params: { message: string; requestedSchema: unknown }) => Answer,
  extraEnv: Record<string, string> = {},
): Promise<LegacyClient> {
  const client = new LegacyClient({ name: TEST_CLIENT_NAME, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) =>
    answer(request.params as { message: string; requestedSchema: unknown }),
  );
  await client.connect(
    new LegacyStdioTransport({
      command: process.execPath,
      args: [project.entry],
      env: env(extraEnv),
      stderr: 'pipe',
    }),
  );
  return client;
}

async function modernStdio(client: Client, extraEnv: Record<string, string> = {}): Promise<Client> {
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [project.entry], env: env(extraEnv), stderr: 'pipe' }),
  );
  return client;
}

interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** Declined sends nothing, accepted sends once, a read is never asked about: for each eliciting client. */
function confirmsDeletes(
  connect: (answer: (p: { message: string; requestedSchema: unknown }) => Answer) => Promise<AnyClient>,
) {
  it('asks before a DELETE and sends nothing when the user declines', async () => {
    const declining = user({ action: 'decline' });
    const client = await connect(declining.answer);
    try {
      const result = await client.callTool({ name: 'deleteItem', arguments: { itemId: '42' } });
      expect((result as CallResult).isError).toBe(true);
      expect(text(result)).toContain('Not sent: the user did not allow deleteItem (DELETE /items/{itemId})');
      expect(upstream.requests).toEqual([]);
      expect(declining.asked).toHaveLength(1);
      expect(declining.asked[0]!.message).toBe(
        'Allow deleteItem to send DELETE /items/{itemId} with {"itemId":"42"}? It is marked destructive: it may not be undoable.',
      );
      expect(declining.asked[0]!.requestedSchema).toMatchObject({
        type: 'object',
        properties: { confirm: { type: 'boolean' } },
        required: ['confirm'],
      });
    } finally {
      await client.close();
    }
  });

  it('sends the DELETE exactly once when the user accepts', async () => {
    const accepting = user({ action: 'accept', content: { confirm: true } });
    const client = await connect(accepting.answer);
    try {
      const result = await client.callTool({ name: 'deleteItem', arguments: { itemId: '42' } });
      expect((result as CallResult).isError).toBeFalsy();
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /v1/items/42']);
      expect(accepting.asked).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('sends nothing when the user accepts the form but answers no, or dismisses it', async () => {
    for (const answer of [{ action: 'accept', content: { confirm: false } }, { action: 'cancel' }] as Answer[]) {
      const client = await connect(user(answer).answer);
      try {
        const result = await client.callTool({ name: 'deleteItem', arguments: { itemId: '42' } });
        expect((result as CallResult).isError).toBe(true);
        expect(text(result)).toMatch(/^Not sent: the user/);
      } finally {
        await client.close();
      }
    }
    expect(upstream.requests).toEqual([]);
  });

  it('does not ask before a read', async () => {
    const asking = user({ action: 'decline' });
    const client = await connect(asking.answer);
    try {
      const result = await client.callTool({ name: 'getItem', arguments: { itemId: '1' } });
      expect((result as CallResult).isError).toBeFalsy();
      expect(asking.asked).toEqual([]);
      expect(upstream.requests).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
}

describe('stdio, 2026-07-28 client with elicitation', () => {
  confirmsDeletes((answer) => modernStdio(elicitingModernClient(answer)));

  it('lists no confirm argument to a client that can be asked', async () => {
    const client = await modernStdio(elicitingModernClient(() => ({ action: 'decline' })));
    try {
      const { tools } = await client.listTools();
      const deleteItem = tools.find((t) => t.name === 'deleteItem')!;
      expect(Object.keys(deleteItem.inputSchema.properties ?? {})).toEqual(['itemId']);
    } finally {
      await client.close();
    }
  });

  it('asks before call_operation runs a DELETE in the dynamic mode', async () => {
    const declining = user({ action: 'decline' });
    const client = await modernStdio(elicitingModernClient(declining.answer), { MCP_TOOL_MODE: 'dynamic' });
    try {
      const result = await client.callTool({
        name: 'call_operation',
        arguments: { name: 'deleteItem', arguments: { itemId: '7' } },
      });
      expect(text(result)).toContain('Not sent: the user did not allow deleteItem');
      expect(declining.asked).toHaveLength(1);
      expect(upstream.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('asks nothing with MCP_CONFIRM=never', async () => {
    const asking = user({ action: 'decline' });
    const client = await modernStdio(elicitingModernClient(asking.answer), { MCP_CONFIRM: 'never' });
    try {
      const result = await client.callTool({ name: 'deleteItem', arguments: { itemId: '3' } });
      expect((result as CallResult).isError).toBeFalsy();
      expect(asking.asked).toEqual([]);
      expect(upstream.requests.map((r) => r.method)).toEqual(['DELETE']);
    } finally {
      await client.close();
    }
  });

  it('asks before every write with MCP_CONFIRM=writes', async () => {
    const declining = user({ action: 'decline' });
    const client = await modernStdio(elicitingModernClient(declining.answer), { MCP_CONFIRM: 'writes' });
    try {
      const result = await client.callTool({ name: 'createItem', arguments: { body: { name: 'n' } } });
      expect(text(result)).toContain('Not sent: the user did not allow createItem (POST /items)');
      expect(upstream.requests).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('stdio, 2025-11-25 client with elicitation', () => {
  confirmsDeletes((answer) => elicitingLegacyStdio(answer));
});

describe('HTTP', () => {
  let server: HttpServerProcess;
  beforeAll(async () => {
    server = await startHttpServer(project.entry, env());
  });
  afterAll(async () => {
    await server?.stop();
  });

  describe('2026-07-28 client with elicitation', () => {
    confirmsDeletes(async (answer) => {
      const client = elicitingModernClient(answer);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      return client;
    });
  });

  it('refuses a tampered request state, asks again for other arguments, and sends once with the signed one', async () => {
    const first = await rawToolCall(server.url, 'deleteItem', { itemId: '42' });
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: {} } });
    const state = first.result.requestState as string;
    expect(state).toMatch(/^v1\./);
    const yes = { confirm: { action: 'accept', content: { confirm: true } } };

    const [version, body, mac] = state.split('.');
    const forged = Buffer.from(
      JSON.stringify({
        ...JSON.parse(Buffer.from(body!, 'base64url').toString()),
        p: { tool: 'deleteItem', args: 'x' },
      }),
    ).toString('base64url');
    for (const tampered of [`${version}.${forged}.${mac}`, `${state.slice(0, -2)}AA`, 'not-a-state']) {
      const refused = await rawToolCall(
        server.url,
        'deleteItem',
        { itemId: '42' },
        { inputResponses: yes, requestState: tampered },
      );
      expect(refused.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    }
    // A state signed for itemId 42: for another item the server asks again. (That retry spends the state: a
    // state is good for one retry, so this uses a second one.)
    const spare = (await rawToolCall(server.url, 'deleteItem', { itemId: '42' })).result.requestState as string;
    const other = await rawToolCall(
      server.url,
      'deleteItem',
      { itemId: '43' },
      { inputResponses: yes, requestState: spare },
    );
    expect(other.result).toMatchObject({ resultType: 'input_required' });
    // An answer without the state is not enough either.
    const stateless = await rawToolCall(server.url, 'deleteItem', { itemId: '42' }, { inputResponses: yes });
    expect(stateless.result).toMatchObject({ resultType: 'input_required' });
    expect(upstream.requests).toEqual([]);

    const done = await rawToolCall(
      server.url,
      'deleteItem',
      { itemId: '42' },
      { inputResponses: yes, requestState: state },
    );
    expect(done.result).toMatchObject({ resultType: 'complete' });
    expect(done.result.isError).toBeUndefined();
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /v1/items/42']);
  });

  it('takes an accepted confirmation once: the same state sent again, even at the same moment, is refused', async () => {
    const first = await rawToolCall(server.url, 'deleteItem', { itemId: '7' });
    const state = first.result.requestState as string;
    const yes = { confirm: { action: 'accept', content: { confirm: true } } };
    const retry = () =>
      rawToolCall(server.url, 'deleteItem', { itemId: '7' }, { inputResponses: yes, requestState: state });

    const answers = await Promise.all([retry(), retry(), retry()]);
    const sent = answers.filter((a) => a.result.isError === undefined);
    expect(sent).toHaveLength(1);
    const replayed = [...answers.filter((a) => a.result.isError === true), await retry()];
    expect(replayed).toHaveLength(3);
    for (const answer of replayed) {
      expect(text(answer.result)).toContain('was already used');
      expect(text(answer.result)).toContain('Nothing was sent to the API');
    }
    expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /v1/items/7']);
  });

  it('gives a 2026-07-28 client without elicitation the confirm argument', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const { tools } = await client.listTools();
      const deleteItem = tools.find((t) => t.name === 'deleteItem')!;
      expect(deleteItem.inputSchema.properties).toMatchObject({
        itemId: { type: 'string' },
        confirm: { type: 'boolean' },
      });
      expect(deleteItem.inputSchema.required).toEqual(['itemId']);
      const getItem = tools.find((t) => t.name === 'getItem')!;
      expect(getItem.inputSchema.properties).not.toHaveProperty('confirm');

      const refused = await client.callTool({ name: 'deleteItem', arguments: { itemId: '9' } });
      expect((refused as CallResult).isError).toBe(true);
      expect(text(refused)).toBe(
        `Not sent: deleteItem (DELETE /items/{itemId}) needs the user's confirmation, and this client cannot ask for it (it declares no elicitation). Ask the user whether to go ahead; only if they agree, call deleteItem again with the same arguments and "confirm": true.`,
      );
      expect(upstream.requests).toEqual([]);

      const sent = await client.callTool({ name: 'deleteItem', arguments: { itemId: '9', confirm: true } });
      expect((sent as CallResult).isError).toBeFalsy();
      expect(upstream.requests.map((r) => `${r.method} ${r.url} ${r.body.length}`)).toEqual(['DELETE /v1/items/9 0']);
    } finally {
      await client.close();
    }
  });

  it('gives a 2025-11-25 client over stateless HTTP the fallback even when it declares elicitation', async () => {
    const plain = await connectLegacyHttp(server.url);
    const declaring = new LegacyClient(
      { name: TEST_CLIENT_NAME, version: '1.0.0' },
      { capabilities: { elicitation: {} } },
    );
    declaring.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { confirm: true } }));
    const { StreamableHTTPClientTransport: LegacyHttpTransport } =
      await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    await declaring.connect(new LegacyHttpTransport(new URL(server.url)));
    try {
      for (const client of [plain, declaring]) {
        const { tools } = await client.listTools();
        expect(tools.find((t) => t.name === 'deleteItem')!.inputSchema.properties).toHaveProperty('confirm');
        const refused = await client.callTool({ name: 'deleteItem', arguments: { itemId: '5' } });
        expect(text(refused)).toContain('this client cannot ask for it');
      }
      expect(upstream.requests).toEqual([]);
      await plain.callTool({ name: 'deleteItem', arguments: { itemId: '5', confirm: true } });
      expect(upstream.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /v1/items/5']);
    } finally {
      await plain.close();
      await declaring.close();
    }
  });
});
