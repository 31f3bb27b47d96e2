/**
 * Spec validation turned into OTM_SPEC_INVALID warnings: real specs are often slightly invalid and still
 * describe a usable API. The document is left unchanged.
 *
 * Two checks, as swagger-parser's `validate` makes them: the document against its version's JSON Schema
 * (schema-validation.ts, on the document as written), and for Swagger 2.0 the rules that schema cannot express
 * (unique operation ids, declared path parameters, …), through swagger-parser's public `validate` with only
 * those rules on (it dereferences, so it is given a copy). OpenAPI 3.x has no such rules in swagger-parser.
 */
import type { Diagnostic } from '../diagnostics/diagnostics.js';
import { errorMessage, firstLine } from '../util/error-text.js';
import { schemaErrors } from './schema-validation.js';

const MAX_VALIDATION_DIAGNOSTICS = 200;

/** The warnings of the document as loaded. */
export async function validationDiagnostics(document: Record<string, unknown>): Promise<Diagnostic[]> {
  let lines: string[];
  try {
    lines = schemaErrors(document);
  } catch (error) {
    // Ajv's compiled validators recurse once per level of the document: a document nested thousands of levels
    // deep overflows the stack. The rest of the pipeline bounds its own walks, so generation goes on unvalidated.
    if (!(error instanceof RangeError)) throw error;
    return [nestsTooDeeply(error)];
  }
  if (lines.length > 0) return asDiagnostics(lines);
  if (!document['swagger']) return [];
  // Loaded only here: validation needs swagger-parser for Swagger 2.0 documents alone.
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  try {
    await SwaggerParser.validate(structuredClone(document) as never, { validate: { schema: false, spec: true } });
    return [];
  } catch (error) {
    return asDiagnostics(errorMessage(error).split('\n'));
  }
}

function nestsTooDeeply(error: RangeError): Diagnostic {
  return {
    code: 'OTM_SPEC_INVALID',
    severity: 'warning',
    pointer: '#',
    message: `the document nests too deeply to be validated (${error.message}); it was not validated`,
  };
}

/** One warning per `#/pointer message` line; a message without pointers is one warning at the root. */
function asDiagnostics(message: readonly string[]): Diagnostic[] {
  const warning = (pointer: string, text: string): Diagnostic => ({
    code: 'OTM_SPEC_INVALID',
    severity: 'warning',
    pointer,
    message: text,
  });
  const lines = message.map((l) => l.trim()).filter(Boolean);
  const detailed = lines.filter((l) => l.startsWith('#'));
  if (detailed.length === 0) return [warning('#', firstLine(lines.join(' ')))];
  const diagnostics = detailed.slice(0, MAX_VALIDATION_DIAGNOSTICS).map((line) => {
    const space = line.indexOf(' ');
    return warning(space > 0 ? line.slice(0, space) : line, space > 0 ? line.slice(space + 1) : 'invalid');
  });
  if (detailed.length > MAX_VALIDATION_DIAGNOSTICS) {
    diagnostics.push(
      warning('#', `${detailed.length - MAX_VALIDATION_DIAGNOSTICS} more validation messages not shown`),
    );
  }
  return diagnostics;
}
