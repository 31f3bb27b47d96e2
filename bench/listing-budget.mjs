// What the model reads of each public spec's default listing, and what the wire carries (issue 30, item 2).
//   node bench/listing-budget.mjs [--mode MODE] [--only a,b] [--json FILE] [--top N] [--output-variants]
//                                 [--profile NAME|all]
// Run after `npm run build`. Generates each spec of ../shared/specs in its default mode (or --mode) and lists it
// as Claude Code (clientInfo `claude-code`) is listed: the server's own profile choice and lowering
// (templates/runtime/contract/profiles/), its tool cap and the hybrid fallback; --profile lists it as another
// profile's clients get it (`full`: unknown clients), the model column still as the Anthropic API takes it;
// --profile all lists it as every profile does and prints a matrix, spec by profile, of tools/model/wire.
//   tools  the tools listed (operations and meta-tools);
//   model  o200k_base tokens of what the model reads: per tool, the Anthropic API tool definition
//          {"name","description","input_schema"} as JSON (no title, annotations or output schema), summed;
//   wire   o200k_base tokens of the whole tools/list result {"tools":[…]} as that client receives it
//          (title, annotations, outputSchema, _meta included);
//   wire-out  the same without output schemas.
// --top N: the N tools that cost the model most, per spec. --output-variants: the wire of the default listing
// with each output-schema encoding this bench knows (see outputVariants below), made from the catalog's outline
// whether or not the profile lists one (issue 30, output schemas).
// Self-contained on purpose (only generate, profileTools, PROFILES and the token count from dist): it runs on an
// older build too, so a "before" figure is measured by the same code as the "after".
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generate } from '../dist/src/index.js';
import { profileTools } from '../dist/templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES } from '../dist/templates/runtime/contract/profiles/profiles.js';
import { countListTokens } from '../dist/src/report/tokens.js';
import { printTable } from './mcp-harness.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SPECS = join(REPO, '..', 'shared', 'specs');
const BUDGET = 8_000;

const args = parseArgs(process.argv.slice(2));
if (!existsSync(join(SPECS, 'MANIFEST.tsv'))) {
  console.log('bench/listing-budget: ../shared/specs is missing; skipped');
  process.exit(0);
}

async function main() {
  const rows = [];
  const tops = [];
  const variants = [];
  for (const [api, mainFile] of manifest()) {
    if (args.only && !args.only.includes(api)) continue;
    const started = performance.now();
    const { files } = await generate({
      spec: join(SPECS, mainFile),
      write: false,
      validate: false,
      ...(args.mode ? { toolMode: args.mode } : {}),
    });
    const ms = performance.now() - started;
    const catalog = JSON.parse(files.find((f) => f.path === 'catalog.json').contents);
    if (args.profile === 'all') {
      rows.push({ api, operations: catalog.tools.length, byProfile: await allProfiles(catalog) });
      continue;
    }
    const { mode, tools } = profileTools(catalog, catalog.toolMode, PROFILES[args.profile]);
    const listed = tools.map((t) => t.tool);
    const perTool = [];
    for (const tool of listed) perTool.push({ name: tool.name, tokens: await countListTokens(modelText(tool)) });
    const model = perTool.reduce((n, t) => n + t.tokens, 0);
    const wire = await countListTokens(JSON.stringify({ tools: listed }));
    const wireOut = await countListTokens(JSON.stringify({ tools: listed.map(withoutOutput) }));
    const compacted = listed.filter((t) => catalog.tools.find((c) => c.name === t.name)?.compactInputSchema).length;
    rows.push({
      api,
      mode,
      operations: catalog.tools.length,
      tools: listed.length,
      compacted,
      model,
      wire,
      wireOut,
      generateMs: Math.round(ms),
    });
    if (args.top) tops.push({ api, tools: [...perTool].sort((a, b) => b.tokens - a.tokens).slice(0, args.top) });
    if (args.outputVariants) {
      // From the catalog's outline, whether or not this profile lists it.
      const outlines = new Map(catalog.tools.map((t) => [t.name, t.outputSchema]));
      const row = { api };
      for (const [name, rewrite] of Object.entries(outputVariants))
        row[name] = await countListTokens(
          JSON.stringify({ tools: listed.map((t) => withOutput(t, outlines.get(t.name), rewrite)) }),
        );
      variants.push(row);
    }
  }
  if (args.profile === 'all') return printProfileMatrix(rows);
  printTable(
    ['api', 'mode', 'ops', 'tools', 'compact', 'model', 'per tool', 'wire', 'wire-out', 'fits', 'gen ms'],
    rows.map((r) => [
      r.api,
      r.mode,
      r.operations,
      r.tools,
      r.compacted,
      r.model,
      Math.round(r.model / Math.max(r.tools, 1)),
      r.wire,
      r.wireOut,
      r.model <= BUDGET ? 'yes' : 'NO',
      r.generateMs,
    ]),
  );
  const over = rows.filter((r) => r.model > BUDGET);
  console.log(
    `\n${rows.length - over.length} of ${rows.length} specs within ${BUDGET} model tokens` +
      (over.length ? `; over: ${over.map((r) => `${r.api} ${r.model}`).join(', ')}` : ''),
  );
  for (const { api, tools } of tops) console.log(`\n${api}: ${tools.map((t) => `${t.name} ${t.tokens}`).join(', ')}`);
  if (variants.length) {
    console.log('\nwire tokens by output-schema encoding:');
    const names = Object.keys(outputVariants);
    printTable(
      ['api', ...names],
      variants.map((v) => [v.api, ...names.map((n) => v[n])]),
    );
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ rows, tops, variants }, null, 2)}\n`);
}

/** Per profile: the tools its clients are listed, what the model reads of them, and the wire. */
async function allProfiles(catalog) {
  const out = {};
  for (const name of Object.keys(PROFILES)) {
    const { mode, tools } = profileTools(catalog, catalog.toolMode, PROFILES[name]);
    const listed = tools.map((t) => t.tool);
    let model = 0;
    for (const tool of listed) model += await countListTokens(modelText(tool));
    out[name] = { mode, tools: listed.length, model, wire: await countListTokens(JSON.stringify({ tools: listed })) };
  }
  return out;
}

/** One row per spec, one column per profile: tools/model/wire, `!` where the model reads over the budget. */
function printProfileMatrix(rows) {
  const names = Object.keys(PROFILES);
  printTable(
    ['api', 'ops', ...names],
    rows.map((r) => [
      r.api,
      r.operations,
      ...names.map((n) => {
        const p = r.byProfile[n];
        return `${p.tools}/${p.model}/${p.wire}${p.model > BUDGET ? '!' : ''}`;
      }),
    ]),
  );
  console.log('\ncells: tools/model tokens/wire tokens; ! = model over the budget');
  for (const n of names) {
    const over = rows.filter((r) => r.byProfile[n].model > BUDGET);
    const worst = Math.max(...rows.map((r) => r.byProfile[n].model));
    console.log(
      `${n}: ${rows.length - over.length} of ${rows.length} within ${BUDGET}; largest ${worst}` +
        (over.length ? `; over: ${over.map((r) => `${r.api} ${r.byProfile[n].model}`).join(', ')}` : ''),
    );
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify(rows, null, 2)}\n`);
}

/** What the model reads of one tool: its Anthropic API tool definition. */
function modelText(tool) {
  return JSON.stringify({ name: tool.name, description: tool.description, input_schema: tool.inputSchema });
}

function withoutOutput(tool) {
  const { outputSchema: _out, ...rest } = tool;
  return rest;
}

function withOutput(tool, outline, rewrite) {
  const bare = withoutOutput(tool);
  const out = outline && rewrite(outline);
  return out === undefined ? bare : { ...bare, outputSchema: out };
}

/** Output-schema encodings, each of which accepts every response the outline accepts (but `declared`'s types). */
const outputVariants = {
  declared: (schema) => schema,
  omitted: () => undefined,
  // Top-level property names only: every value accepted.
  untyped: (schema) => mapProperties(schema, () => ({})),
  // The type without null: what nullability costs (NOT lenient: a null would fail).
  'no-null': (schema) =>
    mapProperties(schema, (p) => {
      if (!Array.isArray(p.type)) return p;
      const types = p.type.filter((t) => t !== 'null');
      return { ...p, type: types.length === 1 ? types[0] : types };
    }),
};

function mapProperties(schema, f) {
  if (!schema.properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, f(v)])),
  };
}

function manifest() {
  return readFileSync(join(SPECS, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .map((cells) => [cells[0], cells[3]]);
}

function parseArgs(argv) {
  const out = { mode: undefined, only: undefined, json: undefined, top: 0, outputVariants: false, profile: 'claude' };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--mode') out.mode = argv[++i];
    else if (argv[i] === '--only') out.only = argv[++i].split(',');
    else if (argv[i] === '--json') out.json = argv[++i];
    else if (argv[i] === '--top') out.top = Number(argv[++i]);
    else if (argv[i] === '--output-variants') out.outputVariants = true;
    else if (argv[i] === '--profile') out.profile = argv[++i];
  }
  return out;
}

await main();
