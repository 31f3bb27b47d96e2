// Load test: modern (2026-07-28) tools/call over stateless Streamable HTTP, 100 connections for
// BENCH_SECONDS (default 30) per server, in BENCH_ROUNDS (default 5) interleaved turns, against
//   (a) a server generated from fixtures/specs/petstore.yaml calling getPetById on a fast local upstream,
//   (b) the generated GitHub server (1,223 tools) calling meta_root on the same upstream,
//   (c) a one-tool SDK v2 McpServer whose tool sends the same upstream GET (bench/one-tool-fetch-server.mjs):
//       the floor for a server that wraps an API, and the one issue 7's throughput ratio is measured against,
//   (d) the same one-tool server sending that GET with node:http, as generated servers do: with fetch's own
//       cost out of the comparison, what is left is the SDK's share of the work,
//   (e) a one-tool SDK v2 McpServer (bench/one-tool-server.mjs) doing a trivial echo, for reference.
// All servers run side by side and take turns (petstore, GitHub, the floors, echo, then again), so a slow moment
// on a shared machine falls on every server alike instead of on whichever ran then.
// Run after `npm run build` (`npm run bench` does both). Everything listens on 127.0.0.1; every process
// started here is stopped before exit, and a watchdog ends the run if anything hangs.
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  generateAndBuild,
  parseJsonOrSse,
  positiveInt,
  REPO,
  rssKiB,
  stopChild,
  toolCallRequest,
} from './mcp-harness.mjs';

const SECONDS = positiveInt(process.env.BENCH_SECONDS, 30);
const ROUNDS = Math.min(positiveInt(process.env.BENCH_ROUNDS, 5), SECONDS);
const CONNECTIONS = 100;
const WARMUP_SECONDS = 2;
/** Generous: generate + tsc (GitHub too) + five warm-ups + five servers' turns + start-ups, then it is a hang. */
const WATCHDOG_MS = (5 * (SECONDS + WARMUP_SECONDS + ROUNDS) + 300) * 1000;

/** USER_HZ: the unit of /proc/<pid>/stat CPU times; 100 on every mainstream Linux. */
const CLOCK_TICKS_PER_SECOND = clockTicksPerSecond();

const children = new Set();
let workDir;

const watchdog = setTimeout(() => {
  console.error(`bench: still running after ${WATCHDOG_MS / 1000} s; stopping`);
  void cleanup().then(() => process.exit(2));
}, WATCHDOG_MS);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void cleanup().then(() => process.exit(130)));

try {
  await main();
  await cleanup();
} catch (error) {
  console.error(`bench failed: ${error instanceof Error ? error.stack : String(error)}`);
  await cleanup();
  process.exitCode = 1;
}
clearTimeout(watchdog);

async function main() {
  workDir = mkdtempSync(join(tmpdir(), 'otm-bench-'));
  log(`generating and building the petstore server in ${workDir}`);
  const entry = await generateAndBuildPetstore(join(workDir, 'petstore-mcp'));

  const upstream = await startUpstream();
  const contenders = [];

  const generated = await startMcpServer('generated', process.execPath, [entry, '--http', '--port', '0'], {
    API_BASE_URL: upstream.url,
    API_KEY: 'bench-key', // getPetById requires api_key or petstore_auth credentials
  });
  contenders.push({
    label: 'generated petstore: getPetById',
    server: generated,
    tool: 'getPetById',
    args: { petId: 10 },
    expected: /doggie/,
  });

  // Issue 7: per-request cost must not grow with the API. The GitHub server registers 1,223 tools.
  const githubSpec = join(REPO, '..', 'shared', 'specs', 'github', 'api.github.com.json');
  if (existsSync(githubSpec)) {
    log('generating and building the GitHub server (1,223 tools)');
    const githubEntry = await generateAndBuild(githubSpec, join(workDir, 'github-mcp'));
    const github = await startMcpServer('github', process.execPath, [githubEntry, '--http', '--port', '0'], {
      API_BASE_URL: upstream.url,
    });
    contenders.push({
      label: 'generated GitHub (1,223 tools): meta_root',
      server: github,
      tool: 'meta_root',
      args: {},
      expected: /doggie/,
    });
  }

  // The floor for a server that wraps an API: the same upstream request from a one-tool SDK server.
  const oneToolFetch = await startMcpServer(
    'one-tool-fetch',
    process.execPath,
    [join(REPO, 'bench', 'one-tool-fetch-server.mjs')],
    { API_BASE_URL: upstream.url },
  );
  contenders.push({
    label: 'one-tool SDK McpServer: same upstream GET',
    server: oneToolFetch,
    tool: 'meta_root',
    args: {},
    expected: /doggie/,
  });
  const oneToolNodeHttp = await startMcpServer(
    'one-tool-node-http',
    process.execPath,
    [join(REPO, 'bench', 'one-tool-fetch-server.mjs')],
    { API_BASE_URL: upstream.url, UPSTREAM_CLIENT: 'node:http' },
  );
  contenders.push({
    label: 'one-tool SDK McpServer: same upstream GET via node:http',
    server: oneToolNodeHttp,
    tool: 'meta_root',
    args: {},
    expected: /doggie/,
  });

  const oneTool = await startMcpServer('one-tool', process.execPath, [join(REPO, 'bench', 'one-tool-server.mjs')], {});
  contenders.push({
    label: 'one-tool SDK McpServer: echo',
    server: oneTool,
    tool: 'echo',
    args: { text: 'hi' },
    expected: /"hi"/,
  });

  const rows = await measureInTurns(contenders);
  for (const { server } of contenders) await stopChild(server.child);
  printTable(rows);
}

// ---------------------------------------------------------------------------------------------------
// Setup
// ---------------------------------------------------------------------------------------------------

async function generateAndBuildPetstore(dir) {
  return generateAndBuild(join(REPO, 'fixtures', 'specs', 'petstore.yaml'), dir);
}

async function startUpstream() {
  const child = track(
    spawn(process.execPath, [join(REPO, 'bench', 'upstream.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  const line = await firstLine(child.stdout, 10_000, 'upstream');
  return { child, url: JSON.parse(line).url };
}

/**
 * Starts a server whose stderr goes to a file (the generated server logs a line per request; a pipe would
 * make this process read ~1000 lines/s while it is also generating load), and waits for its URL there.
 */
async function startMcpServer(name, command, args, env) {
  const logFile = join(workDir, `${name}.stderr.log`);
  const fd = openSync(logFile, 'w');
  const child = track(
    spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', fd] }),
  );
  closeSync(fd);
  const url = await pollFor(
    () => /"url":"(http:\/\/[^"]+)"/.exec(readFileSync(logFile, 'utf8'))?.[1],
    15_000,
    () => `${name} did not start: ${readFileSync(logFile, 'utf8')}`,
    child,
  );
  return { name, child, url, logFile };
}

// ---------------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------------

/** One request by hand first: it must be a 200 carrying a successful result, or the numbers mean nothing. */
async function verifyOne(server, request, expected) {
  const res = await fetch(server.url, request);
  const text = await res.text();
  const payload = parseJsonOrSse(text);
  const result = payload?.result;
  if (res.status !== 200 || !result || result.isError || !expected.test(JSON.stringify(result.content))) {
    throw new Error(`${server.name}: the check request did not succeed (HTTP ${res.status}): ${text.slice(0, 500)}`);
  }
  log(
    `${server.name}: check request OK (HTTP 200, ${res.headers.get('content-type')}): ${JSON.stringify(result.content).slice(0, 120)}`,
  );
}

/**
 * Every contender is checked and warmed up, then they take ROUNDS turns each of SECONDS / ROUNDS seconds,
 * in the same order every round. A row pools its turns: req/s = all requests / all seconds, CPU per request
 * = all CPU / all requests; latency percentiles are the medians of the turns'.
 */
async function measureInTurns(contenders) {
  const turnSeconds = SECONDS / ROUNDS;
  const states = [];
  for (const c of contenders) {
    const request = toolCallRequest(c.tool, c.args);
    await verifyOne(c.server, request, c.expected);
    const rssBefore = rssKiB(c.server.child.pid);
    log(`${c.server.name}: warm-up ${WARMUP_SECONDS} s`);
    await load(c.server.url, request, WARMUP_SECONDS, 10);
    states.push({ ...c, request, rssBefore, turns: [] });
  }
  for (let round = 1; round <= ROUNDS; round++) {
    log(`round ${round}/${ROUNDS}: ${CONNECTIONS} connections, ${turnSeconds} s per server`);
    for (const state of states) {
      const cpuBefore = cpuMs(state.server.child.pid);
      const result = await load(state.server.url, state.request, turnSeconds, CONNECTIONS);
      const cpuAfter = cpuMs(state.server.child.pid);
      state.turns.push({
        result,
        cpu: cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore,
      });
    }
  }
  return states.map((state) => rowOf(state, turnSeconds));
}

function rowOf(state, turnSeconds) {
  const sum = (pick) => state.turns.reduce((total, turn) => total + pick(turn), 0);
  const total = sum((t) => t.result.requests.total);
  const cpu = state.turns.some((t) => t.cpu === undefined) ? undefined : sum((t) => t.cpu);
  return {
    label: state.label,
    requestsPerSecond: total / (turnSeconds * state.turns.length),
    turnRequestsPerSecond: state.turns.map((t) => t.result.requests.total / turnSeconds),
    p50: median(state.turns.map((t) => t.result.latency.p50)),
    p99: median(state.turns.map((t) => t.result.latency.p99)),
    total,
    non2xx: sum((t) => t.result.non2xx),
    errors: sum((t) => t.result.errors + t.result.timeouts),
    cpuMsPerRequest: cpu === undefined || total === 0 ? undefined : cpu / total,
    rssBefore: state.rssBefore,
    rssAfter: rssKiB(state.server.child.pid),
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function load(url, request, duration, connections) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration, ...request }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/**
 * CPU time the process has used (user + system), from /proc/<pid>/stat. Per request it is a steadier
 * measure than req/s when other work shares the machine: waiting for a core costs wall time, not CPU.
 */
function cpuMs(pid) {
  try {
    // Fields after the parenthesised command name; utime and stime are the 14th and 15th fields overall.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------------

function printTable(rows) {
  const floors = rows.filter((r) => r.label.startsWith('one-tool'));
  const generatedRows = rows.filter((r) => !floors.includes(r));
  const mib = (kib) => (kib === undefined ? 'n/a' : `${(kib / 1024).toFixed(1)} MiB`);
  const ratioRow = (generated, floor) => [
    `ratio ${generated.label.split(':')[0]} / ${floor.label.replace('McpServer: ', '')}`,
    ratio(generated.requestsPerSecond, floor.requestsPerSecond),
    ratio(generated.p50, floor.p50),
    ratio(generated.p99, floor.p99),
    '',
    '',
    '',
    ratio(generated.cpuMsPerRequest, floor.cpuMsPerRequest),
    ratio(generated.rssBefore, floor.rssBefore),
    ratio(generated.rssAfter, floor.rssAfter),
  ];
  const table = [
    ['server', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'non-2xx', 'errors', 'CPU ms/req', 'RSS before', 'RSS after'],
    ...rows.map((r) => [
      r.label,
      r.requestsPerSecond.toFixed(0),
      String(r.p50),
      String(r.p99),
      String(r.total),
      String(r.non2xx),
      String(r.errors),
      r.cpuMsPerRequest === undefined ? 'n/a' : r.cpuMsPerRequest.toFixed(2),
      mib(r.rssBefore),
      mib(r.rssAfter),
    ]),
    ...generatedRows.flatMap((g) => floors.map((f) => ratioRow(g, f))),
  ];
  const widths = table[0].map((_, column) => Math.max(...table.map((row) => row[column].length)));
  const format = (row) =>
    row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(
    `\nmodern tools/call, ${CONNECTIONS} connections, ${SECONDS} s per server in ${ROUNDS} interleaved turns (node ${process.version}, 127.0.0.1)\n`,
  );
  console.log("req/s = all requests / all seconds of a server's turns; p50/p99 = medians of its turns'");
  console.log(
    'non-2xx = HTTP answers outside 200-299; errors = socket errors + timeouts; CPU ms/req = server user+system CPU during the run / requests',
  );
  console.log(format(table[0]));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of table.slice(1)) console.log(format(row));
  const github = generatedRows.find((r) => r.label.includes('GitHub'));
  const fetchFloor = floors.find((r) => r.label.endsWith('same upstream GET'));
  const nodeHttpFloor = floors.find((r) => r.label.endsWith('via node:http'));
  if (github && fetchFloor) {
    const r = github.requestsPerSecond / fetchFloor.requestsPerSecond;
    const perTurn = github.turnRequestsPerSecond.map((rps, i) =>
      (rps / fetchFloor.turnRequestsPerSecond[i]).toFixed(2),
    );
    console.log(
      `issue 7: HTTP throughput, 1,223 tools vs one-tool SDK server doing the same upstream GET: ${github.requestsPerSecond.toFixed(0)} / ${fetchFloor.requestsPerSecond.toFixed(0)} req/s = ${r.toFixed(2)}x (target >= 0.9x: ${r >= 0.9 ? 'ok' : 'not met'}); turn by turn: ${perTurn.join(', ')}`,
    );
  }
  if (github && nodeHttpFloor) {
    console.log(
      `  and vs the one-tool server sending it with node:http too: ${github.requestsPerSecond.toFixed(0)} / ${nodeHttpFloor.requestsPerSecond.toFixed(0)} req/s = ${(github.requestsPerSecond / nodeHttpFloor.requestsPerSecond).toFixed(2)}x`,
    );
  }
  console.log('');
}

function ratio(a, b) {
  return typeof a === 'number' && typeof b === 'number' && b > 0 ? `${(a / b).toFixed(2)}x` : 'n/a';
}

// ---------------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------------

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

async function cleanup() {
  await Promise.all([...children].map(stopChild));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

function firstLine(stream, timeoutMs, name) {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error(`${name} did not start`)), timeoutMs);
    stream.on('data', (chunk) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf('\n');
      if (newline !== -1) {
        clearTimeout(timer);
        resolve(buffered.slice(0, newline));
      }
    });
  });
}

async function pollFor(read, timeoutMs, describeFailure, child) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(describeFailure());
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function clockTicksPerSecond() {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function log(message) {
  console.error(`bench: ${message}`);
}
