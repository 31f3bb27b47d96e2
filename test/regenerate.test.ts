/**
 * The regeneration lifecycle through the built CLI: generate, add a user config and hooks, regenerate from a
 * changed spec (an operation added, one removed, one renamed, a new required parameter, a narrowed type and
 * enum), and check the printed tool-surface diff exactly, that the user's files are untouched, that a second
 * regeneration is a no-op, and what --check and --dry-run do. Then the regenerated server runs the hooks.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildProject, REPO_ROOT } from './helpers/generated-project.js';
import { connectModernStdio } from './helpers/mcp-clients.js';
import { startMockUpstream } from './helpers/mock-upstream.js';

const CLI = join(REPO_ROOT, 'dist', 'src', 'cli.js');
const V1 = join(REPO_ROOT, 'fixtures', 'specs', 'regen', 'pets-v1.yaml');
const V2 = join(REPO_ROOT, 'fixtures', 'specs', 'regen', 'pets-v2.yaml');
const work = mkdtempSync(join(tmpdir(), 'otm-regen-'));
const out = join(work, 'pets-mcp');
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: work, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const CONFIG = {
  exclude: { tags: ['admin'] },
  tools: {
    listPets: { title: 'List the pets' },
    'GET /pets/{petId}': { description: 'One pet, by its id.' },
  },
};

const HOOKS = `import type { BeforeRequest, ToolHooksByName } from './runtime/extend/hooks.js';
import type { ToolName } from './tools.js';

export const beforeRequest: BeforeRequest = ({ request }) => ({ ...request, headers: { ...request.headers, 'x-from-hook': 'yes' } });

export const tools: ToolHooksByName<ToolName> = {
  listPets: { afterResponse: ({ result }) => ({ ...result, content: [...result.content, { type: 'text', text: 'checked by hook' }] }) },
};
`;

const USER_FILES = ['openapi-to-mcp.config.json', 'src/hooks.ts', 'NOTES.md'];

/** Every file of the folder (not following node_modules) with its content hash and modification time. */
function snapshot(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel))) {
      const path = rel ? `${rel}/${entry}` : entry;
      const stat = lstatSync(join(dir, path));
      if (entry === 'node_modules') result[path] = stat.isSymbolicLink() ? 'symlink' : 'dir';
      else if (stat.isDirectory()) walk(path);
      else
        result[path] = `${createHash('sha256')
          .update(readFileSync(join(dir, path)))
          .digest('hex')} ${stat.mtimeMs}`;
    }
  };
  walk('');
  return result;
}

function userFiles(): Record<string, string> {
  const all = snapshot(out);
  return Object.fromEntries(USER_FILES.map((f) => [f, all[f]!]));
}

/** The tool-surface block of the output: from its heading to the files line. */
function surfaceDiff(stderr: string): string[] {
  const lines = stderr.split('\n');
  const start = lines.findIndex((l) => l.startsWith('openapi-to-mcp: tool surface'));
  const end = lines.findIndex((l, i) => i > start && l.startsWith('openapi-to-mcp: files:'));
  return start < 0 ? [] : lines.slice(start, end < 0 ? undefined : end);
}

const EXPECTED_DIFF = [
  'openapi-to-mcp: tool surface changed since the last generation: 1 added, 1 removed, 1 renamed, 2 changed (6 breaking)',
  '  + listOwners (GET /owners)',
  '  - deletePet (DELETE /pets/{petId}) BREAKING: tool removed',
  '  ~ showPetById → getPet (GET /pets/{petId}) BREAKING: tool renamed',
  '  ~ createPet (POST /pets) input changed',
  '      BREAKING: narrowed type of "body.age": number → integer',
  '  ~ listPets (GET /pets) input changed',
  '      BREAKING: removed argument "limit"',
  '      BREAKING: "status" no longer accepts "sold"',
  '      BREAKING: new required argument "owner"',
  '      added optional argument "sort"',
];

describe.skipIf(!existsSync(CLI))('regeneration', () => {
  it('keeps the user config and hooks, prints the exact tool-surface diff, and is a no-op the second time', () => {
    // First generation, then the user's customizations.
    expect(cli(V1, '-o', out).code).toBe(0);
    expect(readFileSync(join(out, 'src', 'hooks.ts'), 'utf8')).toContain('This file is yours');
    expect(JSON.parse(readFileSync(join(out, 'openapi-to-mcp.lock.json'), 'utf8')).files).not.toContain('src/hooks.ts');
    writeFileSync(join(out, 'openapi-to-mcp.config.json'), `${JSON.stringify(CONFIG, null, 2)}\n`);
    writeFileSync(join(out, 'src', 'hooks.ts'), HOOKS);
    writeFileSync(join(out, 'NOTES.md'), 'my notes\n');
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');

    // The config applies: the admin operation is left out, overrides show.
    const withConfig = cli(V1, '-o', out);
    expect(withConfig.code).toBe(0);
    expect(surfaceDiff(withConfig.stderr)).toEqual([
      'openapi-to-mcp: tool surface changed since the last generation: 0 added, 1 removed, 0 renamed, 2 changed (1 breaking)',
      '  - getStats (GET /admin/stats) BREAKING: tool removed',
      '  ~ listPets (GET /pets) title changed',
      '  ~ showPetById (GET /pets/{petId}) description changed',
    ]);
    expect(withConfig.stderr).toContain(
      '  skipped getStats (GET /admin/stats): excluded by exclude in openapi-to-mcp.config.json',
    );
    expect(withConfig.stderr).toContain('  skipped health (GET /health): x-mcp: false on its path');
    expect(readFileSync(join(out, 'src', 'hooks.ts'), 'utf8')).toBe(HOOKS);
    const mine = userFiles();
    const before = snapshot(out);

    // --check: stale, exit 1, same diff, nothing written.
    const check = cli(V2, '-o', out, '--check');
    expect(check.code).toBe(1);
    expect(surfaceDiff(check.stderr)).toEqual(EXPECTED_DIFF);
    expect(check.stderr).toContain('is out of date; run without --check to update it');
    expect(snapshot(out)).toEqual(before);

    // --dry-run: exit 0, same diff, nothing written.
    const dry = cli(V2, '-o', out, '--dry-run');
    expect(dry.code).toBe(0);
    expect(surfaceDiff(dry.stderr)).toEqual(EXPECTED_DIFF);
    expect(dry.stderr).toContain('openapi-to-mcp: dry run, nothing written');
    expect(snapshot(out)).toEqual(before);

    // The real regeneration.
    const regen = cli(V2, '-o', out);
    expect(regen.code).toBe(0);
    expect(surfaceDiff(regen.stderr)).toEqual(EXPECTED_DIFF);
    const filesLine = regen.stderr.split('\n').find((l) => l.startsWith('openapi-to-mcp: files:'))!;
    expect(filesLine).toMatch(/^openapi-to-mcp: files: 0 added, \d+ updated \(.*catalog\.json.*\), 0 removed$/);
    // The line names the first few files only; what changed and what did not is read from the files themselves.
    const written = snapshot(out);
    expect(written['generation.json']).not.toBe(before['generation.json']);
    expect(written['src/hooks.ts']).toBe(before['src/hooks.ts']);
    expect(userFiles()).toEqual(mine);
    expect(lstatSync(join(out, 'node_modules')).isSymbolicLink()).toBe(true);
    const catalog = JSON.parse(readFileSync(join(out, 'catalog.json'), 'utf8')) as {
      tools: Array<{ name: string; title?: string; description: string }>;
    };
    expect(catalog.tools.map((t) => t.name)).toEqual(['listPets', 'createPet', 'getPet', 'listOwners']);
    expect(catalog.tools[0]!.title).toBe('List the pets');
    expect(catalog.tools[2]!.description).toBe('One pet, by its id.');

    // A second regeneration changes nothing, not even a modification time.
    const after = snapshot(out);
    const again = cli(V2, '-o', out);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('openapi-to-mcp: no changes\n');
    expect(surfaceDiff(again.stderr)).toEqual([]);
    expect(snapshot(out)).toEqual(after);
    const upToDate = cli(V2, '-o', out, '--check');
    expect(upToDate.code).toBe(0);
    expect(upToDate.stderr).toContain('is up to date');
  });

  it('runs the user hooks in the regenerated server', async () => {
    buildProject(out);
    const upstream = await startMockUpstream();
    const client = await connectModernStdio(join(out, 'dist', 'index.js'), { API_BASE_URL: upstream.url });
    try {
      const result = (await client.callTool({ name: 'listPets', arguments: { owner: 'ann' } })) as {
        content: Array<{ type: string; text?: string }>;
        isError?: boolean;
      };
      expect(result.isError).toBeFalsy();
      expect(result.content.at(-1)).toEqual({ type: 'text', text: 'checked by hook' });
      expect(upstream.requests).toHaveLength(1);
      expect(upstream.requests[0]!.url).toBe('/pets?owner=ann');
      expect(upstream.requests[0]!.headers['x-from-hook']).toBe('yes');
    } finally {
      await client.close();
      await upstream.close();
    }
  });

  it('reports a config entry that matches nothing as an error and writes nothing', () => {
    const dir = join(work, 'typo-mcp');
    writeFileSync(
      join(work, 'typo.config.json'),
      JSON.stringify({ include: { tags: ['pet'] }, tools: { showPet: { title: 'x' } } }),
    );
    const r = cli(V1, '-o', dir, '--config', 'typo.config.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      '[ERROR OTM_CONFIG_NO_MATCH] typo.config.json#/include/tags/0: include tags "pet" matches no operation',
    );
    expect(r.stderr).toContain(
      '[ERROR OTM_CONFIG_NO_MATCH] typo.config.json#/tools/showPet: tools "showPet" matches no operation',
    );
    expect(existsSync(dir)).toBe(false);
  });
});
