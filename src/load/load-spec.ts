/**
 * Stage 1: read the document (file or URL, YAML or JSON), bundle multi-file `$ref`s into one document with
 * internal refs only (read-document.ts), and validate it (validate.ts). Validation problems are warnings: real
 * specs are often slightly invalid and still describe a usable API.
 */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { SpecDialect } from '../ir/types.js';
import { documentJson } from './document-json.js';
import { readDocument, unsupportedVersion } from './read-document.js';
import { validationDiagnostics } from './validate.js';

export interface LoadedSpec {
  document: Record<string, unknown>;
  dialect: SpecDialect;
  /** The spec's own URL, when it was fetched over http(s): relative server URLs resolve against it. */
  sourceUrl?: string;
}

export interface LoadOptions {
  validate: boolean;
}

export interface Loaded extends LoadedSpec {
  /**
   * The document as compact JSON, made once: the API description resource is this text. Undefined for a
   * document nested too deeply to serialize (warned), which is then not validated either.
   */
  json: () => string | undefined;
}

/** Loads the document, then validates it as loaded (validate.ts), its warnings added after the load's. */
export async function loadSpec(input: string, diags: Diagnostics, options: LoadOptions): Promise<Loaded> {
  const document = await readDocument(input, diags);
  const dialect = detectDialect(document);
  const source = /^https?:\/\//i.test(input) ? { sourceUrl: input } : {};
  const json = documentJson(document, diags);
  // A document too deep to serialize is neither validated nor served (document-json.ts warned once, for both).
  if (options.validate && json() !== undefined) for (const d of await validationDiagnostics(document)) diags.add(d);
  return { document, dialect, ...source, json };
}

function detectDialect(document: Record<string, unknown>): SpecDialect {
  const swagger = document['swagger'];
  const openapi = document['openapi'];
  if (swagger !== undefined) {
    if (String(swagger) === '2.0') return 'swagger-2.0';
  } else if (typeof openapi === 'string') {
    if (openapi.startsWith('3.0')) return 'openapi-3.0';
    if (openapi.startsWith('3.1')) return 'openapi-3.1';
  }
  throw unsupportedVersion(String(swagger ?? openapi), swagger !== undefined ? '#/swagger' : '#/openapi');
}
