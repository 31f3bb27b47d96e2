/** Public API: `import { generate } from 'openapi-to-mcp'`. */
export { generate, type GenerateResult, type GenerateSummary } from './pipeline.js';
export type { UserOptions } from './options.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostics.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './diagnostics/codes.js';
export { UserError } from './diagnostics/errors.js';
export type { EmittedFile } from './emit/plan.js';
