import type { DiagnosticCode } from './codes.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** JSON pointer (RFC 6901, as a URI fragment `#/…`) into the source document. */
  pointer: string;
  hint?: string;
}

/** Collects diagnostics from every stage; duplicates (same code, pointer and message) are kept once. */
export class Diagnostics {
  private readonly items: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(d: Diagnostic): void {
    const key = `${d.code}\u0000${d.pointer}\u0000${d.message}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(d);
  }

  error(code: DiagnosticCode, pointer: string, message: string, hint?: string): void {
    this.add({ code, severity: 'error', pointer, message, ...(hint ? { hint } : {}) });
  }

  warn(code: DiagnosticCode, pointer: string, message: string, hint?: string): void {
    this.add({ code, severity: 'warning', pointer, message, ...(hint ? { hint } : {}) });
  }

  info(code: DiagnosticCode, pointer: string, message: string, hint?: string): void {
    this.add({ code, severity: 'info', pointer, message, ...(hint ? { hint } : {}) });
  }

  get all(): readonly Diagnostic[] {
    return this.items;
  }

  hasErrors(): boolean {
    return this.items.some((d) => d.severity === 'error');
  }
}
