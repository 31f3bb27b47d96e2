import { createHash } from 'node:crypto';
/**
 * generation.json (src/emit/regeneration/generation.ts): the SHA-256 of each data file as written, and a runtime fingerprint
 * that changes with the code the server runs and its dependencies, not with the spec it was generated from.
 */
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../src/pipeline.js';
import { generationFile } from '../../../../src/emit/regeneration/generation.js';
import type { EmittedFile } from '../../../../src/emit/plan.js';
import {
  GENERATION_FILE,
  parseGenerationManifest,
  GENERATION_HASH,
} from '../../../../templates/runtime/contract/generation.js';
import { REPO_ROOT } from '../../../helpers/generated-project.js';

const SPECS = join(REPO_ROOT, 'fixtures', 'specs', 'list-changed');
let v1: EmittedFile[];
let v2: EmittedFile[];

const files = async (spec: string) =>
  (
    await generate({
      spec: join(SPECS, spec),
      out: join(tmpdir(), 'otm-generation-unused'),
      validate: false,
      write: false,
    })
  ).files;
const manifestOf = (emitted: readonly EmittedFile[]) =>
  parseGenerationManifest(emitted.find((f) => f.path === GENERATION_FILE)!.contents)!;
const without = (emitted: readonly EmittedFile[]) => emitted.filter((f) => f.path !== GENERATION_FILE);
const changed = (emitted: readonly EmittedFile[], path: string, edit: (text: string) => string) =>
  without(emitted).map((f) => (f.path === path ? { ...f, contents: edit(f.contents) } : f));

beforeAll(async () => {
  [v1, v2] = await Promise.all([files('v1.yaml'), files('v2.yaml')]);
});

const fileHash = (text: string) => createHash(GENERATION_HASH).update(text).digest('hex');

describe('generation.json', () => {
  it('holds the hash of every data file written, and is listed in the lock', () => {
    const manifest = manifestOf(v1);
    const hash = (path: string) => fileHash(v1.find((f) => f.path === path)!.contents);
    expect(manifest.data).toEqual({
      'catalog.json': hash('catalog.json'),
      'search-index.json': hash('search-index.json'),
      'openapi.json': hash('openapi.json'),
      'operations.md': hash('operations.md'),
    });
    // Made before formatting: the files it reads must come out of formatting unchanged.
    expect(generationFile(without(v1)).contents).toBe(v1.find((f) => f.path === GENERATION_FILE)!.contents);
    const lock = JSON.parse(v1.find((f) => f.path === 'openapi-to-mcp.lock.json')!.contents) as { files: string[] };
    expect(lock.files).toContain(GENERATION_FILE);
  });

  it('has the same runtime fingerprint for another spec (whose title and version are in the headers)', () => {
    expect(v1.find((f) => f.path === 'src/server.ts')!.contents).not.toBe(
      v2.find((f) => f.path === 'src/server.ts')!.contents,
    );
    expect(manifestOf(v2).runtime).toBe(manifestOf(v1).runtime);
    expect(manifestOf(v2).data['catalog.json']).not.toBe(manifestOf(v1).data['catalog.json']);
  });

  it('has another runtime fingerprint when the runtime code or the dependencies change, not the version', () => {
    const runtime = (emitted: EmittedFile[]) => manifestOf([generationFile(emitted)]).runtime;
    const base = runtime(without(v1));
    expect(runtime(changed(v1, 'src/runtime/server/mcp-server.ts', (t) => `${t}\n// changed`))).not.toBe(base);
    expect(runtime(changed(v1, 'src/index.ts', (t) => `${t}\n// changed`))).not.toBe(base);
    const bumpDependency = (text: string) =>
      text.replace(/"@modelcontextprotocol\/server": "[^"]+"/, '"@modelcontextprotocol/server": "9.9.9"');
    expect(runtime(changed(v1, 'package.json', bumpDependency))).not.toBe(base);
    const bumpVersion = (text: string) => text.replace(/"version": "[^"]+"/, '"version": "7.0.0"');
    expect(runtime(changed(v1, 'package.json', bumpVersion))).toBe(base);
    expect(runtime(changed(v1, 'src/tools.ts', (t) => `${t}\n// changed`))).toBe(base);
  });
});
