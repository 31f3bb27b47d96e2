/**
 * Validation (src/load/validate.ts, schema-validation.ts): a document is valid exactly when swagger-parser's own
 * `validate` says so, as is and broken; a broken component is reported once, where it is defined; Swagger 2.0's
 * rules beyond its schema are checked; and generation never changes the loaded document, which the pipeline
 * validates after emitting.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { projectNames } from '../../../src/emit/project-name.js';
import { planProject } from '../../../src/emit/plan.js';
import { loadSpec } from '../../../src/load/load-spec.js';
import { readDocument } from '../../../src/load/read-document.js';
import { validationDiagnostics } from '../../../src/load/validate.js';
import { normalizeSpec } from '../../../src/normalize/index.js';
import { resolveOptions } from '../../../src/options.js';
import { mapTools } from '../../../src/tools/index.js';
import { escapeToken } from '../../../src/util/json-pointer.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

type Doc = Record<string, unknown>;

async function swaggerParserSaysValid(document: Doc): Promise<boolean> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never);
    return true;
  } catch {
    return false;
  }
}

/** Breaks shared components (so errors repeat wherever they are referenced), parameters and operations. */
function broken(document: Doc): Doc {
  const copy = structuredClone(document);
  const components = (copy['components'] as Doc | undefined) ?? {};
  const schemas = ((components['schemas'] ?? copy['definitions']) as Record<string, Doc> | undefined) ?? {};
  for (const name of Object.keys(schemas).slice(0, 4))
    Object.assign(schemas[name]!, { type: 'objekt', unknownKeyword: true });
  const parameters = ((components['parameters'] ?? copy['parameters']) as Record<string, Doc> | undefined) ?? {};
  for (const name of Object.keys(parameters).slice(0, 2)) parameters[name]!['in'] = 'nowhere';
  const paths = (copy['paths'] as Record<string, Record<string, Doc>>) ?? {};
  for (const item of Object.values(paths).slice(0, 2))
    for (const op of Object.values(item)) if (op && typeof op === 'object') delete op['responses'];
  return copy;
}

/**
 * References nobody follows (`#name` is no JSON pointer) where an object or a reference may stand, valid and
 * not: the one place a value with `$ref` reaches the check of a dereferenced document.
 */
function withUnfollowedRefs(document: Doc): Doc {
  const copy = structuredClone(document);
  const paths = (copy['paths'] as Record<string, Record<string, Doc>>) ?? {};
  const [first, second] = Object.values(paths).flatMap((item) =>
    Object.values(item).filter((op) => op && typeof op === 'object' && op['responses']),
  );
  if (first) (first['responses'] as Doc)['418'] = { $ref: '#teapot' };
  if (second) (second['responses'] as Doc)['418'] = { $ref: '#teapot', description: 'both a reference and a response' };
  return copy;
}

const specFiles = [
  ...readdirSync(join(REPO_ROOT, 'fixtures', 'specs', 'features')).map((f) =>
    join(REPO_ROOT, 'fixtures', 'specs', 'features', f),
  ),
  join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
  ...[
    'petstore-v2-classic/petstore.json',
    'petstore-v3/openapi.yaml',
    'train-travel/openapi.yaml',
    'spotify/fixed-spotify-open-api.yml',
    'intellifi/openapi.yml',
  ]
    .map((f) => join(REPO_ROOT, '..', 'shared', 'specs', f))
    .filter((f) => existsSync(f)),
];

function isOpenApi31(file: string): boolean {
  return /^\s*"?openapi"?\s*:\s*["']?3\.1/m.test(readFileSync(file, 'utf8'));
}

describe.each(specFiles)('%s', (file) => {
  it('is valid exactly when swagger-parser says so, as is and broken', async () => {
    const document = await readDocument(file, new Diagnostics());
    for (const variant of [document, broken(document), withUnfollowedRefs(document)]) {
      const warnings = await validationDiagnostics(variant);
      expect(warnings.length === 0).toBe(await swaggerParserSaysValid(variant));
    }
  });

  // The 3.1 schema leaves Schema Objects to JSON Schema: a broken one is no error of the document there.
  it.skipIf(isOpenApi31(file))('reports a broken shared component where it is defined', async () => {
    const document = broken(await readDocument(file, new Diagnostics()));
    const at = document['swagger'] ? '#/definitions/' : '#/components/schemas/';
    const names = Object.keys(
      ((document['definitions'] ?? (document['components'] as Doc | undefined)?.['schemas']) as Doc | undefined) ?? {},
    ).slice(0, 4);
    const pointers = (await validationDiagnostics(document)).map((d) => d.pointer);
    expect(pointers.length).toBeGreaterThan(0);
    for (const name of names)
      expect(
        pointers.some((p) => p.startsWith(`${at}${escapeToken(name)}`)),
        name,
      ).toBe(true);
  });

  it('is not changed by validation nor by generation', async () => {
    const diags = new Diagnostics();
    const loaded = await loadSpec(file, diags, { validate: true });
    const before = JSON.stringify(loaded.document);
    const api = normalizeSpec(loaded, diags);
    await planProject(api, mapTools(api, diags), resolveOptions({ spec: file }), projectNames({}, api.title));
    expect(JSON.stringify(loaded.document)).toBe(before);
  });
});

describe('Swagger 2.0 rules beyond its schema', () => {
  const swagger = (paths: Doc): Doc => ({ swagger: '2.0', info: { title: 't', version: '1' }, paths });
  const op = (operationId: string, extra: Doc = {}): Doc => ({
    operationId,
    responses: { '200': { description: 'ok' } },
    ...extra,
  });

  it('reports a duplicate operation id and an undeclared path parameter, as swagger-parser does', async () => {
    expect(await validationDiagnostics(swagger({ '/a': { get: op('same') }, '/b': { get: op('same') } }))).toEqual([
      {
        code: 'OTM_SPEC_INVALID',
        severity: 'warning',
        pointer: '#',
        message: "Validation failed. Duplicate operation id 'same'",
      },
    ]);
    const [undeclared] = await validationDiagnostics(swagger({ '/a/{id}': { get: op('getA') } }));
    expect(undeclared?.message).toMatch(/path parameter.*id/i);
  });

  it('passes a valid document', async () => {
    expect(
      await validationDiagnostics(
        swagger({
          '/a/{id}': { get: op('getA', { parameters: [{ name: 'id', in: 'path', required: true, type: 'string' }] }) },
        }),
      ),
    ).toEqual([]);
  });
});

describe('a document nested too deeply to validate', () => {
  it('is one warning, not a crash: generation goes on unvalidated', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 20_000; i++) schema = { type: 'object', properties: { next: schema } };
    const document = {
      openapi: '3.0.3',
      info: { title: 'deep', version: '1' },
      paths: {
        '/a': { get: { responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } } } },
      },
    };
    const diagnostics = await validationDiagnostics(document);
    expect(diagnostics).toEqual([
      expect.objectContaining({
        code: 'OTM_SPEC_INVALID',
        severity: 'warning',
        pointer: '#',
        message: expect.stringMatching(/nests too deeply/),
      }),
    ]);
  });
});
