/** The lock file: which files this tool wrote (so regeneration knows what it owns) and a hash per tool. */
import { createHash } from 'node:crypto';
import type { Catalog } from '../../templates/runtime/catalog.js';
import { LOCK_FILE, type EmittedFile } from './plan.js';

export function lockFile(files: readonly EmittedFile[], catalog: Catalog, generatorVersion: string): EmittedFile {
  const tools: Record<string, { operation: string; hash: string }> = {};
  for (const tool of catalog.tools) {
    const hash = createHash('sha256').update(JSON.stringify([tool, tool.defs.map((d) => catalog.defs[d])])).digest('hex').slice(0, 16);
    tools[tool.name] = { operation: `${tool.request.method} ${tool.request.path}`, hash };
  }
  const lock = {
    generator: 'openapi-to-mcp',
    generatorVersion,
    files: [...files.map((f) => f.path), LOCK_FILE].sort(),
    tools,
  };
  return { path: LOCK_FILE, contents: `${JSON.stringify(lock, null, 2)}\n` };
}
