/**
 * Run by `npm run build` after tsc: compiles the OpenAPI/Swagger schema validators (src/load/schema-validation.ts)
 * to Ajv's standalone code, one module per version and error mode, which the generator then loads instead of
 * compiling the schemas on every generation.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import {
  precompiledValidatorFile,
  SCHEMA_VERSIONS,
  schemaFor,
  VALIDATOR_OPTIONS,
  type SchemaVersion,
} from '../src/load/schema-validation.js';

type AjvInstance = { compile(schema: object): unknown };
type AjvClass = new (options: object) => AjvInstance;

const require = createRequire(import.meta.url);
const standaloneCode = (require('ajv/dist/standalone') as { default: (ajv: AjvInstance, validate: unknown) => string })
  .default;

function ajvFor(version: SchemaVersion, allErrors: boolean): AjvInstance {
  const Ajv =
    version === 'v31'
      ? (require('ajv/dist/2020') as { default: AjvClass }).default
      : (require('ajv-draft-04') as { default: AjvClass }).default;
  return new Ajv({ ...VALIDATOR_OPTIONS, allErrors, code: { source: true } });
}

for (const version of SCHEMA_VERSIONS) {
  for (const allErrors of [false, true]) {
    const ajv = ajvFor(version, allErrors);
    const file = precompiledValidatorFile(version, allErrors);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, standaloneCode(ajv, ajv.compile(schemaFor(version))));
  }
}
