/**
 * TypeScript → JavaScript for code mode's programs, with sucrase: it only removes type syntax (no
 * downlevelling), keeps every line where it was (so errors point at the model's own lines), and is pure
 * JavaScript of about 2 MB installed, where the TypeScript compiler is 23 MB. Plain JavaScript passes
 * through unchanged.
 */
import { transform } from 'sucrase';

export type Stripped = { ok: true; code: string } | { ok: false; message: string; line?: number };

// A program is the body of an async function (top-level `await` and `return`), so it is parsed as one.
const OPEN = 'async function __program__() {\n';
const CLOSE = '\n}';

export function stripTypes(program: string): Stripped {
  let code: string;
  try {
    code = transform(`${OPEN}${program}${CLOSE}`, { transforms: ['typescript'], disableESTransforms: true }).code;
  } catch (error) {
    const loc = (error as { loc?: { line?: unknown } }).loc;
    const line = typeof loc?.line === 'number' ? loc.line - 1 : undefined;
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\(\d+:\d+\)$/, '');
    return { ok: false, message, ...(line !== undefined && line >= 1 ? { line } : {}) };
  }
  if (!code.startsWith(OPEN) || !code.endsWith(CLOSE)) return { ok: false, message: 'the program does not parse' };
  return { ok: true, code: code.slice(OPEN.length, code.length - CLOSE.length) };
}
