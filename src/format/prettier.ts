/**
 * Stage 5: one prettier pass per generated code file with a pinned config (config.ts), passed explicitly so
 * the user's own prettier config can never change the bytes we write. Copied runtime files, the files written formatted, the data files
 * (catalog.json, search-index.json, openapi.json, the tests' routes and calls: megabytes, laid out for the
 * server and for diffs) and Markdown (tables would be padded to the widest row) are left as emitted.
 *
 * The bytes are prettier's, but the big generated list of literals in src/tools.ts is laid out without it
 * (literal-lists.ts): on a thousand-operation API it is most of prettier's work (GitHub: 0.45 s of 0.5 s), and
 * its layout is simple.
 */
import type { EmittedFile } from '../emit/plan.js';
import { MOCK_ROUTES_FILE, TOOL_CALLS_FILE } from '../emit/test-data-files.js';
import { PRETTIER_CONFIG } from './config.js';
import { cutLists } from './literal-lists.js';

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
      const contents = parser ? await formatSource(file.contents, parser) : file.contents;
      return { path: file.path, contents: contents.replace(/\r\n/g, '\n') };
    }),
  );
}

function matches(pattern: RegExp | readonly string[], path: string): boolean {
  return pattern instanceof RegExp ? pattern.test(path) : pattern.includes(path);
}

/** The file as prettier formats it. */
export async function formatSource(text: string, parser: string): Promise<string> {
  const cut = parser === 'typescript' ? cutLists(text) : undefined;
  if (!cut) return prettierFormat(text, parser);
  const spliced = cut.splice(await prettierFormat(cut.skeleton, parser));
  if (spliced === undefined)
    throw new Error(
      "formatting: prettier did not print a cut list's placeholders as src/format/literal-lists.ts expects",
    );
  return spliced;
}

export async function prettierFormat(text: string, parser: string): Promise<string> {
  const { format } = await import('prettier');
  return format(text, { ...PRETTIER_CONFIG, parser });
}
