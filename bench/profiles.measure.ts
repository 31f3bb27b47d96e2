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
import type { Catalog } from '../templates/runtime/contract/catalog.js';
import { listAllTools } from '../templates/runtime/contract/listing.js';
import { lowerTool } from '../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES } from '../templates/runtime/contract/profiles/profiles.js';
import { generateAndBuild, REPO_ROOT } from '../test/helpers/generated-project.js';
import { HOSTS, hostViolations, type Host } from '../test/helpers/host-rules.js';
import { connectModernStdio } from '../test/helpers/mcp-clients.js';
import { credentialEnv, startPrism, startRecordingProxy } from '../test/helpers/prism.js';
import { createArgSampler } from '../test/helpers/sample-args.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
const manifest = existsSync(join(SPECS_DIR, 'MANIFEST.tsv'))
  ? readFileSync(join(SPECS_DIR, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
  : [];
const TABLE_HOSTS: Array<Host | 'portable'> = [...HOSTS, 'portable'];

it('per-profile pass table, mode all, before and after lowering', async () => {
  const rows: string[] = [];
  const totals = new Map<string, { before: number; after: number }>();
  const bytes = new Map<string, number>();
  let allTools = 0;
  let fullBytes = 0;
  for (const row of manifest) {
    const result = await generate({ spec: join(SPECS_DIR, row[3]!), validate: false, write: false, toolMode: 'all' });
    const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
    const tools = listAllTools(catalog);
    allTools += tools.length;
    fullBytes += Buffer.byteLength(JSON.stringify(tools));
    const cells = TABLE_HOSTS.map((host) => {
      const lowered = tools.map((t) => lowerTool(t, PROFILES[host]).tool);
      bytes.set(host, (bytes.get(host) ?? 0) + Buffer.byteLength(JSON.stringify(lowered)));
      const before = tools.filter((t) => hostViolations(host, t.inputSchema).length === 0).length;
      const after = lowered.filter((t) => hostViolations(host, t.inputSchema).length === 0).length;
      const total = totals.get(host) ?? { before: 0, after: 0 };
      totals.set(host, { before: total.before + before, after: total.after + after });
      return `${before} → ${after}`;
    });
    rows.push(`| ${row[0]} | ${tools.length} | ${cells.join(' | ')} |`);
  }
  const header = `| spec | tools | ${TABLE_HOSTS.join(' | ')} |\n|---|---|${TABLE_HOSTS.map(() => '---').join('|')}|`;
  const total = `| **all** | ${allTools} | ${TABLE_HOSTS.map((h) => `${totals.get(h)!.before} → ${totals.get(h)!.after}`).join(' | ')} |`;
  process.stdout.write(
    `\nTools passing each host's rules (before → after lowering), mode all:\n${header}\n${rows.join('\n')}\n${total}\n`,
  );
  const size = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  process.stdout.write(
    `\nBytes of every tool of the 16 specs (mode all): full ${size(fullBytes)}; ${TABLE_HOSTS.map((h) => `${h} ${size(bytes.get(h)!)}`).join(', ')}\n`,
  );
});

/** Specs whose calls are measured against Prism (small enough to call every operation once per profile). */
const PRISM_SPECS = ['petstore-v3', 'train-travel', 'spotify', 'gitea'];
const CALL_TIMEOUT_MS = 30_000;
/** A refusal names the fix when it names the argument (or the arguments) and what it must be or lose. */
const NAMES_THE_FIX = /("[^"]+"|the arguments) (must|has keys that are not allowed: remove)/;

it('calls made from each lowered schema, against Prism', async () => {
  const lines: string[] = [];
  const refusals: string[] = [];
  for (const row of manifest.filter((r) => PRISM_SPECS.includes(r[0]!))) {
    const spec = join(SPECS_DIR, row[3]!);
    const prism = await startPrism(spec);
    const project = await generateAndBuild(spec, { toolMode: 'all' });
    try {
      const proxy = await startRecordingProxy(prism.port);
      const catalog = JSON.parse(project.result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
      const sampler = createArgSampler();
      for (const name of MEASURED_PROFILES) {
        const profile = PROFILES[name];
        const client = await connectModernStdio(project.entry, {
          API_BASE_URL: proxy.url,
          API_MAX_RETRIES: '0',
          // Sampled calls with no user to ask: confirmation of destructive calls is not what this measures.
          MCP_CONFIRM: 'never',
          MCP_CLIENT_PROFILE: name,
          ...credentialEnv(catalog),
        });
        const counts = { calls: 0, accepted: 0, prismValid: 0, refused: 0, refusalsNamingFix: 0, unsampled: 0 };
        try {
          for (const listed of listAllTools(catalog)) {
            const { tool } = lowerTool(listed, profile);
            const sample = sampler.sample(tool.inputSchema);
            if (!sample.valid) counts.unsampled++;
            counts.calls++;
            await proxy.idle();
            const from = proxy.log.length;
            const result = (await client.callTool(
              { name: tool.name, arguments: sample.args },
              { timeout: CALL_TIMEOUT_MS },
            )) as { isError?: boolean; content: Array<{ text?: string }> };
            await proxy.idle();
            const text = result.content.map((c) => c.text ?? '').join(' ');
            const requests = proxy.log.slice(from);
            if (result.isError && text.startsWith('Invalid arguments')) {
              counts.refused++;
              if (NAMES_THE_FIX.test(text)) counts.refusalsNamingFix++;
              refusals.push(`${row[0]} ${name} ${tool.name}: ${text.slice(0, 240)}`);
            } else counts.accepted++;
            if (requests.length > 0 && requests.every((r) => r.status !== undefined && !r.verdict)) counts.prismValid++;
          }
        } finally {
          await client.close();
        }
        lines.push(
          `| ${row[0]} | ${name} | ${counts.calls} | ${counts.accepted} (${pct(counts.accepted, counts.calls)}) | ${counts.refused} | ${counts.refusalsNamingFix} | ${counts.prismValid} | ${counts.unsampled} |`,
        );
      }
      await proxy.close();
    } finally {
      await prism.stop();
      project.cleanup();
    }
  }
  process.stdout.write(
    `\nCalls with arguments sampled from each lowered schema (server in front of Prism):\n| spec | profile | calls | accepted at once | refused | refusals naming the fix | Prism-valid requests | samples invalid for the lowered schema |\n|---|---|---|---|---|---|---|---|\n${lines.join('\n')}\n`,
  );
  if (refusals.length > 0) process.stdout.write(`\nRefusals:\n${refusals.map((r) => `- ${r}`).join('\n')}\n`);
}, 1_800_000);

const MEASURED_PROFILES = ['full', 'cursor', 'gemini', 'openai-strict', 'portable'] as const;

function pct(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`;
}
