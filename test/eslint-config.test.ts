/**
 * The boundary between generator and runtime (eslint.config.mjs, docs/runtime.md), checked on deliberate
 * violations: ESLint lints each snippet as if it were the file named, so the rule's file globs and import
 * patterns are what is under test.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/generated-project.js';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = x;\n`, { filePath });
  return result!.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message.replace(/^'[^']+' import is restricted from being used by a pattern\. /, ''));
}

describe('the generator/runtime boundary', () => {
  it.each([
    ['src/emit/plan.ts', "import { x } from '../../templates/runtime/server/log.js';"],
    ['src/emit/search/tool-modes.ts', "import { x } from '../../../templates/runtime/search/search.js';"],
    ['src/pipeline.ts', "import { x } from '../templates/runtime/code-mode/sandbox.js';"],
  ])('refuses %s importing the runtime outside contract/', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([
      'The generator may import only the shared modules in templates/runtime/contract/ (docs/runtime.md).',
    ]);
  });

  it.each([
    ['templates/runtime/contract/generation.ts', "import { createHash as x } from 'node:crypto';"],
    ['templates/runtime/contract/listing.ts', "import { McpServer as x } from '@modelcontextprotocol/server';"],
    ['templates/runtime/contract/search/search-index.ts', "import x from 'ioredis';"],
  ])('refuses %s importing the SDK or a platform module', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual(['The contract stays free of the SDK and platform modules.']);
  });

  it.each([
    ['templates/runtime/contract/environment.ts', "import { x } from '../server/log.js';"],
    ['templates/runtime/contract/profiles/profiles.ts', "import { x } from '../../transport/web.js';"],
  ])('refuses %s importing the runtime outside contract/', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([
      'The contract imports nothing of the runtime outside contract/.',
    ]);
  });

  it.each([
    ['src/emit/plan.ts', "import { x } from '../../templates/runtime/contract/catalog.js';"],
    ['templates/runtime/contract/profiles/profiles.ts', "import { x } from '../environment.js';"],
    ['templates/runtime/contract/search/search-text.ts', "import x from 'wink-porter2-stemmer';"],
    ['templates/runtime/server/log.ts', "import { x } from '@modelcontextprotocol/server';"],
  ])('lets %s import what it may', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });

  it.each([
    ['templates/runtime/server/mcp-server.ts', "import type { x } from '../code-mode/code-mode.js';"],
    [
      'templates/runtime/server/server-core.ts',
      "import { readCodeSettings as x } from '../code-mode/code-settings.js';",
    ],
    ['templates/runtime/transport/web.ts', "const x = await import('../code-mode/code-mode.js');"],
    [
      'templates/runtime/server/mcp-server.ts',
      "export type X = import('../code-mode/quickjs-wasm.js').QuickJsWasm; const x = 1;",
    ],
  ])('refuses %s reaching into code-mode/, which only a code-mode project has', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([
      'Only a project generated in code mode has code-mode/: take it through server/code-mode-seam.ts (docs/runtime.md).',
    ]);
  });

  it.each([
    ['templates/runtime/code-mode/code-mode-support.ts', "import { x } from './code-mode.js';"],
    ['templates/runtime/server/mcp-server.ts', "import type { x } from './code-mode-seam.js';"],
  ])('lets %s take code mode through its seam', async (file, code) => {
    expect(await boundaryErrors(file, code)).toEqual([]);
  });
});
