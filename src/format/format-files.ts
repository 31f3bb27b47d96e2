/**
 * Stage 5: every generated file in its final layout, without running a formatter. The TypeScript the templates
 * and `emit/code-mode/code.ts` write is already in prettier's layout with the pinned config (config.ts), which
 * test/src/format/layout.test.ts checks on every file of every mode; a JSON file written from a template or an
 * object (package.json, tsconfig.json, server.json, manifest.json) is laid out here as `JSON.stringify` lays it
 * out with two spaces, as npm writes package.json, and one a template broke fails here. The data files
 * (catalog.json, search-index.json, openapi.json, the tests' routes and calls: megabytes, laid out for the server
 * and for diffs) are left as emitted. Running prettier here took 0.27 s of a 1.7 s generation of GitHub's API,
 * most of it loading prettier and its plugins, which alone kept generation over 3× swagger-parser's parse +
 * dereference (bench/large-apis.mjs).
 */
import type { EmittedFile } from '../emit/plan.js';
import { MOCK_ROUTES_FILE, TOOL_CALLS_FILE } from '../emit/test-data-files.js';

const DATA_FILES = /^(catalog|search-index|code-declarations|openapi)\.json$/;

export function formatFiles(files: readonly EmittedFile[]): EmittedFile[] {
  return files.map((file) => ({ path: file.path, contents: laidOut(file) }));
}

function laidOut(file: EmittedFile): string {
  // JSON.stringify's text has no raw line break to normalize (and is 12 MB on GitHub's API).
  if (isDataFile(file.path)) return file.contents;
  if (file.path.endsWith('.json')) return jsonLayout(file);
  // Templates and copied runtime files read from a checkout with CRLF line endings.
  return file.contents.replace(/\r\n/g, '\n');
}

function isDataFile(path: string): boolean {
  return DATA_FILES.test(path) || path === MOCK_ROUTES_FILE || path === TOOL_CALLS_FILE;
}

function jsonLayout(file: EmittedFile): string {
  try {
    return `${JSON.stringify(JSON.parse(file.contents), null, 2)}\n`;
  } catch (error) {
    // A template or emitter bug, not a spec problem: nothing is written.
    throw new Error(`openapi-to-mcp: the generated ${file.path} is not JSON (${String(error)}); please report this`, {
      cause: error,
    });
  }
}
