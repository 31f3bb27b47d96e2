/** The built command line: exit codes, messages on stderr only, safe output folders. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/generated-project.js';

const CLI = join(REPO_ROOT, 'dist', 'src', 'cli.js');
const PETSTORE = join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml');
const work = mkdtempSync(join(tmpdir(), 'otm-cli-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd: work, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.skipIf(!existsSync(CLI))('openapi-to-mcp CLI', () => {
  it('prints its version and help', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(cli('--version').stdout.trim()).toBe(pkg.version);
    const help = cli('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--base-url');
  });

  it('generates into the default folder named after the API title, printing only to stderr', () => {
    const r = cli(PETSTORE);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('tools 19');
    expect(existsSync(join(work, 'petstore-mcp', 'package.json'))).toBe(true);
    expect(r.stderr).toContain('sized for the server key "petstore"');
  });

  it('warns about a tool name a config override makes too long for the server key', () => {
    const out = join(work, 'pets-mcp');
    mkdirSync(out);
    writeFileSync(
      join(out, 'openapi-to-mcp.config.json'),
      JSON.stringify({ tools: { getPetById: { name: `get_${'p'.repeat(50)}` } } }),
    );
    const r = cli(PETSTORE, '-o', out);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tool names: at most 53 characters, sized for the server key "pets"');
    expect(r.stderr).toContain(
      `warning: tool name get_${'p'.repeat(50)} (54 characters) is too long under "pets" for Claude Code, Codex`,
    );
  });

  it('fails with one line for a missing spec and for a document that is not OpenAPI', () => {
    const missing = cli(join(work, 'nope.yaml'), '-o', join(work, 'x'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Cannot read .*nope\.yaml/);
    const notOpenApi = join(work, 'not-openapi.yaml');
    writeFileSync(notOpenApi, 'hello: world\n');
    const r = cli(notOpenApi, '-o', join(work, 'y'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('OTM_NOT_OPENAPI');
    expect(existsSync(join(work, 'x'))).toBe(false);
    expect(existsSync(join(work, 'y'))).toBe(false);
  });

  it("--client-profile prints that profile's tools/list on stdout and reports every profile on stderr", () => {
    const r = cli(PETSTORE, '-o', join(work, 'profiled'), '--client-profile', 'gemini', '--dry-run');
    expect(r.code).toBe(0);
    const listing = JSON.parse(r.stdout) as {
      profile: string;
      mode: string;
      tools: Array<{ name: string; inputSchema: Record<string, unknown> }>;
    };
    expect(listing).toMatchObject({ profile: 'gemini', mode: 'all' });
    expect(listing.tools).toHaveLength(19);
    expect(JSON.stringify(listing.tools)).not.toMatch(/"\$ref"|"additionalProperties"/);
    expect(existsSync(join(work, 'profiled'))).toBe(false);
    const written = cli(PETSTORE, '-o', join(work, 'profiled'));
    expect(written.stderr).toMatch(/gemini: 19 of 19 tools lowered \(inline-refs 6, .*drop-additional-properties 19\)/);
    expect(cli(PETSTORE, '--client-profile', 'chatgpt').code).toBe(2);
  });

  it('rejects bad options with exit code 2', () => {
    expect(cli(PETSTORE, '--base-url', 'not a url').code).toBe(2);
    expect(cli(PETSTORE, '--bogus').code).toBe(2);
  });

  it('refuses a non-empty folder it did not generate unless --force', () => {
    const out = join(work, 'occupied');
    mkdirSync(out);
    writeFileSync(join(out, 'mine.txt'), 'keep me');
    const refused = cli(PETSTORE, '-o', out);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('OTM_OUTPUT_NOT_EMPTY');
    expect(existsSync(join(out, 'package.json'))).toBe(false);
    expect(cli(PETSTORE, '-o', out, '--force').code).toBe(0);
    expect(existsSync(join(out, 'package.json'))).toBe(true);
  });

  it('regenerates into its own folder, keeping files it does not own', () => {
    const out = join(work, 'regen');
    expect(cli(PETSTORE, '-o', out).code).toBe(0);
    writeFileSync(join(out, 'NOTES.md'), 'user notes');
    mkdirSync(join(out, 'node_modules'));
    writeFileSync(join(out, 'node_modules', 'marker'), 'x');
    expect(cli(PETSTORE, '-o', out).code).toBe(0);
    expect(readFileSync(join(out, 'NOTES.md'), 'utf8')).toBe('user notes');
    expect(existsSync(join(out, 'node_modules', 'marker'))).toBe(true);
  });
});

describe("the README's command in a checkout", () => {
  // npx runs the checkout's own bin as a file: the build must leave it executable (tsc writes it without the bit).
  it('runs as `npx --no -- openapi-to-mcp`, the built bin being executable', () => {
    expect(statSync(CLI).mode & 0o111).not.toBe(0);
    const r = spawnSync('npx', ['--no', '--', 'openapi-to-mcp', '--version'], { cwd: REPO_ROOT, encoding: 'utf8' });
    expect(r.stderr).not.toContain('Permission denied');
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
