/**
 * The lock file: which files this tool wrote (so regeneration knows what it owns, and never touches anything
 * else) and, per tool, the operation it calls, a hash of its input schema (with the shared `$defs` it uses)
 * and a hash of the whole tool. Regeneration diffs the new lock against the previous one (src/diff).
 * User-owned files (src/hooks.ts, the config) are never listed.
 */
import { createHash } from 'node:crypto';
import type { Catalog, CatalogTool } from '../../templates/runtime/catalog.js';
import { LOCK_FILE, type EmittedFile } from './plan.js';

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

export function lockFile(files: readonly EmittedFile[], catalog: Catalog, generatorVersion: string): EmittedFile {
  const tools: Record<string, LockedTool> = {};
  for (const tool of catalog.tools) tools[tool.name] = lockedTool(tool, catalog);
  const lock: Lock = {
    generator: 'openapi-to-mcp',
    generatorVersion,
    files: [...new Set([...files.map((f) => f.path), LOCK_FILE])].sort(),
    tools,
  };
  return { path: LOCK_FILE, contents: `${JSON.stringify(lock, null, 2)}\n` };
}

export function lockedTool(tool: CatalogTool, catalog: Catalog): LockedTool {
  const defs = tool.defs.map((d) => catalog.defs[d]);
  return {
    operation: `${tool.request.method} ${tool.request.path}`,
    inputHash: hash([tool.inputSchema, defs]),
    hash: hash([tool, defs]),
  };
}

function hash(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}
