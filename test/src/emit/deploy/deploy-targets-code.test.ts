/**
 * The web entries of a project generated in code mode hand the server what code mode needs: the declarations
 * file (read as a file on Deno, Bun and Lambda, a text module on Workers) and, on Workers only, QuickJS's
 * WebAssembly as a module wrangler compiles. A project in another mode carries none of it. That the entries
 * really serve code mode is run by test/e2e/deploy/targets.test.ts.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../src/pipeline.js';
import { REPO_ROOT } from '../../../helpers/generated-project.js';

const PETSTORE = join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml');

async function entries(toolMode: 'code' | 'all'): Promise<Map<string, string>> {
  const result = await generate({ spec: PETSTORE, out: '/nonexistent/pet', validate: false, write: false, toolMode });
  return new Map(result.files.map((f) => [f.path, f.contents]));
}

let code: Map<string, string>;
let all: Map<string, string>;

beforeAll(async () => {
  [code, all] = await Promise.all([entries('code'), entries('all')]);
}, 60_000);

describe('code mode on the web targets', () => {
  it('Deno, Bun and Lambda read code-declarations.json beside the catalog', () => {
    for (const entry of ['src/deno.ts', 'src/bun.ts', 'src/lambda.ts'])
      expect(code.get(entry)).toContain("declarations: () => dataFile('code-declarations.json')");
  });

  it('Workers bundle the declarations as text and import QuickJS as a compiled module', () => {
    const data = code.get('src/worker-data.js')!;
    expect(data).toContain("import declarations from '../code-declarations.json';");
    expect(data).toContain("import quickJsWasm from '@jitl/quickjs-wasmfile-release-sync/wasm';");
    expect(code.get('src/worker.ts')).toMatch(
      /declarations: \(\) => declarations,[^]*codeMode: codeModeSupport\(\{ wasm: quickJsWasm \}\)/,
    );
    const toml = code.get('wrangler.toml')!;
    expect(toml).toContain('"**/code-declarations.json"');
    expect(toml).toMatch(
      /\[\[rules\]\]\ntype = "CompiledWasm"\nglobs = \["@jitl\/quickjs-wasmfile-release-sync\/wasm"\]\nfallthrough = true/,
    );
  });

  it('a project in another mode has none of it', () => {
    for (const entry of [
      'src/deno.ts',
      'src/bun.ts',
      'src/lambda.ts',
      'src/worker.ts',
      'src/worker-data.js',
      'src/web-server.ts',
    ])
      expect(all.get(entry)).not.toMatch(/declarations|quickJs|codeMode/);
    expect(all.get('wrangler.toml')).not.toMatch(/CompiledWasm|code-declarations/);
  });
});
