/**
 * The format stage runs no formatter: the TypeScript the generator writes must already be in prettier's layout
 * with the pinned config, in every tool mode (the templates differ by mode only), and the JSON it writes in
 * `JSON.stringify`'s two-space layout.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { formatFiles } from '../../../src/format/format-files.js';
import type { ToolMode } from '../../../templates/runtime/contract/catalog.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';
import { prettierFormat } from '../../helpers/prettier.js';

const SPECS = ['petstore.yaml', 'features/auth.yaml'].map((name) => join(REPO_ROOT, 'fixtures', 'specs', name));
const MODES: ToolMode[] = ['all', 'hybrid', 'dynamic', 'code'];
/** Copied byte for byte from templates/runtime, which `npm run lint` holds to the same layout. */
const COPIED_RUNTIME = /^src\/runtime\//;

describe.each(SPECS)('the project generated from %s', (spec) => {
  it.each(MODES)('in mode %s has its TypeScript in prettier layout and its JSON in one layout', async (toolMode) => {
    const { files } = await generate({ spec, toolMode, out: '/nonexistent/layout', validate: false, write: false });
    const typescript = files.filter((f) => f.path.endsWith('.ts') && !COPIED_RUNTIME.test(f.path));
    expect(typescript.length).toBeGreaterThan(10);
    for (const file of typescript)
      expect(await prettierFormat(file.contents, 'typescript'), file.path).toBe(file.contents);
    for (const path of ['package.json', 'tsconfig.json', 'server.json', 'manifest.json']) {
      const text = files.find((f) => f.path === path)!.contents;
      expect(text, path).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});

describe('the format stage', () => {
  it('lays out JSON as JSON.stringify does with two spaces, and leaves the data files as emitted', () => {
    const formatted = formatFiles([
      { path: 'package.json', contents: '{"files":["dist","docs"],"a":{"b":1}}' },
      { path: 'catalog.json', contents: '{"tools":[]}' },
      { path: 'README.md', contents: 'a\r\nb\r\n' },
    ]);
    expect(formatted).toEqual([
      {
        path: 'package.json',
        contents: '{\n  "files": [\n    "dist",\n    "docs"\n  ],\n  "a": {\n    "b": 1\n  }\n}\n',
      },
      { path: 'catalog.json', contents: '{"tools":[]}' },
      { path: 'README.md', contents: 'a\nb\n' },
    ]);
  });

  it('fails, writing nothing, when a template made JSON that does not parse', () => {
    expect(() => formatFiles([{ path: 'package.json', contents: '{"a":1,}' }])).toThrow(
      /the generated package\.json is not JSON/,
    );
  });
});
