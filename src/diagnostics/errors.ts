import type { Diagnostic } from './diagnostics.js';

/** A problem with what the user gave us (options, spec, output folder): printed without a stack. */
export class UserError extends Error {
  override readonly name = 'UserError';
  constructor(
    message: string,
    readonly diagnostics: readonly Diagnostic[] = [],
  ) {
    super(message);
  }
}
