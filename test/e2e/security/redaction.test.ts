/**
 * Redaction that no cut defeats, end to end: the petstore server generated in the default tool mode and in
 * `--tool-mode code`, over stdio, against an upstream on 127.0.0.1 that echoes the request's query and headers
 * back (real APIs do, in error bodies and debug endpoints). The attacks of issue 28: pad a query value so that a
 * cut (the response cap, the error excerpt, a program's result cap, a console line) falls at every offset across
 * the echoed credential, and guess a credential through whole-secret redaction. No piece of 4 or more characters
 * of a credential may come back, and a right guess may not be told from a wrong one.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { modernClient } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/petstore.yaml`;
const TOKEN = 'oat-Zq8LmW3xT7rYc2Vb9Nk4Hs6Pd1';
const API_KEY = 'pk-live-4f9a2c1e8b7d';
const CREDENTIALS = [TOKEN, API_KEY];
type CallResult = { content: Array<{ type: string; text?: string }>; structuredContent?: unknown; isError?: boolean };

/** The echo: `tags=<value>` then the credential headers. A value starting with `!` gets a 400 answer. */
const ECHO_HEAD = 'tags=';
const echoBody = (tags: string, authorization: unknown, apiKey: unknown) =>
  `${ECHO_HEAD}${tags}\nauthorization: ${String(authorization)}\napi_key: ${String(apiKey)}\nend of echo`;
/** Where the token starts in the echo of a value of `length` characters. */
const tokenStart = (length: number) =>
  echoBody('~'.repeat(length), 'Bearer ', '').indexOf('Bearer ') + 'Bearer '.length;

let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond((req) => {
    const query = new URL(req.url, 'http://x').searchParams;
    const tags = query.getAll('tags').join(',');
    return {
      status: tags.startsWith('!') ? 400 : 200,
      headers: { 'content-type': 'text/plain' },
      body: echoBody(tags, req.headers['authorization'], req.headers['api_key']),
    };
  });
});
afterAll(async () => {
  await upstream?.close();
});
beforeEach(() => {
  upstream.requests.length = 0;
});

/** A server over stdio whose stderr (its log) is kept. */
async function connect(project: BuiltProject, extra: Record<string, string>) {
  const client: Client = modernClient();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [project.entry],
    env: {
      PATH: process.env['PATH'] ?? '',
      API_BASE_URL: `${upstream.url}/v3`,
      API_KEY,
      PETSTORE_AUTH_TOKEN: TOKEN,
      LOG_LEVEL: 'debug',
      ...extra,
    },
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  await client.connect(transport);
  return { client, log: () => log };
}

const visible = (result: CallResult) => JSON.stringify({ c: result.content, s: result.structuredContent ?? null });

/** Every 4-character piece of a credential that the text shows. */
function leaks(text: string): string[] {
  const pieces: string[] = [];
  for (const credential of CREDENTIALS)
    for (let i = 0; i + 4 <= credential.length; i++)
      if (text.includes(credential.slice(i, i + 4))) pieces.push(credential.slice(i, i + 4));
  return pieces;
}

/** Padding of a character no credential contains. */
const pad = (n: number) => '~'.repeat(Math.max(1, n));

/** Offsets of a cut across the token: from just before it to just after it. */
const ACROSS_TOKEN = Array.from({ length: TOKEN.length + 4 }, (_, i) => i - 2);

describe('redaction that no cut defeats: direct tool calls', () => {
  let project: BuiltProject;
  let server: Awaited<ReturnType<typeof connect>>;
  const CAP = 400;
  beforeAll(async () => {
    project = await generateAndBuild(SPEC);
    server = await connect(project, { API_MAX_RESPONSE_BYTES: String(CAP) });
  });
  afterAll(async () => {
    await server?.client.close();
    project?.cleanup();
  });
  const findByTags = async (tag: string) =>
    (await server.client.callTool({ name: 'findPetsByTags', arguments: { tags: [tag] } })) as CallResult;

  it('a success body cut by API_MAX_RESPONSE_BYTES at every offset across the token shows no piece of it', async () => {
    const found: string[] = [];
    for (const at of ACROSS_TOKEN) {
      const result = await findByTags(pad(CAP - tokenStart(0) - at));
      const pieces = leaks(visible(result));
      if (pieces.length > 0) found.push(`${at}: ${pieces.join(' ')}`);
    }
    expect(upstream.requests.length).toBe(ACROSS_TOKEN.length);
    expect(found).toEqual([]);
  });

  it('an error excerpt cut at every offset across the token shows no piece of it', async () => {
    const found: string[] = [];
    for (const at of ACROSS_TOKEN) {
      // The excerpt is the first 2,000 characters of at most API_MAX_RESPONSE_BYTES: here the cap cuts first.
      const result = await findByTags(`!${pad(CAP - tokenStart(0) - at - 1)}`);
      expect(result.isError).toBe(true);
      const pieces = leaks(visible(result));
      if (pieces.length > 0) found.push(`${at}: ${pieces.join(' ')}`);
    }
    expect(found).toEqual([]);
  });

  it('a right guess of the token and a wrong one give the same result but for the guess; the token is never sent as one', async () => {
    const wrong = `${TOKEN.slice(0, -1)}Q`;
    const right = visible(await findByTags(TOKEN));
    const other = visible(await findByTags(wrong));
    expect(right.split(TOKEN).join('<guess>')).toBe(other.split(wrong).join('<guess>'));
    expect(upstream.requests[0]!.url).not.toContain(TOKEN);
    expect(upstream.requests[1]!.url).toContain(wrong);
  });

  it('the log never shows a piece of a credential', () => {
    expect(leaks(server.log())).toEqual([]);
  });
});

describe('redaction that no cut defeats: code mode', () => {
  let project: BuiltProject;
  let server: Awaited<ReturnType<typeof connect>>;
  const CAP = 400;
  const RESULT_CAP = 3_000;
  beforeAll(async () => {
    project = await generateAndBuild(SPEC, { toolMode: 'code' });
    server = await connect(project, {
      API_MAX_RESPONSE_BYTES: String(CAP),
      MCP_CODE_MAX_RESULT_BYTES: String(RESULT_CAP),
    });
  });
  afterAll(async () => {
    await server?.client.close();
    project?.cleanup();
  });
  const execute = async (code: string) =>
    (await server.client.callTool({ name: 'execute', arguments: { code } })) as CallResult;

  it("the issue's attack: a program cutting inside the echoed token at every offset reads no piece of it", async () => {
    const lengths = ACROSS_TOKEN.map((at) => CAP - tokenStart(0) - at);
    const result = await execute(`
      const seen = [];
      for (const n of ${JSON.stringify(lengths)}) {
        const r = await api.findPetsByTags({ tags: ['~'.repeat(n)] });
        // A cut result also carries a link to the whole body: the text is the first item then.
        const text = typeof r === 'string' ? r : JSON.stringify(r);
        seen.push(text.slice(text.indexOf('authorization'), text.indexOf('authorization') + 80));
      }
      return seen;`);
    expect(result.isError).toBeFalsy();
    expect(upstream.requests.length).toBe(lengths.length);
    expect(leaks(visible(result))).toEqual([]);
  });

  it('error bodies entering the program are redacted and cut the same way', async () => {
    const lengths = ACROSS_TOKEN.map((at) => CAP - tokenStart(0) - at - 1);
    const result = await execute(`
      const seen = [];
      for (const n of ${JSON.stringify(lengths)}) {
        try { await api.findPetsByTags({ tags: ['!' + '~'.repeat(n)] }); }
        catch (e) { seen.push(String(e.status) + ' ' + String(e.body).slice(String(e.body).indexOf('authorization'))); }
      }
      return seen;`);
    expect(result.isError).toBeFalsy();
    expect(visible(result)).toContain('400');
    expect(leaks(visible(result))).toEqual([]);
  });

  it('a program cannot tell a right guess of the next character from a wrong one', async () => {
    // The second step: guesses (32 here, under the call cap) in one call each, told apart by which one came back `[redacted]`.
    const result = await execute(`
      const known = ${JSON.stringify(TOKEN.slice(0, -1))};
      const alphabet = 'ABCDEFGHIJabcdefghij0123456789-_';
      const answers = {};
      for (const c of alphabet) {
        const r = await api.findPetsByTags({ tags: [known + c] });
        answers[c] = String(r).split(known + c).join('<guess>');
      }
      return answers;`);
    expect(result.isError).toBeFalsy();
    const answers = JSON.parse(result.content[0]!.text!) as Record<string, string>;
    expect(new Set(Object.values(answers)).size).toBe(1);
    expect(upstream.requests.some((r) => r.url.includes(encodeURIComponent(TOKEN)))).toBe(false);
  });

  it("the program's own cut and its console lines leave no piece of a credential it did not write", async () => {
    const found: string[] = [];
    for (const at of [2, 9, 17]) {
      // The program returns and logs the echo after padding of its own, so that its result cap falls inside
      // what the echo had where the token was.
      const result = await execute(`
        const r = String(await api.findPetsByTags({ tags: ['~~~~'] }));
        const i = r.indexOf('Bearer ') + 7;
        console.log('~'.repeat(${2_000} - i - ${at}) + r);
        return '~'.repeat(${RESULT_CAP} - i - ${at}) + r;`);
      const pieces = leaks(visible(result));
      if (pieces.length > 0) found.push(`${at}: ${pieces.join(' ')}`);
    }
    expect(found).toEqual([]);
  });

  it('the log never shows a piece of a credential', () => {
    expect(leaks(server.log())).toEqual([]);
  });
});
