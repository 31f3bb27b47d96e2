/**
 * Stage 5: one prettier pass per generated code file with a pinned config (config.ts), passed explicitly so
 * the user's own prettier config can never change the bytes we write. Copied runtime files, the files written formatted, the data files
 * (catalog.json, search-index.json, openapi.json, the tests' routes and calls: megabytes, laid out for the
 * server and for diffs) and Markdown (tables would be padded to the widest row) are left as emitted.
 */
import type { EmittedFile } from '../emit/plan.js';
import { MOCK_ROUTES_FILE, TOOL_CALLS_FILE } from '../emit/test-data-files.js';
import { PRETTIER_CONFIG } from './config.js';

export { PRETTIER_CONFIG } from './config.js';

/**
 * Files written already formatted: their templates take nothing but the generated header (a line comment,
 * which prettier leaves as it is) and the code-mode flag, and are prettier's layout themselves either way the
 * flag is, or they are copied as they are. A
 * test holds each to that (test/unit/formatted-templates.test.ts): formatting them took a third of the
 * formatting of a large API, for bytes that never change.
 */
export const WRITTEN_FORMATTED: readonly string[] = [
  'src/index.ts',
  'src/server.ts',
  'src/web-server.ts',
  'src/worker.ts',
  'src/worker-data.d.ts',
  'src/deno.ts',
  'src/bun.ts',
  'src/lambda.ts',
  'test/mock.ts',
  'test/tools.test.ts',
  'tsconfig.json',
];

const PARSERS: Array<[RegExp | readonly string[], string]> = [
  [WRITTEN_FORMATTED, ''],
  [/^src\/runtime\//, ''],
  [/^(catalog|search-index|code-declarations|openapi)\.json$/, ''],
  [[MOCK_ROUTES_FILE, TOOL_CALLS_FILE], ''],
  [/\.ts$/, 'typescript'],
  [/\.json$/, 'json'],
];

export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  return Promise.all(
    files.map(async (file) => {
      const parser = PARSERS.find(([pattern]) => matches(pattern, file.path))?.[1];
      const contents = parser ? await prettierFormat(file.contents, parser) : file.contents;
      return { path: file.path, contents: contents.replace(/\r\n/g, '\n') };
    }),
  );
}

function matches(pattern: RegExp | readonly string[], path: string): boolean {
  return pattern instanceof RegExp ? pattern.test(path) : pattern.includes(path);
}

export async function prettierFormat(text: string, parser: string): Promise<string> {
  const { format } = await import('prettier');
  return format(text, { ...PRETTIER_CONFIG, parser });
}
