/**
 * generation.json: what one generation wrote, for a running server to tell a complete regeneration of its
 * project from a half-written one. It holds a SHA-256 (GENERATION_HASH, hex) of every data file the server reads (catalog.json,
 * search-index.json, …) and a fingerprint of the code the server runs; the generator writes it (src/emit/
 * generation.ts) and the catalog watch reads it (catalog-watch.ts). A set of files is consistent exactly when
 * each one hashes to what the manifest says, whatever order a writer used.
 */
export const GENERATION_FILE = 'generation.json';

/** The files a reload reads, relative to catalog.json; the manifest lists those the generation wrote. */
export const DATA_FILES = [
  'catalog.json',
  'search-index.json',
  'code-declarations.json',
  'openapi.json',
  'operations.md',
] as const;

export type DataFile = (typeof DATA_FILES)[number];

export interface GenerationManifest {
  generator: 'openapi-to-mcp';
  /** Of the code the Node entry loads (src/index.ts, src/server.ts, src/runtime/) and its dependencies. */
  runtime: string;
  /** SHA-256 (hex) of each data file written. */
  data: Partial<Record<DataFile, string>>;
}

/** How each side hashes a file (node:crypto's `createHash(GENERATION_HASH)`, hex digest): the contract stays free of platform modules. */
export const GENERATION_HASH = 'sha256';

/** The manifest's text, or undefined when it is not one (a damaged or foreign file). */
export function parseGenerationManifest(text: string): GenerationManifest | undefined {
  try {
    const value = JSON.parse(text) as Partial<GenerationManifest>;
    if (value.generator !== 'openapi-to-mcp' || typeof value.runtime !== 'string') return undefined;
    if (typeof value.data !== 'object' || value.data === null || typeof value.data['catalog.json'] !== 'string')
      return undefined;
    return value as GenerationManifest;
  } catch {
    return undefined;
  }
}

/** The data files whose hash differs between two manifests (added and removed ones included). */
export function changedDataFiles(before: GenerationManifest, after: GenerationManifest): DataFile[] {
  return DATA_FILES.filter((file) => before.data[file] !== after.data[file]);
}
