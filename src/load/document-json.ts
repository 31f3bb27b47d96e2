/**
 * The loaded document as compact JSON text, made at most once per generation. JSON.stringify recurses once
 * per level of the document: one nested tens of thousands of levels deep overflows the stack, and is then
 * neither validated nor served as a resource, with one warning saying so; the rest of the pipeline bounds its
 * own walks, so generation goes on.
 */
import type { Diagnostics } from '../diagnostics/diagnostics.js';

export function documentJson(document: Record<string, unknown>, diags: Diagnostics): () => string | undefined {
  let made: { text: string | undefined } | undefined;
  return () => {
    made ??= { text: serialize(document, diags) };
    return made.text;
  };
}

function serialize(document: Record<string, unknown>, diags: Diagnostics): string | undefined {
  try {
    return JSON.stringify(document);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    diags.warn(
      'OTM_SPEC_INVALID',
      '#',
      `the document nests too deeply to be validated or served as a resource (${error.message}): it is not validated, nor served as the openapi.json resource`,
      'name the deeply nested schemas as components and refer to them with $ref',
    );
    return undefined;
  }
}
