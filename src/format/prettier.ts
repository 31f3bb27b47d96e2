/**
 * Stage 5: one prettier pass per generated code file with a pinned config (config.ts), passed explicitly so
 * the user's own prettier config can never change the bytes we write. Copied runtime files, the data files
 * (catalog.json, search-index.json, openapi.json, the tests' routes and calls: megabytes, laid out for the
 * server and for diffs), `src/tools.ts` (written in prettier's layout) and Markdown (tables would be padded to the
 * widest row) are left as emitted.
 */
import type { EmittedFile } from '../emit/plan.js';
import { MOCK_ROUTES_FILE, TOOL_CALLS_FILE } from '../emit/test-data-files.js';
import { PRETTIER_CONFIG } from './config.js';

export { PRETTIER_CONFIG } from './config.js';

const PARSERS: Array<[RegExp | readonly string[], string]> = [
  [/^src\/runtime\//, ''],
  // Written in prettier's layout (emit/code-mode/code.ts), and the one large generated module.
  [['src/tools.ts'], ''],
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
