/**
 * The lock file: which files this tool wrote (so regeneration knows what it owns, and never touches anything
 * else) and, per tool, the operation it calls, a hash of its input schema (with the shared `$defs` it uses)
 * and a hash of the whole tool. Regeneration diffs the new lock against the previous one (src/diff).
 * User-owned files (src/hooks.ts, the config) are never listed.
 */
import { createHash } from 'node:crypto';
import type { Catalog, CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { LOCK_FILE, type EmittedFile } from '../plan.js';

export interface LockedTool {
  /** `METHOD /path`. */
  operation: string;
  /** The input schema and the shared schemas it references. */
  inputHash: string;
  /** Everything the catalog says about the tool. */
  hash: string;
}

export interface Lock {
  generator: 'openapi-to-mcp';
  generatorVersion: string;
  files: string[];
  tools: Record<string, LockedTool>;
}

/**
 * The lock of a project with these files (their paths: it needs no file's contents, so it is made while they
 * format). `toolJson`: each catalog tool's JSON.stringify, in catalog order, as catalog.json was written from.
 */
export function lockFile(
  paths: readonly string[],
  catalog: Catalog,
  toolJson: readonly string[],
  generatorVersion: string,
): EmittedFile {
  const tools: Record<string, LockedTool> = {};
  const defsJson = defsJsonOf(catalog);
  catalog.tools.forEach((tool, i) => (tools[tool.name] = lockedTool(tool, catalog, defsJson, toolJson[i])));
  const lock: Lock = {
    generator: 'openapi-to-mcp',
    generatorVersion,
    files: [...new Set([...paths, LOCK_FILE])].sort(),
    tools,
  };
  return { path: LOCK_FILE, contents: `${JSON.stringify(lock, null, 2)}\n` };
}

/**
 * `defsJson`: the JSON of each shared schema, which a large API's tools share by the thousand (defsJsonOf).
 * The hashes are of `JSON.stringify([tool.inputSchema, defs])` and `JSON.stringify([tool, defs])`, put
 * together from those pieces.
 */
export function lockedTool(
  tool: CatalogTool,
  catalog: Catalog,
  defsJson = defsJsonOf(catalog),
  json = JSON.stringify(tool),
): LockedTool {
  const defs = `[${tool.defs.map(defsJson).join(',')}]`;
  return {
    operation: `${tool.request.method} ${tool.request.path}`,
    inputHash: hash(`[${JSON.stringify(tool.inputSchema)},${defs}]`),
    hash: hash(`[${json},${defs}]`),
  };
}

/** Each shared schema's JSON, stringified once; `null` for a name the catalog lacks, as in an array. */
function defsJsonOf(catalog: Catalog): (name: string) => string {
  const cache = new Map<string, string>();
  return (name) => {
    let json = cache.get(name);
    if (json === undefined) {
      json = JSON.stringify(Object.hasOwn(catalog.defs, name) ? catalog.defs[name] : null) ?? 'null';
      cache.set(name, json);
    }
    return json;
  };
}

function hash(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 16);
}
