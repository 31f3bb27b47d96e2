/**
 * Every real API description in ../shared/specs generates without crashing, with no error diagnostics beyond
 * the known ones in fixtures/expected-diagnostics.json (a burn-down list that also fails when an entry goes
 * stale), valid unique tool names, input schemas that compile with Ajv 2020-12 in strict mode, and object-rooted
 * output schemas.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/pipeline.js';
import { assembleInputSchema, listAllTools } from '../templates/runtime/contract/listing.js';
import type { Catalog } from '../templates/runtime/contract/catalog.js';
import { REPO_ROOT } from './helpers/generated-project.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
const manifest = existsSync(join(SPECS_DIR, 'MANIFEST.tsv'))
  ? readFileSync(join(SPECS_DIR, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
  : [];
const expected = JSON.parse(readFileSync(join(REPO_ROOT, 'fixtures', 'expected-diagnostics.json'), 'utf8')) as Record<
  string,
  string[]
>;

/** Formats the specs use beyond JSON Schema's own (int64, snowflake, unix-time…): kept as annotations. */
function customFormats(schema: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const s of schema) customFormats(s, into);
  else if (schema && typeof schema === 'object') {
    for (const [k, v] of Object.entries(schema)) {
      if (k === 'format' && typeof v === 'string') into.add(v);
      else customFormats(v, into);
    }
  }
  return into;
}
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({
    strict: true,
    strictTypes: false,
    strictTuples: false,
    allErrors: false,
    validateFormats: true,
  });
  addFormats(ajv);
  return ajv;
}

/** UPDATE_EXPECTED_DIAGNOSTICS=1 rewrites the baseline (review the diff before committing it). */
function recordExpected(name: string, found: string[]): void {
  const path = join(REPO_ROOT, 'fixtures', 'expected-diagnostics.json');
  const current = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string[]>;
  if (found.length > 0) current[name] = [...found].sort();
  else delete current[name];
  const sorted = Object.fromEntries(Object.entries(current).sort(([a], [b]) => (a < b ? -1 : 1)));
  writeFileSync(path, `${JSON.stringify(sorted, null, 2)}\n`);
}

describe.skipIf(manifest.length === 0)('real-world corpus', () => {
  it.each(manifest.map((row) => [row[0]!, row[3]!, Number(row[5])] as const))(
    '%s',
    async (name, mainFile, operations) => {
      const result = await generate({ spec: join(SPECS_DIR, mainFile), validate: false, write: false });
      const found = result.diagnostics.filter((d) => d.severity !== 'info').map((d) => `${d.code} ${d.pointer}`);
      if (process.env['UPDATE_EXPECTED_DIAGNOSTICS']) recordExpected(name, found);
      else
        expect(found.sort(), `unexpected or stale entries in fixtures/expected-diagnostics.json for ${name}`).toEqual(
          [...(expected[name] ?? [])].sort(),
        );
      const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
      expect(catalog.tools.length + result.summary.skipped.length).toBe(operations);
      const names = catalog.tools.map((t) => t.name);
      expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
      for (const n of names) expect(n).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
      const ajv = strictAjv();
      for (const format of customFormats(catalog)) if (!ajv.formats[format]) ajv.addFormat(format, true);
      const failures: string[] = [];
      // Each input schema, and each compact one a hybrid listing shows instead (src/schema/compact-schema.ts).
      const schemas = catalog.tools.flatMap((tool) => [
        { name: tool.name, schema: assembleInputSchema(tool, catalog.defs) },
        ...(tool.compactInputSchema ? [{ name: `${tool.name} (compact)`, schema: tool.compactInputSchema }] : []),
      ]);
      for (const { name: tool, schema } of schemas) {
        if (schema['type'] !== 'object') failures.push(`${tool}: root is not an object`);
        try {
          ajv.compile(schema);
        } catch (error) {
          failures.push(`${tool}: ${(error as Error).message.slice(0, 200)}`);
        }
        ajv.removeSchema();
      }
      expect(failures).toEqual([]);
      // Every tool as tools/list shows it has an object-rooted output schema (the 2025-11-25 wire needs one).
      const listed = listAllTools(catalog);
      expect(listed.filter((t) => t.outputSchema && t.outputSchema.type !== 'object').map((t) => t.name)).toEqual([]);
    },
    120_000,
  );
});
