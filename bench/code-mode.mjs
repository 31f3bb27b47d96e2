// Code mode's per-call cost (issue 20): the same upstream GET made as a tool call over stdio, and as an
// `api.*` call inside an `execute` program, on one generated petstore server in code mode (direct tools
// stay callable by name), against a local upstream answering every request with the same Pet.
//   per api.* call = (median execute of a program making N sequential calls − median execute of `return 1`) / N
//   per tool call  = median tools/call round trip of the same operation
// The target: an api.* call costs at most 2 ms more than the same call made as a tool. Blocks of each kind
// take turns, so load on a shared machine falls on both.
// Per-program cost, on the same server:
//   program start     = p50 and p95 of the execute round trip of `return 1` (one program after another)
//   memory per program = (server RSS while PROGRAMS_HELD programs wait on the API − RSS before) / PROGRAMS_HELD,
//                        the median over HOLD_ROUNDS (the upstream holds a request for pet 0 for 1.5 s)
// Run after `npm run build`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { generateAndBuild, median, printTable, REPO, rssKiB, stopChild } from './mcp-harness.mjs';

const CALLS_PER_PROGRAM = 50;
const ROUNDS = 6;
const TOOL_CALLS_PER_ROUND = 50;
const PROGRAMS_PER_ROUND = 3;
const TARGET_MS = 2;
const STARTS = 100;
const PROGRAMS_HELD = 4;
const HOLD_ROUNDS = 5;

const work = mkdtempSync(join(tmpdir(), 'otm-bench-code-'));
const children = new Set();
try {
  await main();
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

async function main() {
  const entry = await generateAndBuild(join(REPO, 'fixtures', 'specs', 'petstore.yaml'), join(work, 'petstore'), {
    toolMode: 'code',
  });
  const upstream = await startUpstream();
  const client = new Client(
    { name: 'bench', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [entry],
    env: {
      PATH: process.env.PATH ?? '',
      API_BASE_URL: `${upstream.url}/api/v3`,
      API_KEY: 'bench-key',
      PETSTORE_AUTH_TOKEN: 'bench-token',
      LOG_LEVEL: 'error',
      MCP_CODE_MAX_CALLS: String(CALLS_PER_PROGRAM),
    },
    stderr: 'inherit',
  });
  await client.connect(transport);
  const loop = `for (let i = 0; i < ${CALLS_PER_PROGRAM}; i++) await api.getPetById({ petId: 10 });\nreturn 1;`;
  const tool = () => timedCall(client, 'getPetById', { petId: 10 });
  const program = (code) => timedCall(client, 'execute', { code });
  for (let i = 0; i < 100; i++) await tool();
  for (let i = 0; i < 5; i++) await program(loop);
  const tools = [];
  const loops = [];
  const empties = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < TOOL_CALLS_PER_ROUND; i++) tools.push(await tool());
    for (let i = 0; i < PROGRAMS_PER_ROUND; i++) loops.push(await program(loop));
    for (let i = 0; i < PROGRAMS_PER_ROUND; i++) empties.push(await program('return 1;'));
  }
  const starts = [];
  for (let i = 0; i < STARTS; i++) starts.push(await program('return 1;'));
  const perProgram = [];
  for (let round = 0; round < HOLD_ROUNDS; round++) perProgram.push(await memoryPerProgram(client, transport.pid));
  await client.close();
  await upstream.stop();
  const perTool = median(tools);
  const empty = median(empties);
  const perApi = (median(loops) - empty) / CALLS_PER_PROGRAM;
  const over = perApi - perTool;
  console.log('\ncode mode: per-call cost over stdio (petstore, GET /pet/{petId}), medians in ms');
  printTable(
    ['figure', 'ms', 'from'],
    [
      ['tools/call getPetById (round trip)', perTool.toFixed(2), `${tools.length} calls`],
      ['execute `return 1;` (round trip)', empty.toFixed(2), `${empties.length} programs`],
      [`execute with ${CALLS_PER_PROGRAM} api.getPetById calls`, median(loops).toFixed(2), `${loops.length} programs`],
      [
        'per api.* call inside execute',
        perApi.toFixed(2),
        `(${median(loops).toFixed(2)} − ${empty.toFixed(2)}) / ${CALLS_PER_PROGRAM}`,
      ],
      [
        'api.* call − tool call',
        over.toFixed(2),
        over <= TARGET_MS ? `ok (≤ ${TARGET_MS} ms)` : `over ${TARGET_MS} ms`,
      ],
    ],
  );
  console.log('\ncode mode: per-program cost');
  printTable(
    ['figure', 'value', 'from'],
    [
      ['program start p50 (execute `return 1;`)', `${percentile(starts, 0.5).toFixed(2)} ms`, `${STARTS} programs`],
      ['program start p95', `${percentile(starts, 0.95).toFixed(2)} ms`, `${STARTS} programs`],
      [
        'memory per program (RSS, programs in flight)',
        `${(median(perProgram) / 1024).toFixed(1)} MB`,
        `${PROGRAMS_HELD} at once, median of ${HOLD_ROUNDS}`,
      ],
    ],
  );
}

/** Server RSS while PROGRAMS_HELD programs wait on a held upstream call, less the RSS before, per program (KiB). */
async function memoryPerProgram(client, pid) {
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = rssKiB(pid);
  const code = 'const pet = await api.getPetById({ petId: 0 });\nreturn pet.id;';
  const held = Array.from({ length: PROGRAMS_HELD }, () => timedCall(client, 'execute', { code }));
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const during = rssKiB(pid);
  await Promise.all(held);
  return (during - before) / PROGRAMS_HELD;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function timedCall(client, name, args) {
  const started = performance.now();
  const result = await client.callTool({ name, arguments: args });
  const ms = performance.now() - started;
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content).slice(0, 500)}`);
  return ms;
}

function startUpstream() {
  const child = spawn(process.execPath, [join(REPO, 'bench', 'upstream.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  return new Promise((resolve, reject) => {
    child.stdout.once('data', (chunk) => {
      const { url } = JSON.parse(chunk.toString());
      resolve({ url, stop: () => stopChild(child) });
    });
    child.once('exit', (code) => reject(new Error(`upstream exited (${code})`)));
  });
}
