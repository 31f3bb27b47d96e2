/**
 * The helper thread (built code only: a worker runs dist/) answers every request as the main thread would,
 * a generation run through it gives the same files as one without it, and a task that fails there fails.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { searchIndexText } from '../../../src/emit/search/tool-modes.js';
import { formatSources } from '../../../src/format/prettier.js';
import { generate } from '../../../src/pipeline.js';
import { countListTokens } from '../../../src/report/tokens.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const DIST = join(REPO_ROOT, 'dist', 'src');
type HelperModule = typeof import('../../../src/helper/helper.js');
type Built = { generate: typeof generate };

describe.skipIf(!existsSync(join(DIST, 'helper', 'helper-worker.js')))('helper thread (built)', () => {
  it('formats, builds the search index and counts exactly as this thread does', async () => {
    const { leaseHelper, runTask } = (await import(join(DIST, 'helper', 'helper.js'))) as HelperModule;
    const onHelper = (task: Parameters<HelperModule['runTask']>[0], input: unknown) =>
      runTask(task, input, () => {
        throw new Error('ran on the main thread');
      });
    const lease = leaseHelper();
    try {
      const entries: Array<[string, string]> = Array.from({ length: 30 }, (_, i) => [
        `tool_${i}`,
        `GET /things/{id}/${'x'.repeat(i * 4)}`,
      ]);
      const sources: Array<[string, string]> = [
        ['const a = {"b":1}', 'typescript'],
        ['{"docCount":1,"docLengths":[3],"avgDocLength":3,"postings":{}}', 'json'],
      ];
      expect(await onHelper('format', sources)).toEqual(await formatSources(sources));
      const docs = entries.map(([name, route]) => ({
        fields: { name, resource: route, summary: `Gets ${name} — ünïcode` },
        operation: {
          name,
          method: 'GET',
          path: route.slice(4),
          summary: `Gets ${name}`,
          required: [],
          group: 'things',
        },
      }));
      const input = { docs, groups: [{ name: 'things', description: 'Things.', operations: docs.map((_, i) => i) }] };
      expect(await onHelper('searchIndexFile', input)).toBe(searchIndexText(input));
      const text = JSON.stringify({ tools: entries, special: '<|endoftext|>' });
      expect(await onHelper('countTokens', text)).toBe(await countListTokens(text));
      // A task that fails on the helper is an error here, not work done again on this thread.
      await expect(onHelper('format', [['const = ;', 'typescript']])).rejects.toThrow(/SyntaxError|Unexpected/);
    } finally {
      lease.release();
    }
    await expect(onHelper('countTokens', 'no lease: this thread')).rejects.toThrow('ran on the main thread');
  });

  it.each(['specs/petstore.yaml', 'invalid/spec-invalid.yaml'])(
    'changes nothing in what is generated, nor in the diagnostics and their order (%s)',
    async (fixture) => {
      const built = (await import(join(DIST, 'index.js'))) as Built;
      const spec = join(REPO_ROOT, 'fixtures', fixture);
      const [viaHelper, here] = await Promise.all([
        built.generate({ spec, write: false }),
        generate({ spec, write: false }),
      ]);
      expect(viaHelper.files).toEqual(here.files);
      expect(viaHelper.summary).toEqual(here.summary);
      expect(viaHelper.diagnostics).toEqual(here.diagnostics);
      if (fixture.startsWith('invalid/')) expect(here.diagnostics.map((d) => d.code)).toContain('OTM_SPEC_INVALID');
    },
  );
});
