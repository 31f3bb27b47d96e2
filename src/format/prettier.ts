/**
 * Stage 5: one prettier pass per generated code file with a pinned config, passed explicitly so the user's
 * own prettier config can never change the bytes we write. Copied runtime files, catalog.json (data, can be
 * megabytes) and Markdown (tables would be padded to the widest row) are left as emitted.
 */
import type { Options } from 'prettier';
import type { EmittedFile } from '../emit/plan.js';

export const PRETTIER_CONFIG: Options = {
  printWidth: 120,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  endOfLine: 'lf',
};

const PARSERS: Array<[RegExp, string]> = [
  [/^src\/runtime\//, ''],
  [/^catalog\.json$/, ''],
  [/\.ts$/, 'typescript'],
  [/\.json$/, 'json'],
];

export async function formatFiles(files: readonly EmittedFile[]): Promise<EmittedFile[]> {
  const prettier = await import('prettier');
  return Promise.all(
    files.map(async (file) => {
      const parser = PARSERS.find(([pattern]) => pattern.test(file.path))?.[1];
      const contents = parser ? await prettier.format(file.contents, { ...PRETTIER_CONFIG, parser }) : file.contents;
      return { path: file.path, contents: contents.replace(/\r\n/g, '\n') };
    }),
  );
}
