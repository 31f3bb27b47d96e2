/**
 * Stage 1: read the document (file or URL, YAML or JSON), bundle multi-file `$ref`s into one document with
 * internal refs only (read-document.ts), and validate it (validate.ts). Validation problems are warnings: real
 * specs are often slightly invalid and still describe a usable API.
 */
import type { Diagnostic, Diagnostics } from '../diagnostics/diagnostics.js';
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

export interface StartedLoad {
  loaded: LoadedSpec;
  /**
   * The document as compact JSON, made once: the API description resource is this text. Undefined for a
   * document nested too deeply to serialize (warned), which is then not validated either.
   */
  json: () => string | undefined;
  /** The validation warnings (none when not validating), checked on the document as loaded. */
  validate(): Promise<Diagnostic[]>;
}

/** Loads and validates, in that order. */
export async function loadSpec(input: string, diags: Diagnostics, options: LoadOptions): Promise<LoadedSpec> {
  const { loaded, validate } = await startLoad(input, diags, options);
  for (const d of await validate()) diags.add(d);
  return loaded;
}

/** Loads the document and validates it as loaded (validate.ts); the warnings are joined after emit. */
export async function startLoad(input: string, diags: Diagnostics, options: LoadOptions): Promise<StartedLoad> {
  const document = await readDocument(input, diags);
  const dialect = detectDialect(document);
  const loaded = /^https?:\/\//i.test(input) ? { document, dialect, sourceUrl: input } : { document, dialect };
  const json = documentJson(document, diags);
  // A document too deep to serialize is neither validated nor served (document-json.ts warned once, for both).
  const validation = options.validate && json() !== undefined ? validationDiagnostics(document) : Promise.resolve([]);
  validation.catch(() => undefined); // awaited after emit, or not at all when an earlier stage failed
  return { loaded, json, validate: () => validation };
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
