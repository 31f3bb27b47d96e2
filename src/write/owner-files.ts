/**
 * The owner's files in an existing project (USER_OWNED_FILES) against the tools a regeneration makes: tool
 * names they use that are gone become warnings, before anything is written. Only files their owner changed
 * are read, so a first generation, or a project whose owner files are as first written, never loads ts-morph.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { userOwnedFiles } from '../emit/deploy/publish.js';
import type { ToolModel } from '../ir/types.js';

/** The owner's files under `outDir` that differ from the ones the generator first writes. */
export function changedOwnedFiles(outDir: string): string[] {
  return userOwnedFiles()
    .filter(({ path, contents }) => {
      const full = join(outDir, path);
      return existsSync(full) && readFileSync(full, 'utf8') !== contents;
    })
    .map(({ path }) => path);
}

export async function warnStaleOwnerCode(
  outDir: string,
  tools: readonly ToolModel[],
  diags: Diagnostics,
): Promise<void> {
  const changed = changedOwnedFiles(outDir);
  if (changed.length === 0) return;
  const { staleToolReferences } = await import('./owner-code.js');
  const generated = tools.map((t) => ({
    name: t.name,
    operation: `${t.source.method.toUpperCase()} ${t.source.path}`,
  }));
  const pointers = new Map(tools.map((t) => [t.name, t.source.pointer]));
  for (const ref of staleToolReferences(outDir, changed, generated)) {
    const where = `${ref.file}:${ref.line}`;
    if (ref.renamedTo) {
      diags.warn(
        'OTM_OWNER_CODE_STALE',
        pointers.get(ref.renamedTo)!,
        `${where} uses tool ${ref.name}, which this regeneration renamed to ${ref.renamedTo} (${ref.operation})`,
        `Rename it in ${ref.file}.`,
      );
    } else {
      diags.warn(
        'OTM_OWNER_CODE_STALE',
        '#/paths',
        `${where} uses tool ${ref.name}, which this API no longer has${ref.operation ? ` (it called ${ref.operation})` : ''}`,
        `Remove it from ${ref.file}, or use another tool.`,
      );
    }
  }
}
