/**
 * Spec validation, as swagger-parser does it (dereference, then the OpenAPI/Swagger JSON Schema, then its
 * Swagger 2.0 rules), turned into OTM_SPEC_INVALID warnings: real specs are often slightly invalid and still
 * describe a usable API. The document is left unchanged.
 *
 * A canonical document with simple, acyclic refs is dereferenced in place for the time of the check (one walk,
 * canonical-refs.ts; the refs are put back after) and checked as swagger-parser checks it
 * (schema-validation.ts, then its Swagger 2.0 rules): the same messages as `SwaggerParser.validate`, without
 * copying the whole document first, and without checking each shared component again wherever it is
 * referenced, which costs seconds on a large spec. Any other document goes through `SwaggerParser.validate`,
 * as a copy since it dereferences what it validates.
 */
import { createRequire } from 'node:module';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { inspectRefs, withDereferenced, type RefShape } from './canonical-refs.js';
import { errorMessage, firstLine } from './read-document.js';
import { validateSchema } from './schema-validation.js';

const MAX_VALIDATION_DIAGNOSTICS = 200;

const require = createRequire(import.meta.url);

/** `refs`: what inspectRefs found for this document, if it was run on it already. */
export async function validationDiagnostics(document: Record<string, unknown>, refs?: RefShape): Promise<Diagnostic[]> {
  try {
    const { dereference } = refs ?? inspectRefs(document);
    if (!withDereferenced(document, dereference, validateDereferenced)) await SwaggerParser.validate(structuredClone(document) as never);
    return [];
  } catch (error) {
    return asDiagnostics(errorMessage(error));
  }
}

/** What `SwaggerParser.validate` does once it has dereferenced the document (no circular refs). */
function validateDereferenced(document: Record<string, unknown>): void {
  validateSchema(document);
  (require('@apidevtools/swagger-parser/lib/validators/spec.js') as (api: unknown) => void)(document);
}

/** swagger-parser lists schema errors one a line, as `#/pointer message`. */
function asDiagnostics(message: string): Diagnostic[] {
  const warning = (pointer: string, text: string): Diagnostic => ({ code: 'OTM_SPEC_INVALID', severity: 'warning', pointer, message: text });
  const lines = message.split('\n').map((l) => l.trim()).filter(Boolean);
  const detailed = lines.filter((l) => l.startsWith('#'));
  if (detailed.length === 0) return [warning('#', firstLine(lines.join(' ')))];
  const diagnostics = detailed.slice(0, MAX_VALIDATION_DIAGNOSTICS).map((line) => {
    const space = line.indexOf(' ');
    return warning(space > 0 ? line.slice(0, space) : line, space > 0 ? line.slice(space + 1) : 'invalid');
  });
  if (detailed.length > MAX_VALIDATION_DIAGNOSTICS) {
    diagnostics.push(warning('#', `${detailed.length - MAX_VALIDATION_DIAGNOSTICS} more validation messages not shown`));
  }
  return diagnostics;
}
