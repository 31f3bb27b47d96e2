/**
 * Client-profile measurements, printed as Markdown tables (run: npx vitest run --config bench/vitest.profiles.config.ts):
 * 1. Per profile, the tools of every public spec (mode `all`, no cap) that pass the host's rules as checked by
 *    test/helpers/host-rules.ts: before lowering (the full schemas) and after.
 * 2. For a few specs: calls made from each lowered schema (arguments sampled from what the model sees) sent to a
 *    server in front of Prism; the share the server accepts at once, and whether every refusal names the fix.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { generate } from '../src/pipeline.js';
import type { Catalog } from '../templates/runtime/catalog.js';
import { listAllTools } from '../templates/runtime/listing.js';
import { lowerTool } from '../templates/runtime/profile-listing.js';
import { PROFILES } from '../templates/runtime/profiles.js';
import { REPO_ROOT } from '../test/helpers/generated-project.js';
import { HOSTS, hostViolations, type Host } from '../test/helpers/host-rules.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
const manifest = existsSync(join(SPECS_DIR, 'MANIFEST.tsv'))
  ? readFileSync(join(SPECS_DIR, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split('\t'))
  : [];
const TABLE_HOSTS: Array<Host | 'portable'> = [...HOSTS, 'portable'];

it('per-profile pass table, mode all, before and after lowering', async () => {
  const rows: string[] = [];
  const totals = new Map<string, { before: number; after: number }>();
  let allTools = 0;
  for (const row of manifest) {
    const result = await generate({ spec: join(SPECS_DIR, row[3]!), validate: false, write: false, toolMode: 'all' });
    const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
    const tools = listAllTools(catalog);
    allTools += tools.length;
    const cells = TABLE_HOSTS.map((host) => {
      const before = tools.filter((t) => hostViolations(host, t.inputSchema).length === 0).length;
      const after = tools.filter((t) => hostViolations(host, lowerTool(t, PROFILES[host]).tool.inputSchema).length === 0).length;
      const total = totals.get(host) ?? { before: 0, after: 0 };
      totals.set(host, { before: total.before + before, after: total.after + after });
      return `${before} → ${after}`;
    });
    rows.push(`| ${row[0]} | ${tools.length} | ${cells.join(' | ')} |`);
  }
  const header = `| spec | tools | ${TABLE_HOSTS.join(' | ')} |\n|---|---|${TABLE_HOSTS.map(() => '---').join('|')}|`;
  const total = `| **all** | ${allTools} | ${TABLE_HOSTS.map((h) => `${totals.get(h)!.before} → ${totals.get(h)!.after}`).join(' | ')} |`;
  process.stdout.write(`\nTools passing each host's rules (before → after lowering), mode all:\n${header}\n${rows.join('\n')}\n${total}\n`);
});
