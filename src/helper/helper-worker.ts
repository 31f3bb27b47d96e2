/** Worker entry of the helper thread (see helper.ts): loads prettier and the tokenizer at once, then answers requests. */
import { writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { formatSources, warmUpPrettier, type SourceToFormat } from '../format/prettier.js';
import { searchIndexText, type SearchIndexInput } from '../emit/tool-modes.js';
import { countListTokens } from '../report/tokens.js';
import { validationDiagnostics } from '../load/validate.js';
import type { HelperRequest, HelperResponse, HelperTask } from './helper.js';

/** With OTM_DEBUG, when each piece of work starts and ends, in ms since the process started (the stages' log). */
const trace = process.env['OTM_DEBUG']
  ? // Written at once: the worker's process.stderr is relayed by the main thread, which may exit first.
    (what: string) => writeSync(2, `[openapi-to-mcp helper] ${what} at ${(process.uptime() * 1000).toFixed(0)} ms\n`)
  : () => undefined;

// Loaded now, in the order they are needed, while the main thread reads the spec; requests wait for them.
void warmUpPrettier()
  .catch(() => undefined)
  .then(() => trace('prettier loaded'))
  .then(() => countListTokens(''))
  .catch(() => undefined)
  .then(() => trace('tokenizer loaded'));

const TASKS: Record<HelperTask, (input: never) => Promise<unknown>> = {
  countTokens: (input: string) => countListTokens(input),
  format: (input: SourceToFormat[]) => formatSources(input),
  searchIndexFile: async (input: SearchIndexInput) => searchIndexText(input),
  validate: (input: string) => validationDiagnostics(JSON.parse(input) as Record<string, unknown>),
};

parentPort?.on('message', (request: HelperRequest) => {
  const answer = (response: HelperResponse) => {
    trace(`${request.task} done`);
    parentPort?.postMessage(response);
  };
  trace(`${request.task} started`);
  TASKS[request.task](request.input as never).then(
    (value) => answer({ id: request.id, ok: true, value }),
    (error: unknown) => answer({ id: request.id, ok: false, error: String(error) }),
  );
});
