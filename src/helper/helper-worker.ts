/** Worker entry of the helper thread (see helper.ts): loads prettier and the tokenizer at once, then answers requests. */
import { writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { formatSources, warmUpPrettier, type SourceToFormat } from '../format/prettier.js';
import { searchIndexText, type SearchIndexInput } from '../emit/search/tool-modes.js';
import { countListTokens } from '../report/tokens.js';
import type { HelperRequest, HelperResponse, HelperTask } from './helper.js';

/** With OTM_DEBUG, when each piece of work starts and ends, in ms since the process started (the stages' log). */
const trace = process.env['OTM_DEBUG']
  ? // Written at once: the worker's process.stderr is relayed by the main thread, which may exit first.
    (what: string) => writeSync(2, `[openapi-to-mcp helper] ${what} at ${(process.uptime() * 1000).toFixed(0)} ms\n`)
  : () => undefined;

// Loaded now, while the main thread reads the spec, and before any request is taken: a request taken while a
// module is still loading (module loading takes several turns of the event loop) would block its last steps
// behind the request's synchronous work, and the tokenizer would then be built at the very end, when
// everything waits for the token count. A load that fails fails the request that needs it.
const warmedUp = warmUpPrettier()
  .catch(() => undefined)
  .then(() => trace('prettier loaded'))
  .then(() => countListTokens(''))
  .catch(() => undefined)
  .then(() => trace('tokenizer loaded'));

const TASKS: Record<HelperTask, (input: never) => Promise<unknown>> = {
  countTokens: (input: string) => countListTokens(input),
  format: (input: SourceToFormat[]) => formatSources(input),
  searchIndexFile: async (input: SearchIndexInput) => searchIndexText(input),
};

parentPort?.on('message', (request: HelperRequest) => {
  const answer = (response: HelperResponse) => {
    trace(`${request.task} done`);
    parentPort?.postMessage(response);
  };
  void warmedUp
    .then(() => {
      trace(`${request.task} started`);
      return TASKS[request.task](request.input as never);
    })
    .then(
      (value) => answer({ id: request.id, ok: true, value }),
      (error: unknown) => answer({ id: request.id, ok: false, error: String(error) }),
    );
});
