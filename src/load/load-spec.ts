/**
 * Stage 1: read the document (file or URL, YAML or JSON), bundle multi-file `$ref`s into one document with
 * internal refs only, and validate a copy. Validation problems are warnings: real specs are often slightly
 * invalid and still describe a usable API.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { Diagnostics } from '../diagnostics/diagnostics.js';
import { UserError } from '../diagnostics/errors.js';
import type { SpecDialect } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';

export interface LoadedSpec {
  document: Record<string, unknown>;
  dialect: SpecDialect;
  /** The spec's own URL, when it was fetched over http(s): relative server URLs resolve against it. */
  sourceUrl?: string;
}

export interface LoadOptions {
  validate: boolean;
}

const MAX_VALIDATION_DIAGNOSTICS = 200;

export async function loadSpec(input: string, diags: Diagnostics, options: LoadOptions): Promise<LoadedSpec> {
  const document = await bundleOrParse(input, diags);
  const dialect = detectDialect(document, diags);
  if (options.validate) await validateCopy(document, diags);
  return /^https?:\/\//i.test(input) ? { document, dialect, sourceUrl: input } : { document, dialect };
}

async function bundleOrParse(input: string, diags: Diagnostics): Promise<Record<string, unknown>> {
  try {
    return asDocument(await SwaggerParser.bundle(input));
  } catch (bundleError) {
    if (isNotOpenApiError(bundleError)) throw notOpenApi(bundleError);
    // A ref the resolver cannot follow (a 3.1 anchor ref, a missing file) fails the whole bundle. Parse the
    // main document alone so the operations that do not depend on it still generate.
    let parsed: Record<string, unknown>;
    try {
      parsed = asDocument(await SwaggerParser.parse(input));
    } catch (parseError) {
      if (isNotOpenApiError(parseError)) throw notOpenApi(parseError);
      const message = errorMessage(parseError);
      const d = { code: 'OTM_LOAD_FAILED', severity: 'error', pointer: '#', message } as const;
      throw new UserError(`Cannot read ${input}: ${firstLine(message)}`, [d]);
    }
    diags.warn('OTM_BUNDLE_FALLBACK', '#', `Some $refs could not be resolved (${firstLine(errorMessage(bundleError))}); unresolved ones are treated as free-form values`);
    return parsed;
  }
}

function detectDialect(document: Record<string, unknown>, diags: Diagnostics): SpecDialect {
  const swagger = document['swagger'];
  const openapi = document['openapi'];
  if (swagger !== undefined) {
    if (String(swagger) === '2.0') return 'swagger-2.0';
  } else if (typeof openapi === 'string') {
    if (openapi.startsWith('3.0')) return 'openapi-3.0';
    if (openapi.startsWith('3.1')) return 'openapi-3.1';
  }
  const version = String(swagger ?? openapi);
  const d = { code: 'OTM_UNSUPPORTED_VERSION', severity: 'error', pointer: '#', message: `version ${version}` } as const;
  diags.add(d);
  throw new UserError(`Unsupported spec version ${version}: use Swagger 2.0, OpenAPI 3.0.x or 3.1.x`, [d]);
}

async function validateCopy(document: Record<string, unknown>, diags: Diagnostics): Promise<void> {
  try {
    // swagger-parser dereferences (and so mutates) what it validates: give it a copy.
    await SwaggerParser.validate(structuredClone(document) as never);
  } catch (error) {
    const lines = errorMessage(error).split('\n').map((l) => l.trim()).filter(Boolean);
    const detailed = lines.filter((l) => l.startsWith('#'));
    if (detailed.length === 0) {
      diags.warn('OTM_SPEC_INVALID', '#', firstLine(lines.join(' ')));
      return;
    }
    for (const line of detailed.slice(0, MAX_VALIDATION_DIAGNOSTICS)) {
      const space = line.indexOf(' ');
      const pointer = space > 0 ? line.slice(0, space) : line;
      diags.warn('OTM_SPEC_INVALID', pointer, space > 0 ? line.slice(space + 1) : 'invalid');
    }
    if (detailed.length > MAX_VALIDATION_DIAGNOSTICS) {
      diags.warn('OTM_SPEC_INVALID', '#', `${detailed.length - MAX_VALIDATION_DIAGNOSTICS} more validation messages not shown`);
    }
  }
}

function asDocument(value: unknown): Record<string, unknown> {
  if (!isPlainObject(value)) throw notOpenApi(new Error('the document is not an object'));
  return value;
}

function isNotOpenApiError(error: unknown): boolean {
  return /is not a valid (Swagger|OpenAPI)|Unsupported (Swagger|OpenAPI) version|not a valid API definition/i.test(errorMessage(error));
}

function notOpenApi(error: unknown): UserError {
  const message = firstLine(errorMessage(error));
  return new UserError(`Not an OpenAPI or Swagger document: ${message}`, [
    { code: 'OTM_NOT_OPENAPI', severity: 'error', pointer: '#', message },
  ]);
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
