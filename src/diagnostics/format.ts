import { DIAGNOSTIC_CODES } from './codes.js';
import type { Diagnostic } from './diagnostics.js';

const LABEL = { error: 'ERROR', warning: 'WARN', info: 'INFO' } as const;

/** One line per diagnostic: `[WARN OTM_X] #/paths/~1pets/get: message (hint)`. */
export function formatDiagnostic(d: Diagnostic): string {
  const hint = d.hint ?? DIAGNOSTIC_CODES[d.code].fix;
  return `[${LABEL[d.severity]} ${d.code}] ${d.pointer}: ${d.message}${hint ? ` — ${hint}` : ''}`;
}

/**
 * Formats diagnostics for a terminal: all errors, then warnings grouped by code with at most `perCode` lines
 * each (a real spec can produce thousands of identical-looking warnings).
 */
export function formatDiagnostics(list: readonly Diagnostic[], perCode = 10): string[] {
  const lines: string[] = [];
  const order: Diagnostic['severity'][] = ['error', 'warning', 'info'];
  for (const severity of order) {
    const byCode = new Map<string, Diagnostic[]>();
    for (const d of list) {
      if (d.severity !== severity) continue;
      const group = byCode.get(d.code) ?? [];
      group.push(d);
      byCode.set(d.code, group);
    }
    for (const group of byCode.values()) {
      const limit = severity === 'error' ? group.length : perCode;
      for (const d of group.slice(0, limit)) lines.push(formatDiagnostic(d));
      if (group.length > limit) lines.push(`  … and ${group.length - limit} more ${group[0]!.code}`);
    }
  }
  return lines;
}
