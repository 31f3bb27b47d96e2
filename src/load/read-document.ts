/**
 * Reads the document (file or URL, YAML or JSON) and bundles multi-file `$ref`s into one document with
 * internal refs only. A document already in that shape (see canonical-refs.ts) is only parsed: bundling would
 * return it unchanged, slowly. A bundle that fails (a 3.1 anchor ref, a missing file) falls back to the main
 * document alone, so the operations that do not depend on the broken ref still generate.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { UserError } from '../diagnostics/errors.js';
import { isPlainObject } from '../util/stable.js';
import { errorMessage, firstLine } from '../util/error-text.js';
import { hasCanonicalRefs } from './canonical-refs.js';

export async function readDocument(input: string, diags: Diagnostics): Promise<Record<string, unknown>> {
  let parsed: Record<string, unknown>;
  try {
    parsed = asDocument(await SwaggerParser.parse(input));
  } catch (parseError) {
    if (isNotOpenApiError(parseError)) throw notOpenApi(parseError);
    throw cannotRead(input, parseError);
  }
  if (hasCanonicalRefs(parsed)) return parsed;
  try {
    return asDocument(await SwaggerParser.bundle(input));
  } catch (bundleError) {
    if (isNotOpenApiError(bundleError)) throw notOpenApi(bundleError);
    diags.warn(
      'OTM_BUNDLE_FALLBACK',
      '#',
      `Some $refs could not be resolved (${firstLine(errorMessage(bundleError))}); unresolved ones are treated as free-form values`,
    );
    return parsed;
  }
}

function asDocument(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw notOpenApi(new Error('the document is not an object'));
  return value;
}

function isNotOpenApiError(error: unknown): boolean {
  return /is not a valid (Swagger|OpenAPI)|Unsupported (Swagger|OpenAPI) version|not a valid API definition/i.test(
    errorMessage(error),
  );
}

/** Not a document this tool reads: an unsupported version of one (swagger-parser says which), or no OpenAPI at all. */
function notOpenApi(error: unknown): UserError {
  const message = firstLine(errorMessage(error));
  const version = /Unsupported (Swagger|OpenAPI) version: (\d+(?:\.\d+)*)/.exec(message);
  if (version) return unsupportedVersion(version[2]!, version[1] === 'Swagger' ? '#/swagger' : '#/openapi');
  return new UserError(`Not an OpenAPI or Swagger document: ${message}`, [
    { code: 'OTM_NOT_OPENAPI', severity: 'error', pointer: '#', message },
  ]);
}

export function unsupportedVersion(version: string, pointer: string): UserError {
  const message = `version ${version}`;
  return new UserError(`Unsupported spec version ${version}: use Swagger 2.0, OpenAPI 3.0.x or 3.1.x`, [
    { code: 'OTM_UNSUPPORTED_VERSION', severity: 'error', pointer, message },
  ]);
}

function cannotRead(input: string, error: unknown): UserError {
  const message = errorMessage(error);
  const d = { code: 'OTM_LOAD_FAILED', severity: 'error', pointer: '#', message } as const;
  return new UserError(`Cannot read ${input}: ${firstLine(message)}`, [d]);
}
