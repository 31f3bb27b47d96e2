// Retrieval benchmark (issue 14): requests written the way people ask an assistant, each with the operations
// that correctly serve it, asked of `search_operations` exactly as a model asks it (limit 10), per API.
//   node bench/retrieval.mjs [--set tuning|held-out|dev] [--misses] [--api NAME] [--json FILE] [--phrased]
// Run after `npm run build`. Three sets of requests, reported apart (issue 30's generalization protocol):
//   tuning (the default): bench/retrieval/<api>.json, the requests the search was tuned on;
//   held-out: bench/retrieval/held-out/<api>.json, written blind over other APIs and never looked at while
//     tuning, only measured (see bench/retrieval/held-out/README.md); so it prints figures only: no --misses, and
//     --json leaves out the requests;
//   dev: bench/retrieval/dev/<api>.json, written blind over APIs in neither set nor in ../shared/specs (their
//     specs are in bench/retrieval/dev/specs), to develop against: it may be read, misses included, so it is not
//     evidence of generalization (see bench/retrieval/dev/README.md).
// --phrased sends each request as a host's model phrased it for search_operations (bench/retrieval/phrased/<set>/
//   <api>.json: request → query, written by a model shown only the tool's listing and the request; see its README)
//   instead of the person's words, so the figures are the search as models use it.
// The sets' `expectedOps` ("METHOD /path") are the ground truth and are mapped to the current tool names through
// catalog.json, so renaming tools does not touch the sets. Figures per API: recall@k = share of requests with at
// least one expected operation in the top k; MRR = mean of 1/rank of the first expected operation (0 when it is
// not in the top 10).
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import ts from 'typescript';
import { generate } from '../dist/src/index.js';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SPECS = join(REPO, '..', 'shared', 'specs');
/**
 * The query sets. Targets are means over the set's APIs, plus search latency per query; the held-out set's are
 * issue 30's, which also asks R@10 ≥ 0.7 of each API.
 */
const SETS = {
  tuning: {
    title: 'tuning set',
    dir: 'bench/retrieval',
    apis: ['github', 'stripe', 'kubernetes', 'digitalocean', 'box'],
    issue: 14,
    target: { recallAt1: 0.5, recallAt10: 0.85, p95Ms: 10 },
  },
  'held-out': {
    title: 'held-out set (measured only, never tuned on)',
    dir: 'bench/retrieval/held-out',
    apis: ['gitea', 'slack-web', 'discord', 'spotify', 'intellifi', 'just-eat'],
    issue: 30,
    target: { recallAt1: 0.5, recallAt10: 0.85, apiRecallAt10: 0.7, p95Ms: 10 },
  },
  dev: {
    title: 'dev set (may be read while tuning; not evidence of generalization)',
    dir: 'bench/retrieval/dev',
    specDir: 'bench/retrieval/dev/specs',
    apis: ['trello', 'twilio', 'gmail', 'zoom', 'youtube'],
    issue: 30,
    target: { recallAt1: 0.5, recallAt10: 0.85, apiRecallAt10: 0.7, p95Ms: 10 },
  },
};
const LIMIT = 10;
const PHRASED_DIR = 'bench/retrieval/phrased';
const CUTS = [1, 5, 10];
const TIMING_ROUNDS = 5;

const args = parseArgs(process.argv.slice(2));
const SET = SETS[args.set];
if (!SET.specDir && !existsSync(join(SPECS, 'MANIFEST.tsv'))) {
  console.log('bench/retrieval: ../shared/specs is missing; skipped');
  process.exit(0);
}
const work = mkdtempSync(join(tmpdir(), 'otm-bench-retrieval-'));
try {
  await main();
} finally {
  rmSync(work, { recursive: true, force: true });
}

async function main() {
  const specFile = specFiles();
  const rows = [];
  for (const api of args.apis) {
    const set = JSON.parse(readFileSync(join(REPO, SET.dir, `${api}.json`), 'utf8'));
    const { files } = await generate({ spec: specFile(api), write: false, validate: false });
    const byName = new Map(files.map((f) => [f.path, f.contents]));
    const names = toolNamesByOperation(byName.get('catalog.json'));
    const phrased = args.phrased ? phrasings(api) : undefined;
    const cases = set.map((entry) => ({
      ...entry,
      ...(phrased ? { query: phrasedQuery(phrased, api, entry.query), request: entry.query } : {}),
      wanted: wantedNames(api, entry, names),
    }));
    const renamed = cases.filter((entry) => entry.expected.join() !== entry.wanted.join()).length;
    if (renamed > 0)
      console.log(`${SET.dir}/${api}.json: ${renamed} entries' "expected" names are out of date (expectedOps decide)`);
    const searcher = await makeSearcher(byName, join(work, api));
    rows.push(await measure(api, cases, searcher));
  }
  console.log(
    `retrieval, ${SET.title}: ${SET.dir}/*.json${args.phrased ? `, as a host's model phrased them (${PHRASED_DIR}/${args.set})` : ''}`,
  );
  printTable(rows);
  printTargets(rows);
  if (args.misses) printMisses(rows);
  if (args.json) writeFileSync(args.json, `${JSON.stringify(figures(rows), null, 2)}\n`);
}

/**
 * The one place that knows the generated runtime's internals: everything a generated server wires together to
 * answer `search_operations` (see templates/runtime/server/create-server.ts and server.ts), built from the generated files.
 * Returns `search(query)` → the names in structuredContent.results, and what loading the index cost.
 */
async function makeSearcher(files, dir) {
  const runtime = await loadGeneratedRuntime(files, dir);
  const [{ parseCatalog }, { ToolRegistry }, { handleMetaTool }, { SEARCH_TOOL }, { OperationSearch }] =
    await Promise.all(
      [
        'server/tool-table.js',
        'server/tool-registry.js',
        'search/meta-tools.js',
        'contract/meta-definitions.js',
        'search/search.js',
      ].map((file) => import(pathToFileURL(join(runtime, file)).href)),
    );
  const registry = new ToolRegistry(parseCatalog(Buffer.from(files.get('catalog.json'))));
  const indexText = files.get('search-index.json');
  const start = performance.now();
  const search = OperationSearch.load(JSON.parse(indexText));
  const loadMs = performance.now() - start;
  const context = {
    registry,
    search: async () => search,
    callOperation: () => {
      throw new Error('the retrieval benchmark never calls an operation');
    },
  };
  return {
    indexBytes: Buffer.byteLength(indexText),
    loadMs,
    async search(query) {
      const result = await handleMetaTool(SEARCH_TOOL, { query, limit: LIMIT }, context);
      if (result.isError) throw new Error(`search_operations failed for "${query}": ${JSON.stringify(result.content)}`);
      return result.structuredContent.results.map((r) => r.name);
    },
  };
}

/**
 * The generated project's own copy of the runtime (src/runtime/*.ts), transpiled to JavaScript in `dir`, so the
 * benchmark runs exactly what a generated server ships. Its imports resolve against this repo's node_modules.
 */
async function loadGeneratedRuntime(files, dir) {
  const runtime = join(dir, 'runtime');
  mkdirSync(runtime, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const compilerOptions = { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: false };
  for (const [path, contents] of files) {
    if (!path.startsWith('src/runtime/') || !path.endsWith('.ts') || path.endsWith('.d.ts')) continue;
    const out = join(runtime, path.slice('src/runtime/'.length).replace(/\.ts$/, '.js'));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, ts.transpileModule(contents, { compilerOptions, fileName: path }).outputText);
  }
  return runtime;
}

/** `METHOD /path` → tool name, from catalog.json (the generator's data contract). */
function toolNamesByOperation(catalogText) {
  const { tools } = JSON.parse(catalogText);
  return new Map(tools.map((tool) => [operationKey(tool.request.method, tool.request.path), tool.name]));
}

function operationKey(method, path) {
  return `${method.toUpperCase()} ${path}`;
}

/** The current tool names of an entry's expectedOps; an operation the catalog does not have is a broken set. */
function wantedNames(api, entry, names) {
  return entry.expectedOps.map((op) => {
    const [method, ...rest] = op.trim().split(/\s+/);
    const name = names.get(operationKey(method, rest.join(' ')));
    if (!name)
      throw new Error(
        `${SET.dir}/${api}.json: "${entry.query}" expects ${op}, which is not an operation of the ${api} catalog`,
      );
    return name;
  });
}

async function measure(api, cases, searcher) {
  const firstStart = performance.now();
  await searcher.search(cases[0].query); // the first search may build what the index needs; timed apart
  const firstMs = performance.now() - firstStart;
  const results = [];
  const coldTimes = [];
  for (const entry of cases) {
    const start = performance.now();
    const returned = await searcher.search(entry.query);
    coldTimes.push(performance.now() - start);
    const position = returned.findIndex((name) => entry.wanted.includes(name));
    results.push({ query: entry.query, request: entry.request, wanted: entry.wanted, returned, rank: position + 1 });
  }
  const times = await latencies(cases, searcher);
  const recall = Object.fromEntries(CUTS.map((k) => [k, share(results, (r) => r.rank > 0 && r.rank <= k)]));
  const mrr = results.reduce((sum, r) => sum + (r.rank > 0 ? 1 / r.rank : 0), 0) / results.length;
  return {
    api,
    n: results.length,
    recall,
    mrr,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    coldP95: quantile(
      coldTimes.sort((a, b) => a - b),
      0.95,
    ),
    firstMs,
    indexBytes: searcher.indexBytes,
    loadMs: searcher.loadMs,
    results,
  };
}

/**
 * Each query's search time: the median of TIMING_ROUNDS runs, taken in rounds over the whole set so a pause of
 * the shared machine (or a garbage collection) falls on one run of several queries, not on one query's figure.
 */
async function latencies(cases, searcher) {
  const runs = cases.map(() => []);
  for (let round = 0; round < TIMING_ROUNDS; round++) {
    for (const [i, entry] of cases.entries()) {
      const start = performance.now();
      await searcher.search(entry.query);
      runs[i].push(performance.now() - start);
    }
  }
  return runs.map((samples) => median(samples)).sort((a, b) => a - b);
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function share(items, predicate) {
  return items.filter(predicate).length / items.length;
}

function quantile(sorted, q) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

function printTable(rows) {
  const mean = (pick) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  const head = [
    'API',
    'n',
    'R@1',
    'R@5',
    'R@10',
    'MRR',
    'p50 ms',
    'p95 ms',
    'cold p95',
    '1st ms',
    'index bytes',
    'parse ms',
  ];
  const body = rows.map((row) => [
    row.api,
    String(row.n),
    ...CUTS.map((k) => fixed(row.recall[k])),
    fixed(row.mrr),
    row.p50.toFixed(2),
    row.p95.toFixed(2),
    row.coldP95.toFixed(2),
    row.firstMs.toFixed(1),
    String(row.indexBytes),
    row.loadMs.toFixed(1),
  ]);
  body.push([
    'mean',
    String(rows.reduce((s, r) => s + r.n, 0)),
    ...CUTS.map((k) => fixed(mean((r) => r.recall[k]))),
    fixed(mean((r) => r.mrr)),
    '',
    '',
    '',
    '',
    '',
    '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((line) => line[i].length)));
  const line = (cells) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(line(head));
  console.log(`|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const cells of body) console.log(line(cells));
  console.log(
    `(mean n is the total; R@k and MRR means are over APIs; search latency: each query's median of ${TIMING_ROUNDS} runs once every query was asked once; cold p95: that first asking, in a fresh runtime (JIT not warm); 1st ms: the very first search)`,
  );
}

function printTargets(rows) {
  const { target, issue } = SET;
  const mean = (pick) => rows.reduce((sum, row) => sum + pick(row), 0) / rows.length;
  const verdict = (ok) => (ok ? 'met' : 'NOT met');
  const at1 = mean((r) => r.recall[1]);
  const at10 = mean((r) => r.recall[10]);
  const slowest = Math.max(...rows.map((r) => r.p95));
  const verdicts = [
    `mean R@1 ≥ ${target.recallAt1}: ${verdict(at1 >= target.recallAt1)}`,
    `mean R@10 ≥ ${target.recallAt10}: ${verdict(at10 >= target.recallAt10)}`,
  ];
  if (target.apiRecallAt10 !== undefined) {
    const below = rows.filter((r) => r.recall[10] < target.apiRecallAt10).map((r) => r.api);
    verdicts.push(
      `R@10 ≥ ${target.apiRecallAt10} on every API: ${verdict(below.length === 0)}${below.length > 0 ? ` (below: ${below.join(', ')})` : ''}`,
    );
  }
  verdicts.push(`p95 < ${target.p95Ms} ms on every API: ${verdict(slowest < target.p95Ms)}`);
  console.log(`targets (issue ${issue}): ${verdicts.join('; ')}`);
}

function fixed(value) {
  return value.toFixed(2);
}

/** Every request whose expected operation is not first, the ones not found at all first. */
function printMisses(rows) {
  for (const row of rows) {
    const misses = row.results.filter((r) => r.rank !== 1).sort((a, b) => worse(a) - worse(b));
    console.log(`\n${row.api}: ${misses.length} of ${row.n} not at rank 1`);
    for (const miss of misses) {
      console.log(`  [${miss.rank === 0 ? 'not in top 10' : `rank ${miss.rank}`}] ${miss.query}`);
      if (miss.request) console.log(`      asked    ${miss.request}`);
      console.log(`      expected ${miss.wanted.join(' | ')}`);
      console.log(`      got      ${miss.returned.slice(0, 3).join(', ') || '(nothing)'}`);
    }
  }
}

function worse(result) {
  return result.rank === 0 ? -1 : -result.rank;
}

/** The rows for --json; the held-out set's without its requests (it is measured, not read). */
function figures(rows) {
  if (args.set === 'held-out') return rows.map(({ results: _results, ...row }) => ({ set: args.set, ...row }));
  return rows.map(({ results, ...row }) => ({
    set: args.set,
    ...row,
    misses: results
      .filter((r) => r.rank !== 1)
      .map(({ query, request, wanted, returned, rank }) => ({
        query,
        request,
        wanted,
        rank,
        top3: returned.slice(0, 3),
      })),
  }));
}

/** request → the query a host's model wrote for it, for one API of the set. */
function phrasings(api) {
  return JSON.parse(readFileSync(join(REPO, PHRASED_DIR, args.set, `${api}.json`), 'utf8'));
}

function phrasedQuery(phrased, api, request) {
  const query = phrased[request];
  if (typeof query !== 'string' || query.trim() === '')
    throw new Error(`${PHRASED_DIR}/${args.set}/${api}.json has no query for the request "${request}"`);
  return query;
}

/** api → its spec file: the set's own copy when it has one, else the main file ../shared/specs names. */
function specFiles() {
  if (SET.specDir) return (api) => join(REPO, SET.specDir, `${api}.json`);
  const mainFiles = manifestMainFiles();
  return (api) => join(SPECS, mainFiles.get(api));
}

function manifestMainFiles() {
  const [header, ...lines] = readFileSync(join(SPECS, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.split('\t'));
  const name = header.indexOf('name');
  const main = header.indexOf('main_file');
  return new Map(lines.map((cells) => [cells[name], cells[main]]));
}

function parseArgs(argv) {
  const parsed = { set: 'tuning', misses: false, json: undefined, apis: undefined, phrased: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--misses') parsed.misses = true;
    else if (arg === '--json') parsed.json = requiredValue(argv, ++i, arg);
    else if (arg === '--api') parsed.apis = [requiredValue(argv, ++i, arg)];
    else if (arg === '--set') parsed.set = requiredValue(argv, ++i, arg);
    else if (arg === '--phrased') parsed.phrased = true;
    else
      throw new Error(
        `bench/retrieval: unknown argument ${arg} (usage: [--set tuning|held-out|dev] [--misses] [--api NAME] [--json FILE] [--phrased])`,
      );
  }
  if (!Object.hasOwn(SETS, parsed.set))
    throw new Error(`bench/retrieval: --set takes one of ${Object.keys(SETS).join(', ')}`);
  const { apis } = SETS[parsed.set];
  if (parsed.set === 'held-out' && parsed.misses)
    throw new Error(
      'bench/retrieval: --misses is refused for the held-out set: it is measured, never read while tuning (bench/retrieval/held-out/README.md)',
    );
  for (const api of parsed.apis ?? [])
    if (!apis.includes(api))
      throw new Error(`bench/retrieval: --api takes one of ${apis.join(', ')} for --set ${parsed.set}`);
  parsed.apis ??= apis;
  return parsed;
}

function requiredValue(argv, i, flag) {
  if (argv[i] === undefined) throw new Error(`bench/retrieval: ${flag} needs a value`);
  return argv[i];
}
