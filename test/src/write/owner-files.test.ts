/** A regeneration reads the owner's changed files and warns about tool names it renamed or removed (src/write/owner-files.ts). */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { changedOwnedFiles } from '../../../src/write/owner-files.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const work = mkdtempSync(join(tmpdir(), 'otm-owner-files-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const spec = join(REPO_ROOT, 'fixtures', 'invalid', 'config-target.yaml');

describe('owner files on regeneration', () => {
  it('reads none of them while they are as first written', async () => {
    const out = join(work, 'untouched');
    await generate({ spec, out, validate: false });
    expect(changedOwnedFiles(out)).toEqual([]);
    const again = await generate({ spec, out, validate: false });
    expect(again.diagnostics.filter((d) => d.code === 'OTM_OWNER_CODE_STALE')).toEqual([]);
  });

  it('warns at the operation when a hooked tool was renamed, and keeps the file as the owner wrote it', async () => {
    const out = join(work, 'renamed');
    await generate({ spec, out, validate: false });
    const hooks = `${readFileSync(join(out, 'src/hooks.ts'), 'utf8').replace('export const tools: ToolHooksByName<ToolName> = {};', 'export const tools: ToolHooksByName<ToolName> = {\n  listPets: { beforeRequest: () => undefined },\n};')}`;
    writeFileSync(join(out, 'src/hooks.ts'), hooks);
    expect(changedOwnedFiles(out)).toEqual(['src/hooks.ts']);
    const config = join(work, 'rename.json');
    writeFileSync(config, JSON.stringify({ tools: { listPets: { name: 'pets_all' } } }));
    const result = await generate({ spec, out, validate: false, config });
    const stale = result.diagnostics.filter((d) => d.code === 'OTM_OWNER_CODE_STALE');
    expect(stale).toEqual([
      expect.objectContaining({
        severity: 'warning',
        pointer: '#/paths/~1pets/get',
        message: expect.stringMatching(
          /^src\/hooks\.ts:\d+ uses tool listPets, which this regeneration renamed to pets_all \(GET \/pets\)$/,
        ),
      }),
    ]);
    expect(readFileSync(join(out, 'src/hooks.ts'), 'utf8')).toBe(hooks);
  });
});
