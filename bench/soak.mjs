// Soak test of the generated Streamable HTTP server: SOAK_CLIENTS (default 100) concurrent clients send
// tools/call for SOAK_SECONDS (default 600) to a server generated from fixtures/specs/petstore.yaml, against a
// scripted upstream on 127.0.0.1 whose answers are mixed in by pet id: successes, 404 and 500 answers, 429s
// (retried, then a tool error), answers slower than API_TIMEOUT_MS (timeouts), a reset connection, responses
// over API_MAX_RESPONSE_BYTES (truncated), and large request bodies (1 MiB, under the 4 MiB request limit);
// the upstream is bench/soak-upstream.mjs.
// Every answer must be what that call should give: a result, or a tool error naming its cause. Anything else
// (an HTTP error from the MCP server, a JSON-RPC error, a dropped connection, a wrong result) is unexpected.
// The server's resident memory is sampled every 5 s; after the warm-up (the first SOAK_WARMUP_SECONDS,
// default 60) it must stay flat: the mean of the last quarter of the samples no more than SOAK_MAX_GROWTH_MIB
// (default 32) above the first quarter's, and a least-squares slope under 1 MiB per minute.
// Run after `npm run build`: `node bench/soak.mjs` (10 minutes), `SOAK_SECONDS=20 node bench/soak.mjs`.
// Exit 0 when both hold, 1 otherwise; every process started here is stopped before exit.
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  generateAndBuild,
  parseJsonOrSse,
  positiveInt,
  REPO,
  rssKiB,
  stopChild,
  toolCallRequest,
} from './mcp-harness.mjs';

const SECONDS = positiveInt(process.env.SOAK_SECONDS, 600);
const CLIENTS = positiveInt(process.env.SOAK_CLIENTS, 100);
const WARMUP_SECONDS = Math.min(positiveInt(process.env.SOAK_WARMUP_SECONDS, 60), Math.floor(SECONDS / 2));
const MAX_GROWTH_MIB = positiveInt(process.env.SOAK_MAX_GROWTH_MIB, 32);
const MAX_SLOPE_MIB_PER_MIN = 1;
const SAMPLE_MS = 5000;
/** Long enough that no ordinary call reaches it on two busy cores; bench/soak-upstream.mjs holds pet 5 thrice as long. */
const TIMEOUT_MS = 5000;
const MAX_RESPONSE_BYTES = 256 * 1024;
const LARGE_NAME = 'n'.repeat(1024 * 1024);

/** The mix, by weight: what each call sends and what its answer must be. */
const CALLS = [
  {
    kind: 'ok',
    weight: 40,
    tool: 'getPetById',
    args: { petId: 1 },
    expect: (r) => !r.isError && /doggie/.test(textOf(r)),
  },
  {
    kind: 'not found (404)',
    weight: 10,
    tool: 'getPetById',
    args: { petId: 2 },
    expect: (r) => r.isError && /404/.test(textOf(r)),
  },
  {
    kind: 'upstream error (500)',
    weight: 10,
    tool: 'getPetById',
    args: { petId: 3 },
    expect: (r) => r.isError && /500/.test(textOf(r)),
  },
  {
    kind: 'rate limited (429)',
    weight: 5,
    tool: 'getPetById',
    args: { petId: 4 },
    expect: (r) => r.isError && /429/.test(textOf(r)),
  },
  {
    kind: 'timeout',
    weight: 10,
    tool: 'getPetById',
    args: { petId: 5 },
    expect: (r) => r.isError && /time/i.test(textOf(r)),
  },
  { kind: 'connection reset', weight: 5, tool: 'getPetById', args: { petId: 7 }, expect: (r) => r.isError },
  {
    kind: 'large response (2 MiB, truncated)',
    weight: 5,
    tool: 'getPetById',
    args: { petId: 6 },
    expect: (r) => !r.isError && textOf(r).length <= MAX_RESPONSE_BYTES + 1024 && /truncat|cut/i.test(textOf(r)),
  },
  {
    kind: 'large body (1 MiB)',
    weight: 5,
    tool: 'addPet',
    args: { body: { name: LARGE_NAME, photoUrls: ['u'] } },
    expect: (r) => !r.isError && /doggie/.test(textOf(r)),
  },
  {
    kind: 'invalid arguments',
    weight: 10,
    tool: 'getPetById',
    args: { petId: 'not-a-number' },
    expect: (r) => r.isError,
  },
];

const children = new Set();
let workDir;

const watchdog = setTimeout(
  () => {
    console.error(`soak: still running ${SECONDS + 600} s after start; stopping`);
    void cleanup().then(() => process.exit(2));
  },
  (SECONDS + 600) * 1000,
);
watchdog.unref();
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void cleanup().then(() => process.exit(130)));

try {
  process.exitCode = (await main()) ? 0 : 1;
} catch (error) {
  console.error(`soak failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
}
await cleanup();
clearTimeout(watchdog);

async function main() {
  workDir = mkdtempSync(join(tmpdir(), 'otm-soak-'));
  log(`generating and building the petstore server in ${workDir}`);
  const entry = await generateAndBuild(join(REPO, 'fixtures', 'specs', 'petstore.yaml'), join(workDir, 'petstore-mcp'));
  const upstream = await startUpstream();
  const server = await startMcpServer(entry, {
    API_BASE_URL: upstream.url,
    API_KEY: 'soak-key',
    PETSTORE_AUTH_TOKEN: 'soak-token',
    API_TIMEOUT_MS: String(TIMEOUT_MS),
    API_MAX_RESPONSE_BYTES: String(MAX_RESPONSE_BYTES),
    API_MAX_RETRIES: '1',
  });
  log(`${CLIENTS} clients for ${SECONDS} s against ${server.url} (warm-up ${WARMUP_SECONDS} s)`);
  const stats = new Map(CALLS.map((c) => [c.kind, { calls: 0, unexpected: 0, latencies: [] }]));
  const unexpected = [];
  const samples = [{ t: 0, rssKiB: rssKiB(server.child.pid) ?? 0 }];
  const started = Date.now();
  const deadline = started + SECONDS * 1000;
  const sampler = setInterval(
    () => samples.push({ t: (Date.now() - started) / 1000, rssKiB: rssKiB(server.child.pid) ?? 0 }),
    SAMPLE_MS,
  );
  const schedule = CALLS.flatMap((c) => Array.from({ length: c.weight }, () => c));
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client * 7; Date.now() < deadline; i++) {
        const call = schedule[i % schedule.length];
        const t0 = performance.now();
        const problem = await callOnce(server.url, call);
        const s = stats.get(call.kind);
        s.calls++;
        s.latencies.push(performance.now() - t0);
        if (problem) {
          s.unexpected++;
          if (unexpected.length < 20) unexpected.push(`${call.kind}: ${problem}`);
        }
      }
    }),
  );
  clearInterval(sampler);
  samples.push({ t: (Date.now() - started) / 1000, rssKiB: rssKiB(server.child.pid) ?? 0 });
  const alive = server.child.exitCode === null;
  return report(stats, unexpected, samples, alive);
}

/** One tools/call; undefined when the answer is the one expected, else what was wrong with it. */
async function callOnce(url, call) {
  let res;
  let text;
  try {
    res = await fetch(url, toolCallRequest(call.tool, call.args));
    text = await res.text();
  } catch (error) {
    return `request failed: ${error instanceof Error ? error.message : String(error)}`;
  }
  if (res.status !== 200) return `HTTP ${res.status}: ${text.slice(0, 200)}`;
  const payload = parseJsonOrSse(text);
  if (!payload?.result) return `no result: ${text.slice(0, 200)}`;
  return call.expect(payload.result) ? undefined : `unexpected result: ${text.slice(0, 300)}`;
}

function report(stats, unexpected, samples, alive) {
  const rows = [...stats].map(([kind, s]) => {
    const sorted = s.latencies.sort((a, b) => a - b);
    const pct = (p) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]);
    return [kind, s.calls, s.unexpected, Math.round(pct(0.5)), Math.round(pct(0.99))];
  });
  const total = rows.reduce((n, r) => n + r[1], 0);
  const bad = rows.reduce((n, r) => n + r[2], 0);
  const seconds = samples.at(-1).t;
  console.log(
    `\nsoak: ${CLIENTS} clients, ${Math.round(seconds)} s, ${total} calls (${Math.round(total / seconds)}/s), ${bad} unexpected\n`,
  );
  console.log('| call | calls | unexpected | p50 ms | p99 ms |\n| --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  for (const line of unexpected) console.log(`  unexpected: ${line}`);
  const afterWarmup = samples.filter((s) => s.t >= WARMUP_SECONDS);
  const base = afterWarmup[0]?.rssKiB ?? samples[0].rssKiB;
  const peak = Math.max(...afterWarmup.map((s) => s.rssKiB));
  const last = samples.at(-1).rssKiB;
  const slope = slopeMiBPerMinute(afterWarmup);
  const growth = (peak - base) / 1024;
  console.log(`\n| server RSS | MiB |\n| --- | --- |`);
  console.log(
    `| at start | ${mib(samples[0].rssKiB)} |\n| after warm-up (${WARMUP_SECONDS} s) | ${mib(base)} |\n| peak after warm-up | ${mib(peak)} |\n| at the end | ${mib(last)} |`,
  );
  console.log(`| slope after warm-up | ${slope.toFixed(2)} MiB/min |`);
  // Large bodies make RSS a sawtooth (buffers freed on the collector's schedule): a leak is a trend, so the
  // mean of the last quarter of the samples is held to the first quarter's, not the peak to the start.
  const quarter = Math.max(1, Math.floor(afterWarmup.length / 4));
  const mean = (list) => list.reduce((a, s) => a + s.rssKiB, 0) / Math.max(list.length, 1);
  const firstMean = mean(afterWarmup.slice(0, quarter));
  const lastMean = mean(afterWarmup.slice(-quarter));
  const trend = (lastMean - firstMean) / 1024;
  console.log(`| mean, first quarter after warm-up | ${mib(firstMean)} |\n| mean, last quarter | ${mib(lastMean)} |`);
  const flat = trend <= MAX_GROWTH_MIB && slope < MAX_SLOPE_MIB_PER_MIN;
  console.log(
    `\nsoak: ${bad === 0 ? '0 unexpected errors' : `${bad} UNEXPECTED`}; memory ${flat ? 'flat' : 'NOT FLAT'} after warm-up (last quarter ${trend >= 0 ? '+' : ''}${trend.toFixed(1)} MiB on the first, limit ${MAX_GROWTH_MIB}; peak +${growth.toFixed(1)} MiB); server ${alive ? 'still running' : 'EXITED'}`,
  );
  return bad === 0 && flat && alive;
}

/** Least-squares slope of RSS over time, in MiB per minute. */
function slopeMiBPerMinute(samples) {
  if (samples.length < 2) return 0;
  const n = samples.length;
  const mt = samples.reduce((a, s) => a + s.t, 0) / n;
  const mr = samples.reduce((a, s) => a + s.rssKiB, 0) / n;
  const cov = samples.reduce((a, s) => a + (s.t - mt) * (s.rssKiB - mr), 0);
  const vart = samples.reduce((a, s) => a + (s.t - mt) ** 2, 0);
  return vart === 0 ? 0 : ((cov / vart) * 60) / 1024;
}

// ---------------------------------------------------------------------------------------------------
// Processes
// ---------------------------------------------------------------------------------------------------

/** The scripted upstream, in its own process so the load generator cannot starve it. */
async function startUpstream() {
  const child = spawn(process.execPath, [join(REPO, 'bench', 'soak-upstream.mjs')], {
    env: {
      PATH: process.env.PATH ?? '',
      SOAK_TIMEOUT_MS: String(TIMEOUT_MS),
      SOAK_LARGE_BODY: String(LARGE_NAME.length),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  const line = await new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => reject(new Error('the upstream did not start')), 10_000);
    child.stdout.on('data', (chunk) => {
      buffered += chunk.toString();
      if (buffered.includes('\n')) {
        clearTimeout(timer);
        resolve(buffered.slice(0, buffered.indexOf('\n')));
      }
    });
  });
  return JSON.parse(line);
}

/** The server's stderr (a JSON line per request) goes to a file, read only for its URL. */
async function startMcpServer(entry, env) {
  const logFile = join(workDir, 'server.stderr.log');
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, [entry, '--http', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'ignore', fd],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  closeSync(fd);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const url = /"url":"(http:\/\/[^"]+)"/.exec(readFileSync(logFile, 'utf8'))?.[1];
    if (url) return { child, url };
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error(`server did not start: ${readFileSync(logFile, 'utf8')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function textOf(result) {
  return (result.content ?? []).map((c) => c.text ?? '').join('');
}

async function cleanup() {
  await Promise.all([...children].map(stopChild));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

function mib(kib) {
  return (kib / 1024).toFixed(1);
}

function log(message) {
  console.error(`soak: ${message}`);
}
