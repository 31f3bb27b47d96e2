/**
 * End to end: code mode asks the user before a program's destructive call (templates/runtime/code-mode/code-confirm.ts),
 * with MCP_CODE_ALLOW=destructive and the default confirmation policy. The program stops at the call, the
 * client asks (2026-07-28: `input_required` rounds, over stdio and HTTP; 2025-11-25 over stdio: the SDK's
 * `elicitation/create`), and the retry runs the program again with the signed state: declined sends nothing
 * and throws inside the program; accepted sends the call once; writes made before the question are not made
 * again. A tampered state is refused; clients that cannot elicit get the fallback, execute's `confirm`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { elicitingModernClient, rawToolCall, user, type Answer, type Question } from '../../helpers/elicitation.js';
import { connectLegacyHttp, connectModernHttp, TEST_CLIENT_NAME } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/petstore.yaml`;

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond((req) => {
    const json = (body: unknown) => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (req.method === 'POST') return json({ ...JSON.parse(req.body.toString()), id: 99 });
    if (req.method === 'GET') return json({ id: Number(req.url.split('/').pop()), name: 'Rex' });
    return json({ deleted: true });
  });
  project = await generateAndBuild(SPEC, { toolMode: 'code' });
});

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

beforeEach(() => {
  upstream.requests.length = 0;
});

const env = () => ({
  PATH: process.env['PATH'] ?? '',
  API_BASE_URL: `${upstream.url}/v3`,
  API_KEY: 'k',
  PETSTORE_AUTH_TOKEN: 't',
  MCP_CODE_ALLOW: 'destructive',
});

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

const text = (result: unknown) => (result as CallResult).content.map((c) => c.text ?? '').join('');
const sent = () => upstream.requests.map((r) => `${r.method} ${r.url}`);

interface AnyClient {
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

async function modernStdio(answer: (params: Question) => Answer): Promise<AnyClient> {
  const client = elicitingModernClient(answer);
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [project.entry], env: env(), stderr: 'pipe' }),
  );
  return client;
}

async function legacyStdio(answer: (params: Question) => Answer): Promise<AnyClient> {
  const client = new LegacyClient({ name: TEST_CLIENT_NAME, version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params as Question));
  await client.connect(
    new LegacyStdioTransport({ command: process.execPath, args: [project.entry], env: env(), stderr: 'pipe' }),
  );
  return client;
}

const execute = (client: AnyClient, code: string, extra: Record<string, unknown> = {}) =>
  client.callTool({ name: 'execute', arguments: { code, ...extra } });

const DECLINABLE = [
  'const pet = await api.getPetById({ petId: 1 });',
  'try {',
  '  await api.deletePet({ petId: 7 });',
  "  return 'deleted';",
  '} catch (e) {',
  "  return 'kept ' + pet.name + ': ' + e.message;",
  '}',
].join('\n');

const CREATE_THEN_DELETE = [
  "const created = await api.addPet({ body: { name: 'Nemo', photoUrls: [] } });",
  'await api.deletePet({ petId: created.id });',
  'await api.deletePet({ petId: 5 });',
  'return created.id;',
].join('\n');

function asksAboutProgramCalls(connect: (answer: (params: Question) => Answer) => Promise<AnyClient>) {
  it('declined: nothing is sent, the program catches the refusal, its reads are made again', async () => {
    const declining = user({ action: 'decline' });
    const client = await connect(declining.answer);
    try {
      const result = await execute(client, DECLINABLE);
      expect((result as CallResult).isError).toBeFalsy();
      expect(JSON.parse(text(result))).toBe(
        'kept Rex: Not sent: the user did not allow deletePet (DELETE /pet/{petId}). Nothing was sent to the API; do not call it again unless the user asks for it.',
      );
      expect(declining.asked.map((q) => q.message)).toEqual([
        'Allow deletePet (Deletes a pet.) to send DELETE /pet/{petId} with {"petId":7}? It is marked destructive: it may not be undoable.',
      ]);
      expect(sent()).toEqual(['GET /v3/pet/1', 'GET /v3/pet/1']);
    } finally {
      await client.close();
    }
  });

  it('accepted: each destructive call is asked about and sent once, the write before them once', async () => {
    const accepting = user({ action: 'accept', content: { confirm: true } });
    const client = await connect(accepting.answer);
    try {
      const result = await execute(client, CREATE_THEN_DELETE);
      expect((result as CallResult).isError).toBeFalsy();
      expect(text(result)).toBe('99');
      expect(accepting.asked.map((q) => q.message)).toEqual([
        expect.stringContaining('DELETE /pet/{petId} with {"petId":99}?'),
        expect.stringContaining('DELETE /pet/{petId} with {"petId":5}?'),
      ]);
      expect(sent()).toEqual(['POST /v3/pet', 'DELETE /v3/pet/99', 'DELETE /v3/pet/5']);
    } finally {
      await client.close();
    }
  });

  it('an uncaught refusal is the program error, after the first call was sent and the second declined', async () => {
    const answers = user({ action: 'accept', content: { confirm: true } }, { action: 'cancel' });
    const client = await connect(answers.answer);
    try {
      const result = await execute(client, CREATE_THEN_DELETE);
      expect((result as CallResult).isError).toBe(true);
      expect(text(result)).toMatch(/^ApiError at line 3: Not sent: the user dismissed the confirmation of deletePet/);
      expect(sent()).toEqual(['POST /v3/pet', 'DELETE /v3/pet/99']);
    } finally {
      await client.close();
    }
  });
}

describe('stdio, 2026-07-28 client with elicitation', () => {
  asksAboutProgramCalls(modernStdio);
});

describe('stdio, 2025-11-25 client with elicitation', () => {
  asksAboutProgramCalls(legacyStdio);
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
    asksAboutProgramCalls(async (answer) => {
      const client = elicitingModernClient(answer);
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      return client;
    });
  });

  it('refuses a tampered state, asks again for another program, and sends once with the signed one', async () => {
    const program = 'await api.deletePet({ petId: 42 }); return "done";';
    const first = await rawToolCall(server.url, 'execute', { code: program });
    expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { confirm: {} } });
    const state = first.result.requestState as string;
    const yes = { confirm: { action: 'accept', content: { confirm: true } } };

    const [version, body, mac] = state.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString()) as { p: { settled: unknown[] } };
    // A forged state: the call to delete recorded as already answered, so that the re-run would not ask.
    payload.p.settled = [{ call: 'x', answer: { ok: true, json: '{}' } }];
    const forged = Buffer.from(JSON.stringify(payload)).toString('base64url');
    for (const tampered of [`${version}.${forged}.${mac}`, `${state.slice(0, -2)}AA`]) {
      const refused = await rawToolCall(
        server.url,
        'execute',
        { code: program },
        { inputResponses: yes, requestState: tampered },
      );
      expect(refused.error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
    }
    // A state signed for this program: another one (deleting another pet) is asked about afresh. (That retry
    // spends the state: a state is good for one retry, so this uses a second one.)
    const spare = (await rawToolCall(server.url, 'execute', { code: program })).result.requestState as string;
    const other = await rawToolCall(
      server.url,
      'execute',
      { code: 'await api.deletePet({ petId: 43 });' },
      {
        inputResponses: yes,
        requestState: spare,
      },
    );
    expect(other.result).toMatchObject({ resultType: 'input_required' });
    expect(upstream.requests).toEqual([]);

    const done = await rawToolCall(
      server.url,
      'execute',
      { code: program },
      { inputResponses: yes, requestState: state },
    );
    expect(done.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: '"done"' }] });
    expect(sent()).toEqual(['DELETE /v3/pet/42']);

    // The accepted state sent again runs nothing: the program stops at its first call, with the reason.
    const replayed = await rawToolCall(
      server.url,
      'execute',
      { code: program },
      { inputResponses: yes, requestState: state },
    );
    expect(replayed.result.isError).toBe(true);
    expect(JSON.stringify(replayed.result)).toContain('was already used');
    expect(sent()).toEqual(['DELETE /v3/pet/42']);
  });

  it('a 2026-07-28 client without elicitation gets the fallback: execute lists confirm', async () => {
    const client = await connectModernHttp(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'execute')!.inputSchema.properties).toMatchObject({
        code: { type: 'string' },
        confirm: { type: 'boolean' },
      });
      await expectsFallback(client);
    } finally {
      await client.close();
    }
  });

  it('a 2025-11-25 client over stateless HTTP gets the same fallback', async () => {
    const client = await connectLegacyHttp(server.url);
    try {
      await expectsFallback(client);
    } finally {
      await client.close();
    }
  });
});

async function expectsFallback(client: AnyClient): Promise<void> {
  const refused = await execute(client, 'await api.deletePet({ petId: 9 });');
  expect((refused as CallResult).isError).toBe(true);
  expect(text(refused)).toContain(
    `ApiError at line 1: Not sent: api.deletePet (DELETE /pet/{petId}) with {"petId":9} needs the user's confirmation, and this client cannot ask for it (it declares no elicitation). Ask the user whether to go ahead; only if they agree, run the same program again with execute's "confirm": true.`,
  );
  expect(upstream.requests).toEqual([]);
  const confirmed = await execute(client, 'await api.deletePet({ petId: 9 }); return 1;', { confirm: true });
  expect(text(confirmed)).toBe('1');
  expect(sent()).toEqual(['DELETE /v3/pet/9']);
}
