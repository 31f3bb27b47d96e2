/** The regeneration report as printed on stderr: the tool-surface diff, then the files that change. */
import type { Regeneration } from './index.js';

const MAX_FILE_NAMES = 8;

export function formatRegeneration(regen: Regeneration): string[] {
  if (regen.folder !== 'generated') return [];
  const surface = regen.surface;
  const lines: string[] = [];
  if (!surface || surface.changes.length === 0) {
    if (!regen.stale) return ['openapi-to-mcp: no changes'];
    lines.push('openapi-to-mcp: tool surface unchanged since the last generation');
  } else {
    const counts = [
      `${surface.added} added`,
      `${surface.removed} removed`,
      `${surface.renamed} renamed`,
      `${surface.changed} changed`,
    ].join(', ');
    lines.push(
      `openapi-to-mcp: tool surface changed since the last generation: ${counts} (${surface.breaking} breaking)`,
    );
    for (const change of surface.changes) {
      const where = `(${change.operation})`;
      const flags = change.kind === 'removed' || change.kind === 'renamed' ? ` BREAKING: ${change.breaking[0]}` : '';
      const details =
        change.kind === 'removed' || change.kind === 'renamed' ? change.breaking.slice(1) : change.breaking;
      switch (change.kind) {
        case 'added':
          lines.push(`  + ${change.name} ${where}`);
          break;
        case 'removed':
          lines.push(`  - ${change.name} ${where}${flags}`);
          break;
        case 'renamed':
          lines.push(
            `  ~ ${change.previousName} → ${change.name} ${where}${flags}${change.summary ? `; ${change.summary}` : ''}`,
          );
          break;
        case 'changed':
          lines.push(`  ~ ${change.name} ${where} ${change.summary ?? 'changed'}`);
          break;
      }
      for (const reason of details) lines.push(`      BREAKING: ${reason}`);
      for (const note of change.notes) lines.push(`      ${note}`);
    }
  }
  const { added, updated, removed } = regen.files;
  if (regen.stale) {
    const part = (label: string, list: string[]) =>
      `${list.length} ${label}${list.length > 0 ? ` (${names(list)})` : ''}`;
    lines.push(
      `openapi-to-mcp: files: ${[part('added', added), part('updated', updated), part('removed', removed)].join(', ')}`,
    );
  }
  return lines;
}

function names(list: string[]): string {
  return list.length <= MAX_FILE_NAMES
    ? list.join(', ')
    : `${list.slice(0, MAX_FILE_NAMES).join(', ')}, … ${list.length - MAX_FILE_NAMES} more`;
}

/** `--check` / `--dry-run`: the report, then one line saying what writing would do (nothing is written). */
export function formatPreview(regen: Regeneration, outDir: string, mode: 'check' | 'dry-run'): string[] {
  const lines = formatRegeneration(regen);
  if (regen.folder === 'new')
    lines.push(`openapi-to-mcp: ${outDir} would be created (${regen.files.added.length} files)`);
  if (regen.folder === 'foreign')
    lines.push(`openapi-to-mcp: ${outDir} holds files openapi-to-mcp did not generate (writing needs --force)`);
  if (mode === 'dry-run') lines.push(`openapi-to-mcp: dry run, nothing written`);
  else
    lines.push(
      regen.stale
        ? `openapi-to-mcp: ${outDir} is out of date; run without --check to update it`
        : `openapi-to-mcp: ${outDir} is up to date`,
    );
  return lines;
}
