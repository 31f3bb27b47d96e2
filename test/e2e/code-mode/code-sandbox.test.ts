/**
 * Code mode's sandbox under attack, end to end: a petstore generated with `--tool-mode code`, served over
 * stdio and over Streamable HTTP. A program may not take more memory than its cap, nor another program's; no
 * busy program outlives its limit by more than a second, nor delays another request (a tools/list measured
 * over and over while it runs) by more than 100 ms; a huge program is refused at once.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernHttp, connectModernStdio } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';

const SPEC = `${REPO_ROOT}/fixtures/specs/petstore.yaml`;
const MEMORY_MB = 64;
const TIMEOUT_MS = 6_000;
/** MAX_COMPUTE_MS (templates/runtime/contract/code-limits.ts). */
const COMPUTE_MS = 2_000;
/** How long the upstream holds a request for pet 0; one for pet 1000 outlasts any program. */
const HOLD_MS = 2_000;
const FOREVER_MS = 30_000;
const MiB = 1024 * 1024;

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

let upstream: MockUpstream;
let project: BuiltProject;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond((req) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: Number(req.url.split('/').pop()), name: 'pet', photoUrls: [] }),
    ...(req.url.endsWith('/pet/0') ? { delayMs: HOLD_MS } : {}),
    ...(req.url.endsWith('/pet/1000') ? { delayMs: FOREVER_MS } : {}),
  }));
  project = await generateAndBuild(SPEC, { toolMode: 'code' });
});
afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

const env = () => ({
  API_BASE_URL: `${upstream.url}/v3`,
  API_KEY: 'pk-test-1',
  MCP_CODE_MEMORY_MB: String(MEMORY_MB),
  MCP_CODE_TIMEOUT_MS: String(TIMEOUT_MS),
});

interface Served {
  client: Client;
  pid: number;
  close: () => Promise<void>;
}

async function serveStdio(): Promise<Served> {
  const client = await connectModernStdio(project.entry, env());
  const transport = client.transport as unknown as { pid: number | null };
  return { client, pid: transport.pid!, close: () => client.close() };
}

async function serveHttp(): Promise<Served> {
  const server: HttpServerProcess = await startHttpServer(project.entry, env());
  const client = await connectModernHttp(server.url);
  return {
    client,
    pid: server.child.pid!,
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
}

function execute(client: Client, code: string): Promise<CallResult> {
  return client.callTool({ name: 'execute', arguments: { code } }, { timeout: 30_000 }) as Promise<CallResult>;
}

const textOf = (result: CallResult) => result.content.map((c) => c.text ?? '').join('');

function rssBytes(pid: number): number {
  const match = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) * 1024;
}

/** Round trips of tools/list, one after another, until `work` settles: the longest, and how many. */
async function listWhile(client: Client, work: Promise<unknown>): Promise<{ longestMs: number; count: number }> {
  let settled = false;
  void work.finally(() => (settled = true)).catch(() => undefined);
  let longestMs = 0;
  let count = 0;
  while (!settled) {
    const started = performance.now();
    // Each listing goes to the server: the client would otherwise answer from its cache of the last one.
    const listed = await client.listTools(undefined, { cacheMode: 'bypass' });
    longestMs = Math.max(longestMs, performance.now() - started);
    count += 1;
    expect(listed.tools.map((t) => t.name)).toEqual(['search', 'execute']);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { longestMs, count };
}

/** The server's RSS, sampled every 20 ms until `work` settles: the highest. */
async function peakRssWhile(pid: number, work: Promise<unknown>): Promise<number> {
  let settled = false;
  void work.finally(() => (settled = true)).catch(() => undefined);
  let peak = rssBytes(pid);
  while (!settled) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    peak = Math.max(peak, rssBytes(pid));
  }
  return peak;
}

const BUSY: Array<{ kind: string; code: string; limitMs: number; says: RegExp }> = [
  { kind: 'a plain loop', code: 'while (true) {}', limitMs: COMPUTE_MS, says: /computed for more than 2000 ms/ },
  {
    kind: 'a loop of API calls answered without I/O',
    code: 'for (;;) { try { await api.noSuchOperation({}); } catch {} try { await api.deletePet({ petId: 1 }); } catch {} }',
    limitMs: COMPUTE_MS,
    says: /computed for more than 2000 ms/,
  },
  {
    kind: 'a loop over a slow built-in',
    code: "const s = 'x'.repeat(20_000_000);\nfor (;;) s.indexOf('y');",
    limitMs: COMPUTE_MS,
    says: /computed for more than 2000 ms/,
  },
  {
    kind: 'a promise that never settles, beside a call upstream that does not end in time',
    code: 'await Promise.all([api.getPetById({ petId: 1000 }), new Promise(() => {})]);',
    limitMs: TIMEOUT_MS,
    says: /time limit of 6000 ms/,
  },
];

describe.each([
  ['stdio', serveStdio],
  ['Streamable HTTP', serveHttp],
] as const)('code mode isolation over %s', (transport, serve) => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
    // The first program starts the sandbox's worker, the first listing readies the client's own checks of it:
    // the measurements are of what follows.
    expect(textOf(await execute(served.client, 'return 1;'))).toBe('1');
    await served.client.listTools(undefined, { cacheMode: 'bypass' });
  });
  afterAll(async () => {
    await served?.close();
  });

  it.each(BUSY)(
    '$kind is stopped within its limit + 1 s, and tools/list is answered within 100 ms throughout',
    async ({ code, limitMs, says }) => {
      const started = performance.now();
      const program = execute(served.client, code);
      const listing = await listWhile(served.client, program);
      const result = await program;
      const tookMs = performance.now() - started;
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(says);
      expect(tookMs).toBeLessThan(limitMs + 1_000);
      expect(listing.count).toBeGreaterThan(5);
      expect(listing.longestMs).toBeLessThan(100);
    },
  );

  it('a memory bomb fails inside the program, and RSS stays under baseline + 2 × cap + 50 MB', async () => {
    const baseline = rssBytes(served.pid);
    for (const bomb of [
      'const a = [];\nfor (let i = 0; i < 1900; i++) a.push(new Uint8Array(1 << 20));\nreturn a.length;',
      "let s = 'x';\nfor (;;) s = s + s;",
      'const a = [];\nfor (let i = 0; i < 40; i++) a.push(new ArrayBuffer(50 * 1024 * 1024));\nreturn a.length;',
    ]) {
      const program = execute(served.client, bomb);
      const peak = await peakRssWhile(served.pid, program);
      const text = textOf(await program);
      expect(text).toMatch(/ran out of memory|out of memory|string too long/);
      expect(peak).toBeLessThan(baseline + 2 * MEMORY_MB * MiB + 50 * MiB);
    }
    expect(textOf(await execute(served.client, 'return (await api.getPetById({ petId: 5 })).id;'))).toBe('5');
  });

  it('two programs at once, one a memory bomb: the other gets its 50 MiB', async () => {
    const bomb = execute(
      served.client,
      'const a = [];\nfor (let i = 0; i < 1900; i++) a.push(new Uint8Array(1 << 20));\nawait api.getPetById({ petId: 0 });\nreturn a.length;',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    const other = await execute(
      served.client,
      'const b = new Uint8Array(50 * 1024 * 1024);\nb[b.length - 1] = 7;\nreturn b.length + b[b.length - 1];',
    );
    expect(other.isError).toBeFalsy();
    expect(textOf(other)).toBe(String(50 * MiB + 7));
    expect(textOf(await bomb)).toContain('ran out of memory');
  });

  // Attack: a 300-byte program makes 50 API calls of 1 MiB of arguments each, written dense with escapes (`%41`),
  // which the main thread reads for the server's secrets (the argument shield, then the request's URL) before it
  // sends anything: one execute held every other request of the server for 16.7 s over stdio (over HTTP the
  // client's connection was reset). A program now sends at most 4 MiB of arguments in all, what one message to the
  // server may carry (MAX_PROGRAM_ARGUMENT_CHARS), and costs the main thread what such a message does: 1.3–1.4 s
  // on this machine. The rest of its calls are refused inside it (or it is stopped at its compute limit, when
  // the main thread was too busy reading the first ones to answer them in time).
  it('fifty API calls of 1 MiB of arguments each: past 4 MiB in all they are refused, and tools/list is not held up', async () => {
    const code = [
      "const name = '%41'.repeat(349_000);",
      'const calls = [];',
      'for (let i = 0; i < 50; i++) calls.push(api.loginUser({ username: name, password: String(i) }).then(() => "sent", (e) => e.message));',
      'return await Promise.all(calls);',
    ].join('\n');
    const program = execute(served.client, code);
    const listing = await listWhile(served.client, program);
    const text = textOf(await program);
    expect(text).toMatch(/4194304 characters of arguments in all|computed for more than 2000 ms/);
    expect(listing.longestMs).toBeLessThan(3_000);
  });

  // Before execute refuses the program, the request itself costs the main thread: over HTTP 0.15–0.25 s on a loaded
  // machine (reading and decoding the body, parsing and validating the message), over stdio the line reader's
  // one copy of the 3 MB line and the SDK's parse. So tools/list is held to a second here, not to 100 ms: none of
  // that is the sandbox's. (The SDK's own stdio read buffer, joining each chunk onto the ones before, took the main
  // thread 0.6–1.6 s on such a message; the line reader in front of it, stdio-lines.ts, hands it one whole line.)
  it('a 3 MB TypeScript program is refused within a second, and tools/list is not held up', async () => {
    const huge = 'const n: number = 1;\n'.repeat(Math.ceil((3 * MiB) / 21));
    const started = performance.now();
    const program = execute(served.client, `${huge}return n;`);
    const listing = await listWhile(served.client, program);
    const result = await program;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('MCP_CODE_MAX_PROGRAM_BYTES');
    expect(listing.longestMs).toBeLessThan(1_000);
  });
});
