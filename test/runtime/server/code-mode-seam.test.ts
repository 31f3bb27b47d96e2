/**
 * Code mode is handed to the server by the project's entry (server/code-mode-seam.ts): a catalog in code mode
 * is served only with it, and a server given it still switches to the other modes at run time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { codeModeSupport } from '../../../templates/runtime/code-mode/code-mode-support.js';
import { createServer } from '../../../templates/runtime/server/create-server.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const work = mkdtempSync(join(tmpdir(), 'otm-code-seam-'));
let catalogUrl: URL;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };

beforeAll(async () => {
  const out = join(work, 'pet');
  await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
    out,
    validate: false,
    toolMode: 'code',
  });
  catalogUrl = pathToFileURL(join(out, 'catalog.json'));
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the code-mode seam', () => {
  it('serves a catalog in code mode when given code mode, and refuses it, naming the option, when not', async () => {
    await expect(
      createServer({ catalogUrl, env: {}, logger: quiet, codeMode: codeModeSupport() }),
    ).resolves.toBeDefined();
    await expect(createServer({ catalogUrl, env: {}, logger: quiet })).rejects.toThrow(
      'the server was given no `codeMode`: pass `codeMode: codeModeSupport()`',
    );
  });

  it.each(['all', 'dynamic', 'hybrid'])('lets a code-mode project switch to MCP_TOOL_MODE=%s', async (mode) => {
    const server = await createServer({
      catalogUrl,
      env: { MCP_TOOL_MODE: mode },
      logger: quiet,
      codeMode: codeModeSupport(),
    });
    expect(server.config).toBeDefined();
  });
});
