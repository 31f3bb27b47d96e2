/** The config's `confirm` policy: its shape, and a list of operations resolved to the tools they became. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyConfig } from '../../../src/config/apply.js';
import { resolveConfirmPolicy } from '../../../src/config/confirm.js';
import { loadProjectConfig } from '../../../src/config/load.js';
import type { ProjectConfig } from '../../../src/config/types.js';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { loadSpec } from '../../../src/load/load-spec.js';
import { normalizeSpec } from '../../../src/normalize/index.js';
import { mapTools } from '../../../src/tools/index.js';

const work = mkdtempSync(join(tmpdir(), 'otm-confirm-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const ok = { '200': { description: 'ok' } };
const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Confirm', version: '1' },
  paths: {
    '/pets': { get: { operationId: 'listPets', responses: ok }, post: { operationId: 'createPet', responses: ok } },
    '/pets/{id}': { delete: { operationId: 'deletePet', parameters: id, responses: ok } },
    '/pets/{id}/photos': { delete: { parameters: id, responses: ok } },
  },
};

async function resolve(config: ProjectConfig) {
  const file = join(work, 'spec.json');
  writeFileSync(file, JSON.stringify(SPEC));
  const diags = new Diagnostics();
  const api = normalizeSpec(await loadSpec(file, diags, { validate: false }), diags);
  const mapped = mapTools(api, diags);
  const loaded = { path: '/x/c.json', label: 'c.json', config };
  const { tools } = applyConfig(api, mapped, loaded, diags);
  return { policy: resolveConfirmPolicy(config.confirm, mapped, tools, 'c.json', diags), diags: diags.all };
}

describe('resolveConfirmPolicy', () => {
  it('leaves the default out of the catalog and keeps the other words', async () => {
    expect((await resolve({ confirm: 'destructive' })).policy).toBeUndefined();
    expect((await resolve({})).policy).toBeUndefined();
    expect((await resolve({ confirm: 'writes' })).policy).toBe('writes');
    expect((await resolve({ confirm: 'never' })).policy).toBe('never');
  });

  it('resolves operationIds and METHOD /path keys to the names the tools got', async () => {
    const { policy, diags } = await resolve({
      confirm: ['createPet', 'DELETE /pets/{id}/photos'],
      tools: { createPet: { name: 'add_pet' } },
    });
    expect(policy).toEqual(['add_pet', 'delete_pets_by_id_photos']);
    expect(diags.filter((d) => d.severity === 'error')).toEqual([]);
  });

  it('names only the tools kept after exclude, and reports an entry that matches nothing', async () => {
    const { policy, diags } = await resolve({
      confirm: ['createPet', 'deletePet', 'nope'],
      exclude: { operationIds: ['deletePet'] },
    });
    expect(policy).toEqual(['createPet']);
    expect(diags.filter((d) => d.severity === 'error')).toEqual([
      expect.objectContaining({ code: 'OTM_CONFIG_NO_MATCH', pointer: 'c.json#/confirm/2' }),
    ]);
  });
});

describe('the confirm key of the config file', () => {
  it('takes the three words or a list of strings, and nothing else', async () => {
    const diags = new Diagnostics();
    for (const [name, confirm] of [
      ['a', 'sometimes'],
      ['b', ['deletePet', '']],
      ['c', true],
    ] as const) {
      writeFileSync(join(work, `${name}.json`), JSON.stringify({ confirm }));
      expect(await loadProjectConfig({ explicit: `${name}.json`, outDir: work, cwd: work }, diags)).toBeUndefined();
    }
    expect(diags.all.map((d) => `${d.code} ${d.pointer}`)).toEqual([
      'OTM_CONFIG_INVALID a.json#/confirm',
      'OTM_CONFIG_INVALID b.json#/confirm/1',
      'OTM_CONFIG_INVALID c.json#/confirm',
    ]);
    writeFileSync(join(work, 'd.json'), JSON.stringify({ confirm: ['deletePet'] }));
    const good = new Diagnostics();
    expect((await loadProjectConfig({ explicit: 'd.json', outDir: work, cwd: work }, good))?.config).toEqual({
      confirm: ['deletePet'],
    });
  });
});
