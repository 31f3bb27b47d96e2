/**
 * The document's JSON text (src/load/document-json.ts): made once, for the API description resource; a
 * document too deep to serialize is one warning, and generation goes on without validating or serving it,
 * from the sources and from the built generator.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { documentJson } from '../../../src/load/document-json.js';
import { generate } from '../../../src/pipeline.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const DEPTH = 200_000;

function deepSchemaText(): string {
  let text = '{"type":"string"}';
  for (let i = 0; i < DEPTH; i++) text = `{"properties":{"next":${text}}}`;
  return text;
}

const dir = mkdtempSync(join(tmpdir(), 'otm-deep-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('documentJson', () => {
  it('is the compact JSON of the document, made once', () => {
    const document = { openapi: '3.0.3', info: { title: 'T', version: '1' }, paths: {} };
    const diags = new Diagnostics();
    const json = documentJson(document, diags);
    const first = json();
    document.info.title = 'changed after the first call';
    expect(first).toBe('{"openapi":"3.0.3","info":{"title":"T","version":"1"},"paths":{}}');
    expect(json()).toBe(first);
    expect(diags.all).toEqual([]);
  });

  it('is undefined for a document too deep to serialize, with one warning however often it is asked', () => {
    const document = { openapi: '3.0.3', deep: JSON.parse(deepSchemaText()) as unknown };
    const diags = new Diagnostics();
    const json = documentJson(document, diags);
    expect(json()).toBeUndefined();
    expect(json()).toBeUndefined();
    expect(diags.all).toEqual([
      expect.objectContaining({ code: 'OTM_SPEC_INVALID', severity: 'warning', pointer: '#' }),
    ]);
    expect(diags.all[0]!.message).toMatch(/nests too deeply to be validated or served as a resource/);
  });
});

describe('generating a document too deep to serialize', () => {
  const spec = join(dir, 'deep.json');
  writeFileSync(
    spec,
    `{"openapi":"3.0.3","info":{"title":"Deep","version":"1"},"servers":[{"url":"https://api.example.com"}],` +
      `"paths":{"/a":{"get":{"operationId":"getA","responses":{"200":{"description":"ok"}}}}},` +
      `"components":{"schemas":{"Deep":${deepSchemaText()}}}}`,
  );
  const built = join(REPO_ROOT, 'dist', 'src', 'index.js');

  it.each([
    ['on this thread', async () => generate({ spec, write: false })],
    [
      'from the built generator',
      async () => ((await import(built)) as { generate: typeof generate }).generate({ spec, write: false }),
    ],
  ])('generates the operations %s, warned, without the document resource', async (_, run) => {
    expect(existsSync(built)).toBe(true);
    const result = await run();
    expect(result.summary.tools).toBe(1);
    const tooDeep = result.diagnostics.filter((d) => /nests too deeply/.test(d.message));
    expect(tooDeep).toHaveLength(1);
    expect(result.files.map((f) => f.path)).not.toContain('openapi.json');
    expect(result.files.map((f) => f.path)).toContain('operations.md');
    const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as {
      resources?: { documents: Array<{ file: string }> };
    };
    expect(catalog.resources?.documents.map((d) => d.file)).toEqual(['operations.md']);
  });
});
