/** Tool names sized for the server key the README registers: a name that fits stays, a longer one is cut. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';

const work = mkdtempSync(join(tmpdir(), 'otm-budget-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ok = { '200': { description: 'ok' } };
const FITS = 'x'.repeat(51); // exactly what `github` leaves: 64 - 'mcp__github__'.length
const LONG = `${'y'.repeat(40)}AndThenSomeMo`; // 53: over `github`'s 51, within `gh`'s 55
const spec = join(work, 'spec.json');
writeFileSync(
  spec,
  JSON.stringify({
    openapi: '3.1.0',
    info: { title: "GitHub's official OpenAPI spec", version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: {
      '/a': { get: { operationId: FITS, responses: ok } },
      '/b': { get: { operationId: LONG, summary: 'List the b things', responses: ok } },
      '/c': { get: { operationId: `${LONG}r`, responses: ok } },
    },
  }),
);

async function toolsOf(options: { out?: string; name?: string }) {
  const result = await generate({ spec, validate: false, write: false, ...options });
  const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
  return { result, tools: catalog.tools };
}

describe('tool names within the hosts’ limits', () => {
  it('keeps a name that fits under the key and cuts a longer one to the budget, keeping the full name in the title', async () => {
    const { result, tools } = await toolsOf({});
    expect(result.packageName).toBe('github-mcp');
    expect(result.serverKey).toBe('github');
    expect(tools[0]!.name).toBe(FITS);
    expect(tools[0]!.title).toBeUndefined();
    expect(tools[1]!.name).toMatch(/^y{40}AndT_[0-9a-f]{6}$/);
    expect(tools[1]!.name).toHaveLength(51);
    expect(tools[1]!.title).toBe(`List the b things (${LONG})`);
    expect(tools[2]!.title).toBe(`${LONG}r`);
    expect(result.summary.surface.namesOverHostLimits).toEqual([]);
  });

  it('sizes names for the -o folder’s name, and --name wins over it', async () => {
    const fromFolder = await toolsOf({ out: join(work, 'gh') });
    expect([fromFolder.result.packageName, fromFolder.result.serverKey]).toEqual(['gh', 'gh']);
    expect(fromFolder.tools.map((t) => t.name)).toEqual([FITS, LONG, `${LONG}r`]);
    expect(fromFolder.tools[1]!.title).toBe('List the b things');
    const named = await toolsOf({ out: join(work, 'gh'), name: 'acme-github-enterprise-mcp' });
    expect([named.result.packageName, named.result.serverKey]).toEqual(['acme-github-enterprise-mcp', 'acme-github']);
    expect(named.tools[0]!.name).toHaveLength(64 - 'mcp__acme-github__'.length);
    expect(named.tools[0]!.title).toBe(FITS);
  });
});
