/** Worker entry of the helper thread (see helper.ts): loads prettier and the tokenizer at once, then answers requests. */
import { parentPort } from 'node:worker_threads';
import { formatSources, warmUpPrettier, type SourceToFormat } from '../format/prettier.js';
import { searchIndexText, type SearchIndexInput } from '../emit/tool-modes.js';
import { countListTokens } from '../report/tokens.js';
import { validationDiagnostics } from '../load/validate.js';
import type { HelperRequest, HelperResponse, HelperTask } from './helper.js';

// Loaded now, in the order they are needed, while the main thread reads the spec; requests wait for them.
void warmUpPrettier()
  .catch(() => undefined)
  .then(() => countListTokens(''))
  .catch(() => undefined);

const TASKS: Record<HelperTask, (input: never) => Promise<unknown>> = {
  countTokens: (input: string) => countListTokens(input),
  format: (input: SourceToFormat[]) => formatSources(input),
  searchIndexFile: async (input: SearchIndexInput) => searchIndexText(input),
  validate: (input: Record<string, unknown>) => validationDiagnostics(input),
};

parentPort?.on('message', (request: HelperRequest) => {
  const answer = (response: HelperResponse) => parentPort?.postMessage(response);
  TASKS[request.task](request.input as never).then(
    (value) => answer({ id: request.id, ok: true, value }),
    (error: unknown) => answer({ id: request.id, ok: false, error: String(error) }),
  );
});
