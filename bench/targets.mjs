// Deployment targets, after `npm run build` (part of `npm run bench`):
//   (1) the one web-standard handler on workerd and on Node: cold start (process start to the first
//       tools/list answered) and per-request cost (sequential 2026-07-28 tools/call: latency, and CPU time
//       of the server process per request), for the generated petstore. workerd runs the bundle
//       `wrangler deploy --dry-run` builds from the generated wrangler.toml, served by the workerd binary
//       itself (no wrangler or miniflare in between), with the catalog as a text module.
//   (2) throughput of 1 vs 3 Node replicas behind nginx (round-robin), modern tools/call, autocannon.
// BENCH_SECONDS (default 10) per load turn, BENCH_ROUNDS (default 3) interleaved turns. Everything listens on
// 127.0.0.1; every process started here is stopped before exit.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import {
  freePort,
  generateAndBuild,
  parseJsonOrSse,
  positiveInt,
  REPO,
  stopChild,
  toolCallRequest,
} from './mcp-harness.mjs';
import { startNginx } from './nginx.mjs';

const SECONDS = positiveInt(process.env.BENCH_SECONDS, 10);
const ROUNDS = positiveInt(process.env.BENCH_ROUNDS, 3);
const SEQUENTIAL_CALLS = 300;
const CONNECTIONS = 50;
const COMPATIBILITY_DATE = '2026-04-01';
const CLOCK_TICKS_PER_SECOND = 100;

const children = new Set();
let workDir;

try {
  await main();
} catch (error) {
  console.error(`bench targets failed: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  await Promise.all([...children].map(stopChild));
  if (workDir) rmSync(workDir, { recursive: true, force: true });
}

async function main() {
  workDir = mkdtempSync(join(tmpdir(), 'otm-bench-targets-'));
  const projectDir = join(workDir, 'petstore-mcp');
  const entry = await generateAndBuild(join(REPO, 'fixtures', 'specs', 'petstore.yaml'), projectDir);
  const upstreamUrl = await startUpstream();
  const env = { API_BASE_URL: `${upstreamUrl}/v3`, API_KEY: 'bench-key', LOG_LEVEL: 'warn' };
  const workerConfig = bundleWorker(projectDir, env);
  const call = toolCallRequest('getPetById', { petId: 10 });

  const runs = { node: [], workerd: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const target of ['node', 'workerd']) {
      const port = await freePort();
      const started = performance.now();
      const child =
        target === 'node'
          ? track(
              spawn(process.execPath, [entry, '--http', '--port', String(port)], {
                env: { ...process.env, ...env },
                stdio: 'ignore',
              }),
            )
          : track(
              spawn(binary('workerd'), ['serve', workerConfig, '--socket-addr', `http=127.0.0.1:${port}`], {
                stdio: 'ignore',
              }),
            );
      const url = `http://127.0.0.1:${port}/mcp`;
      await firstToolsList(url);
      const coldStartMs = performance.now() - started;
      const cpuBefore = cpuMs(child.pid);
      const latencies = [];
      for (let i = 0; i < SEQUENTIAL_CALLS; i++) {
        const t = performance.now();
        const response = await fetch(url, call);
        const answer = parseJsonOrSse(await response.text());
        if (answer?.result?.structuredContent?.id !== 10)
          throw new Error(`${target}: unexpected answer ${JSON.stringify(answer)}`);
        latencies.push(performance.now() - t);
      }
      const cpu = cpuMs(child.pid) - cpuBefore;
      runs[target].push({
        coldStartMs,
        p50: median(latencies),
        mean: mean(latencies),
        cpuPerCall: cpu / SEQUENTIAL_CALLS,
      });
      await stopChild(child);
      children.delete(child);
    }
  }
  printWebHandlerTable(runs);

  const replicas = [];
  for (let i = 0; i < 3; i++) {
    const port = await freePort();
    const child = track(
      spawn(process.execPath, [entry, '--http', '--port', String(port)], {
        env: { ...process.env, ...env },
        stdio: 'ignore',
      }),
    );
    await firstToolsList(`http://127.0.0.1:${port}/mcp`);
    replicas.push({ port, child });
  }
  const one = await startNginx([replicas[0].port]);
  const three = await startNginx(replicas.map((r) => r.port));
  const throughput = { 1: [], 3: [] };
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const [count, lb] of [
        [1, one],
        [3, three],
      ]) {
        const result = await load(`${lb.url}/mcp`, call);
        throughput[count].push({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          errors: result.errors + result.non2xx,
        });
      }
    }
  } finally {
    await one.stop();
    await three.stop();
  }
  printThroughputTable(throughput);
}

/** `wrangler deploy --dry-run` bundles as for a deploy; a workerd config serves that bundle with the env as bindings. */
function bundleWorker(projectDir, env) {
  const out = join(workDir, 'worker');
  execFileSync(process.execPath, [binary('wrangler'), 'deploy', '--dry-run', '--outdir', out], {
    cwd: projectDir,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', XDG_CONFIG_HOME: join(workDir, '.config') },
    stdio: 'ignore',
  });
  const textModules = readdirSync(out).filter((f) => f.endsWith('.json'));
  const modules = [
    `(name = "worker.js", esModule = embed "worker.js")`,
    ...textModules.map((f) => `(name = ${JSON.stringify(f)}, text = embed ${JSON.stringify(f)})`),
  ];
  const bindings = Object.entries(env).map(
    ([name, value]) => `(name = ${JSON.stringify(name)}, text = ${JSON.stringify(value)})`,
  );
  const config = join(out, 'config.capnp');
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker), (name = "internet", network = (allow = ["public", "private", "local"])) ],
  sockets = [ (name = "http", address = "127.0.0.1:0", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ ${modules.join(', ')} ],
  compatibilityDate = "${COMPATIBILITY_DATE}",
  compatibilityFlags = ["nodejs_compat"],
  bindings = [ ${bindings.join(', ')} ],
  globalOutbound = "internet",
);
`,
  );
  return config;
}

async function firstToolsList(url) {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/list',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  const request = {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/list',
    },
    body,
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ok = await fetch(url, request).then(
      async (r) => r.ok && (parseJsonOrSse(await r.text())?.result?.tools?.length ?? 0) > 0,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`${url} did not answer tools/list`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function startUpstream() {
  const child = track(
    spawn(process.execPath, [join(REPO, 'bench', 'upstream.mjs')], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  return new Promise((resolve) => child.stdout.once('data', (chunk) => resolve(JSON.parse(chunk.toString()).url)));
}

function track(child) {
  children.add(child);
  return child;
}

function binary(name) {
  return join(REPO, 'node_modules', '.bin', name);
}

function load(url, request) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, ...request }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function mean(values) {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

function printWebHandlerTable(runs) {
  const f = (n, digits = 1) => n.toFixed(digits);
  console.log(
    `\nweb handler, generated petstore: workerd vs Node (medians of ${ROUNDS} runs; ${SEQUENTIAL_CALLS} sequential tools/call each)`,
  );
  console.log(
    '| runtime | cold start to first tools/list (ms) | tools/call p50 (ms) | mean (ms) | server CPU per call (ms) |',
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const [target, list] of Object.entries(runs)) {
    const m = (key) => median(list.map((r) => r[key]));
    console.log(
      `| ${target} | ${f(m('coldStartMs'), 0)} | ${f(m('p50'), 2)} | ${f(m('mean'), 2)} | ${f(m('cpuPerCall'), 2)} |`,
    );
  }
}

function printThroughputTable(throughput) {
  console.log(
    `\nscale-out, generated petstore behind nginx (round-robin): ${CONNECTIONS} connections, ${SECONDS} s per turn, medians of ${ROUNDS} turns`,
  );
  console.log('| replicas | req/s | p50 (ms) | p99 (ms) | errors |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const [count, list] of Object.entries(throughput)) {
    console.log(
      `| ${count} | ${median(list.map((r) => r.rps)).toFixed(0)} | ${median(list.map((r) => r.p50))} | ${median(list.map((r) => r.p99))} | ${list.reduce((a, r) => a + r.errors, 0)} |`,
    );
  }
  const ratio = median(throughput[3].map((r) => r.rps)) / median(throughput[1].map((r) => r.rps));
  console.log(
    `3 / 1 replicas: ${ratio.toFixed(2)}× (on a machine with ${availableParallelism()} cores shared with nginx, the upstream and the load generator)`,
  );
}
