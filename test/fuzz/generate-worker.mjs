/**
 * Runs the built generator (dist/) in a worker thread for the generator's property test: the test can then
 * end a generation that hangs, even one stuck in a synchronous loop, by terminating the worker.
 * Message in: { id, spec, out, validate }. Message out: { id, outcome: 'ok', files } | { id, outcome:
 * 'user-error', diagnostics, message } | { id, outcome: 'crash', message, stack }.
 */
import { parentPort } from 'node:worker_threads';
import { generate } from '../../dist/src/pipeline.js';

parentPort.on('message', async ({ id, spec, out, validate }) => {
  try {
    const result = await generate({ spec, out, validate });
    parentPort.postMessage({ id, outcome: 'ok', files: result.files.map((f) => f.path) });
  } catch (error) {
    // A spec problem is a UserError with diagnostics (the CLI's exit 1); anything else is a crash (exit 70).
    if (error instanceof Error && error.name === 'UserError') {
      parentPort.postMessage({
        id,
        outcome: 'user-error',
        diagnostics: (error.diagnostics ?? []).length,
        message: error.message,
      });
    } else {
      parentPort.postMessage({
        id,
        outcome: 'crash',
        message: String(error instanceof Error ? error.message : error).slice(0, 2000),
        stack: error instanceof Error ? String(error.stack).slice(0, 4000) : '',
      });
    }
  }
});
