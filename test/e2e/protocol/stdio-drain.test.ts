/**
 * The stdio drain (templates/runtime/transport/stdio.ts), on the built server: `printf '<requests>\n' | node dist/index.js`
 * writes the answer of a call still waiting on a slow upstream when stdin ends, and so does a SIGTERM sent while
 * the call is in flight, for a 2026-07-28 client (stateless `_meta` envelope) and a 2025-11-25 one (initialize).
 * A call that outlasts the bound (the call timeout plus a margin) is cut, named on stderr, and the server exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProject, generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';

const UPSTREAM_DELAY_MS = 800;
/** A pet id the project's hook holds for longer than any bound (it ignores the call's signal on purpose). */
const STUCK_PET = 999;

let project: BuiltProject;
let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond((req) => ({
    status: 200,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: Number(req.url.split('/').pop()), name: 'Rex' }),
    delayMs: UPSTREAM_DELAY_MS,
  }));
  project = await generateAndBuild(join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'));
  writeFileSync(
    join(project.dir, 'src', 'hooks.ts'),
    `import type { BeforeRequest } from './runtime/extend/hooks.js';
export const beforeRequest: BeforeRequest = async ({ args }) => {
  if (args['petId'] === ${STUCK_PET}) await new Promise((resolve) => setTimeout(resolve, 10_000));
};
`,
  );
  buildProject(project.dir);
}, 120_000);

afterAll(async () => {
  await upstream?.close();
  project?.cleanup();
});

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

function callLine(id: number, petId: number, meta?: object): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'getPetById', arguments: { petId }, ...(meta ? { _meta: meta } : {}) },
  });
}

/** The request lines of each era, ending with tools/call id 2 for pet `petId`. */
const ERAS: Record<string, (petId: number) => string[]> = {
  '2026-07-28 (stateless _meta)': (petId) => [
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: MODERN_META } }),
    callLine(2, petId, MODERN_META),
  ],
  '2025-11-25 (initialize)': (petId) => [
    JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'drain-test', version: '1.0.0' } },
    }),
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    callLine(2, petId),
  ],
};

interface Outcome {
  code: number | null;
  answers: Map<unknown, { result?: { content: Array<{ text: string }>; isError?: boolean }; error?: unknown }>;
  stderr: string;
  ms: number;
}

function collect(child: ChildProcess, started: number): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const answers = new Map(
        stdout
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as { id?: unknown })
          .map((message) => [message.id, message] as const),
      );
      resolve({ code, answers: answers as Outcome['answers'], stderr, ms: performance.now() - started });
    });
  });
}

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'], API_BASE_URL: upstream.url, API_KEY: 'test-key', ...extra };
}

/** `printf '%s\n' <lines> | node dist/index.js`, as a shell runs it. */
function piped(lines: string[], extra?: Record<string, string>): Promise<Outcome> {
  const started = performance.now();
  const child = spawn('sh', ['-c', 'printf "%s\\n" "$@" | "$NODE" "$ENTRY"', 'sh', ...lines], {
    env: { ...env(extra), NODE: process.execPath, ENTRY: project.entry },
  });
  return collect(child, started);
}

async function untilUpstreamGot(count: number): Promise<void> {
  while (upstream.requests.length < count) await new Promise((resolve) => setTimeout(resolve, 10));
}

function expectPetAnswer(outcome: Outcome, petId: number): void {
  const answer = outcome.answers.get(2);
  expect(answer?.error).toBeUndefined();
  expect(answer?.result?.isError ?? false).toBe(false);
  expect(JSON.parse(answer!.result!.content[0]!.text)).toEqual({ id: petId, name: 'Rex' });
}

describe.each(Object.entries(ERAS))('stdio drain, %s', (_era, lines) => {
  it('writes the answer of a call in flight when stdin ends, then exits 0', async () => {
    const outcome = await piped(lines(7));
    expect(outcome.code).toBe(0);
    expectPetAnswer(outcome, 7);
    expect(outcome.ms).toBeGreaterThanOrEqual(UPSTREAM_DELAY_MS);
  }, 30_000);

  it('writes the answer of a call in flight when SIGTERM comes, then exits 0', async () => {
    const before = upstream.requests.length;
    const started = performance.now();
    const child = spawn(process.execPath, [project.entry], { env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    const outcome = collect(child, started);
    child.stdin!.write(`${lines(8).join('\n')}\n`); // stdin stays open
    await untilUpstreamGot(before + 1);
    child.kill('SIGTERM');
    const done = await outcome;
    expect(done.code).toBe(0);
    expectPetAnswer(done, 8);
  }, 30_000);
});

describe('stdio drain bound', () => {
  it('exits once the call timeout and its margin passed, naming the call it cut', async () => {
    const outcome = await piped(ERAS['2026-07-28 (stateless _meta)']!(STUCK_PET), { API_TIMEOUT_MS: '300' });
    expect(outcome.code).toBe(0);
    expect(outcome.answers.get(1)).toBeDefined(); // server/discover was answered
    expect(outcome.answers.has(2)).toBe(false);
    expect(outcome.stderr).toMatch(/exiting with requests unanswered.*tools\/call getPetById \(id 2\)/);
    // The bound is 300 ms + 1 s; the hook would hold the call for 10 s.
    expect(outcome.ms).toBeGreaterThanOrEqual(1_300);
    expect(outcome.ms).toBeLessThan(8_000);
  }, 30_000);
});
