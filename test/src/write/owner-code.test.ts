/** What a regeneration did to the tool names in the owner's own files (src/write/owner-code.ts). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { staleToolReferences } from '../../../src/write/owner-code.js';

const dir = mkdtempSync(join(tmpdir(), 'owner-code-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'src'));
writeFileSync(
  join(dir, 'src/tools.ts'),
  `export const TOOLS = {\n  pets_list: 'GET /pets',\n  'pets_get': "GET /pets/{id}",\n  pets_delete: 'DELETE /pets/{id}',\n} as const;\n`,
);
writeFileSync(
  join(dir, 'src/hooks.ts'),
  `import type { ToolName } from './tools.js';
// pets_gone is only mentioned in this comment
export const tools: ToolHooksByName<ToolName> = {
  pets_list: { beforeRequest: () => undefined },
  'pets_get': { afterResponse: () => undefined },
  pets_delete() {},
};
`,
);
writeFileSync(
  join(dir, 'src/extensions.ts'),
  `export const tools = [{ name: 'mine', run: async (_args, ctx) => { await ctx.callTool('pets_get', {}); return ctx.callTool(\`pets_vanished\`, {}); } }];\n`,
);
const regenerated = [
  { name: 'pets_list', operation: 'GET /pets' },
  { name: 'pets_show', operation: 'GET /pets/{id}' },
];

describe('stale tool references in the owner files', () => {
  const stale = staleToolReferences(dir, ['src/hooks.ts', 'src/extensions.ts'], regenerated);

  it('names each hook key and callTool name the regenerated project lacks, with its line', () => {
    expect(stale.map((s) => `${s.file}:${s.line} ${s.name}`)).toEqual([
      'src/hooks.ts:5 pets_get',
      'src/hooks.ts:6 pets_delete',
      'src/extensions.ts:1 pets_get',
      'src/extensions.ts:1 pets_vanished',
    ]);
  });

  it('says what a renamed tool became, from the operation the old src/tools.ts gave it', () => {
    expect(stale.find((s) => s.file === 'src/hooks.ts' && s.name === 'pets_get')).toMatchObject({
      operation: 'GET /pets/{id}',
      renamedTo: 'pets_show',
    });
    expect(stale.find((s) => s.name === 'pets_delete')).toMatchObject({ operation: 'DELETE /pets/{id}' });
    expect(stale.find((s) => s.name === 'pets_delete')?.renamedTo).toBeUndefined();
    expect(stale.find((s) => s.name === 'pets_vanished')?.operation).toBeUndefined();
  });

  it('finds nothing when every name is still there, and ignores comments', () => {
    expect(
      staleToolReferences(
        dir,
        ['src/hooks.ts'],
        [
          ...regenerated,
          { name: 'pets_get', operation: 'GET /pets/{id}' },
          { name: 'pets_delete', operation: 'DELETE /pets/{id}' },
        ],
      ),
    ).toEqual([]);
  });
});
