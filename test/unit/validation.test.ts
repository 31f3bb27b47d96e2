/**
 * Validation gives exactly the warnings swagger-parser's own `validate` gives (on a copy, as the generator
 * used to call it), on valid and broken specs, whichever way the document is dereferenced and checked; and
 * generation never changes the loaded document, which the pipeline validates after emitting.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import SwaggerParser from '@apidevtools/swagger-parser';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/diagnostics/diagnostics.js';
import { projectNames } from '../../src/emit/project-name.js';
import { planProject } from '../../src/emit/plan.js';
import { loadSpec } from '../../src/load/load-spec.js';
import { readDocument } from '../../src/load/read-document.js';
import { validationDiagnostics } from '../../src/load/validate.js';
import { normalizeSpec } from '../../src/normalize/index.js';
import { resolveOptions } from '../../src/options.js';
import { mapTools } from '../../src/tools/index.js';
import { REPO_ROOT } from '../helpers/generated-project.js';

type Doc = Record<string, unknown>;

/** What the generator reported before: swagger-parser's message, one warning per `#/pointer message` line. */
async function swaggerParserWarnings(document: Doc): Promise<Array<[string, string]>> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never);
    return [];
  } catch (error) {
    const lines = (error as Error).message.split('\n').map((l) => l.trim()).filter(Boolean);
    const detailed = lines.filter((l) => l.startsWith('#'));
    if (detailed.length === 0) return [['#', lines.join(' ').split('\n')[0]!.slice(0, 300)]];
    return detailed.slice(0, 200).map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]);
  }
}

/** Breaks shared components (so errors repeat wherever they are referenced), parameters and operations. */
function broken(document: Doc): Doc {
  const copy = structuredClone(document);
  const components = (copy['components'] as Doc | undefined) ?? {};
  const schemas = ((components['schemas'] ?? copy['definitions']) as Record<string, Doc> | undefined) ?? {};
  for (const name of Object.keys(schemas).slice(0, 4)) Object.assign(schemas[name]!, { type: 'objekt', unknownKeyword: true });
  const parameters = ((components['parameters'] ?? copy['parameters']) as Record<string, Doc> | undefined) ?? {};
  for (const name of Object.keys(parameters).slice(0, 2)) parameters[name]!['in'] = 'nowhere';
  const paths = (copy['paths'] as Record<string, Record<string, Doc>>) ?? {};
  for (const item of Object.values(paths).slice(0, 2)) for (const op of Object.values(item)) if (op && typeof op === 'object') delete op['responses'];
  return copy;
}

/**
 * References nobody follows (`#name` is no JSON pointer) where an object or a reference may stand, valid and
 * not: the one place a value with `$ref` reaches the check of a dereferenced document.
 */
function withUnfollowedRefs(document: Doc): Doc {
  const copy = structuredClone(document);
  const paths = (copy['paths'] as Record<string, Record<string, Doc>>) ?? {};
  const [first, second] = Object.values(paths).flatMap((item) => Object.values(item).filter((op) => op && typeof op === 'object' && op['responses']));
  if (first) (first['responses'] as Doc)['418'] = { $ref: '#teapot' };
  if (second) (second['responses'] as Doc)['418'] = { $ref: '#teapot', description: 'both a reference and a response' };
  return copy;
}

const specFiles = [
  ...readdirSync(join(REPO_ROOT, 'fixtures', 'specs', 'features')).map((f) => join(REPO_ROOT, 'fixtures', 'specs', 'features', f)),
  join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
  ...['petstore-v2-classic/petstore.json', 'petstore-v3/openapi.yaml', 'train-travel/openapi.yaml', 'spotify/fixed-spotify-open-api.yml', 'intellifi/openapi.yml']
    .map((f) => join(REPO_ROOT, '..', 'shared', 'specs', f))
    .filter((f) => existsSync(f)),
];

describe.each(specFiles)('%s', (file) => {
  it('is validated as swagger-parser validates it, as is and broken', async () => {
    const { document } = await readDocument(file, new Diagnostics());
    for (const variant of [document, broken(document), withUnfollowedRefs(document)]) {
      const warnings = (await validationDiagnostics(variant)).filter((d) => !d.message.endsWith('more validation messages not shown'));
      expect(warnings.map((d) => [d.pointer, d.message.slice(0, 300)])).toEqual((await swaggerParserWarnings(variant)).map(([p, m]) => [p, m.slice(0, 300)]));
    }
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
