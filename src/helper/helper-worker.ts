/** Worker entry of the helper thread (see helper.ts): loads its modules at once, then answers requests. */
import { parentPort } from 'node:worker_threads';
import { toolNamesSkeleton } from '../emit/code.js';
import { formatSources, warmUpPrettier, type SourceToFormat } from '../format/prettier.js';
import { countListTokens } from '../report/tokens.js';
import type { HelperRequest, HelperResponse, HelperTask } from './helper.js';

// Loaded now, in the order they are needed, while the main thread reads the spec; requests wait for them.
const skeleton = toolNamesSkeleton();
void skeleton
  .catch(() => undefined)
  .then(() => warmUpPrettier())
  .then(() => import('gpt-tokenizer/encoding/o200k_base'))
  .catch(() => undefined);

const TASKS: Record<HelperTask, (input: never) => Promise<unknown>> = {
  toolNamesSkeleton: () => skeleton,
  countTokens: (input: string) => countListTokens(input),
  format: (input: SourceToFormat[]) => formatSources(input),
};

parentPort?.on('message', (request: HelperRequest) => {
  const answer = (response: HelperResponse) => parentPort?.postMessage(response);
  TASKS[request.task](request.input as never).then(
    (value) => answer({ id: request.id, ok: true, value }),
    (error: unknown) => answer({ id: request.id, ok: false, error: String(error) }),
  );
});
