// Do tool descriptions say what the tool does, and what do they cost? (issue 30, item 1)
//   node bench/descriptions.mjs [--json FILE] [--examples] [--budgets 200,300,400,600,800]
// Run after `npm run build`. Generates each spec of ../shared/specs in its default mode (no config) and reads
// catalog.json: the tools the default mode lists (operations; the meta-tools, written by the generator, are
// counted in "listed" but not measured), and every operation of the catalog.
//
// A description BEGINS WITH WHAT THE TOOL DOES when, with a leading "[Deprecated] " marker set aside:
//   - the operation has a summary (the catalog's title): the description's first words are the summary's
//     words, compared as Porter2 stems of the letter and digit runs, case and punctuation ignored ("Gets a
//     repository." begins with "Get a repository");
//   - it has none: the description starts with a word (a letter or digit), not with markup, HTML or an
//     admonition label (Note:, Warning:, …): then it opens with the spec's own statement of the operation,
//     or with its route when the spec says nothing.
// Tokens are o200k_base (src/report/tokens.ts), of the description text alone.
// --budgets: what each budget of tools/tool-description.ts would cost over every operation of every spec
// (total description tokens, and the share of descriptions cut), to choose TOOL_DESCRIPTION_BUDGET_BYTES.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import stem from 'wink-porter2-stemmer';
import { generate } from '../dist/src/index.js';
import { modeListing } from '../dist/templates/runtime/contract/listing.js';
import { countListTokens } from '../dist/src/report/tokens.js';
import { printTable } from './mcp-harness.mjs';

const REPO = fileURLToPath(new URL('..', import.meta.url));
const SPECS = join(REPO, '..', 'shared', 'specs');
const EXAMPLES = {
  github: ['repos/get', 'issues/get', 'users/get-authenticated'],
  'petstore-v2-classic': ['findPetsByStatus'],
};

const args = parseArgs(process.argv.slice(2));
if (!existsSync(join(SPECS, 'MANIFEST.tsv'))) {
  console.log('bench/descriptions: ../shared/specs is missing; skipped');
  process.exit(0);
}
await main();

async function main() {
  const rows = [];
  const examples = [];
  const budgetStudy = args.budgets ? await budgetStudyOf(args.budgets) : undefined;
  for (const [api, mainFile] of manifest()) {
    const { files } = await generate({ spec: join(SPECS, mainFile), write: false, validate: false });
    const catalog = JSON.parse(files.find((f) => f.path === 'catalog.json').contents);
    const names = catalog.tools.map((t) => t.name);
    const { direct, meta } = modeListing(catalog, names, catalog.toolMode);
    const listed = direct.map((i) => catalog.tools[i]);
    rows.push({
      api,
      mode: catalog.toolMode,
      listed: listed.length + meta.length,
      operationsListed: listed.length,
      beginsListed: listed.filter(beginsWithWhatItDoes).length,
      tokensListed: await descriptionTokens(listed),
      operations: catalog.tools.length,
      beginsAll: catalog.tools.filter(beginsWithWhatItDoes).length,
      tokensAll: await descriptionTokens(catalog.tools),
    });
    for (const id of EXAMPLES[api] ?? []) {
      const tool = catalog.tools.find((t) => t.operationId === id);
      if (tool) examples.push({ api, name: tool.name, title: tool.title, description: tool.description });
    }
    budgetStudy?.add(catalog.tools);
  }
  printTable(
    [
      'api',
      'mode',
      'listed',
      'ops listed',
      'begins (listed)',
      'tokens (listed)',
      'ops',
      'begins (all)',
      'tokens (all)',
    ],
    rows.map((r) => [
      r.api,
      r.mode,
      r.listed,
      r.operationsListed,
      share(r.beginsListed, r.operationsListed),
      r.tokensListed,
      r.operations,
      share(r.beginsAll, r.operations),
      r.tokensAll,
    ]),
  );
  const sum = (key) => rows.reduce((n, r) => n + r[key], 0);
  console.log(
    `\nall specs: begins with what it does ${share(sum('beginsListed'), sum('operationsListed'))} of listed operations, ` +
      `${share(sum('beginsAll'), sum('operations'))} of all; description tokens ${sum('tokensListed')} listed, ${sum('tokensAll')} all`,
  );
  if (args.examples)
    for (const e of examples)
      console.log(
        `\n${e.api} ${e.name}\n  title: ${e.title ?? '(none)'}\n  description: ${JSON.stringify(e.description)}`,
      );
  if (budgetStudy) await budgetStudy.print();
  if (args.json) writeFileSync(args.json, `${JSON.stringify({ rows, examples }, null, 2)}\n`);
}

function beginsWithWhatItDoes(tool) {
  const text = tool.description.replace(/^\[Deprecated\]\s*/, '');
  const summary = summaryOf(tool);
  if (!summary) return /^[\p{L}\p{N}]/u.test(text) && !/^(note|warning|tip|important|caution|info)s?\b\s*:/i.test(text);
  const wanted = stems(summary);
  const opening = stems(text).slice(0, wanted.length);
  return wanted.length > 0 && wanted.every((s, i) => opening[i] === s);
}

/** The title is the summary; a shortened name is appended in parentheses, or stands alone without a summary. */
function summaryOf(tool) {
  if (!tool.title) return undefined;
  const appended = /\s*\(([^\s()]+)\)$/.exec(tool.title);
  if (appended && appended[1].length > tool.name.length) return tool.title.slice(0, appended.index) || undefined;
  if (!/\s/.test(tool.title) && tool.title.length > tool.name.length) return undefined;
  return tool.title;
}

function stems(text) {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => stem(w));
}

async function descriptionTokens(tools) {
  let total = 0;
  for (const tool of tools) total += await countListTokens(tool.description);
  return total;
}

/** What each budget would cost: the current generator's condensing, at other budgets, over every operation. */
async function budgetStudyOf(budgets) {
  const { toolDescription } = await import('../dist/src/tools/tool-description.js');
  const texts = [];
  return {
    add(tools) {
      for (const tool of tools) {
        const spec = (tool.fullDescription ?? tool.description).replace(/^\[Deprecated\]\s*/, '');
        texts.push({ summary: summaryOf(tool), description: spec });
      }
    },
    async print() {
      const whole = texts.map((t) => toolDescription(t, Number.MAX_SAFE_INTEGER));
      const wholeTokens = await sumTokens(whole);
      const rows = [['whole (no budget)', wholeTokens, '0%', Math.round(wholeTokens / texts.length)]];
      for (const budget of budgets) {
        const cut = texts.map((t) => toolDescription(t, budget));
        const tokens = await sumTokens(cut);
        const shortened = cut.filter((c, i) => c !== whole[i]).length;
        rows.push([`${budget} bytes`, tokens, share(shortened, texts.length), Math.round(tokens / texts.length)]);
      }
      console.log(`\nbudgets over ${texts.length} operations of ${manifest().length} specs:`);
      printTable(['budget', 'description tokens', 'descriptions cut', 'tokens per operation'], rows);
    },
  };
}

async function sumTokens(texts) {
  let total = 0;
  for (const text of texts) total += await countListTokens(text);
  return total;
}

function manifest() {
  return readFileSync(join(SPECS, 'MANIFEST.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => line.split('\t'))
    .map((cells) => [cells[0], cells[3]]);
}

function share(part, whole) {
  return whole === 0 ? '-' : `${Math.round((100 * part) / whole)}%`;
}

function parseArgs(argv) {
  const out = { json: undefined, examples: false, budgets: undefined };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--json') out.json = argv[++i];
    else if (argv[i] === '--examples') out.examples = true;
    else if (argv[i] === '--budgets') out.budgets = argv[++i].split(',').map(Number);
  }
  return out;
}
