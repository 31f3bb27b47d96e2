/**
 * One write policy in code mode (templates/runtime/contract/code-policy.ts, directCallRefusal): an operation called by
 * name, though code mode does not list it, obeys what a program's api.* call obeys: MCP_CODE_ALLOW first,
 * then the confirmation policy. A refused call sends nothing upstream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';
import { recordingFetch, serveInProcess, type RecordingFetch } from '../../helpers/in-process-server.js';

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const ENV = { API_BASE_URL: 'http://petstore.test/v3', API_KEY: 'k-1', PETSTORE_AUTH_TOKEN: 't-1' };
const ADD_PET = { name: 'addPet', arguments: { body: { name: 'Rex', photoUrls: [] } } };

const work = mkdtempSync(join(tmpdir(), 'otm-code-policy-'));
let catalogUrl: URL;
beforeAll(async () => {
  const out = join(work, 'code');
  await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
    out,
    validate: false,
    toolMode: 'code',
  });
  catalogUrl = pathToFileURL(join(out, 'catalog.json'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Calls made on a code-mode server with these extra settings; the upstream requests they made. */
async function calls(
  env: Record<string, string>,
  run: (call: (params: { name: string; arguments: Record<string, unknown> }) => Promise<CallResult>) => Promise<void>,
): Promise<RecordingFetch['requests']> {
  const upstream = recordingFetch();
  const server = await serveInProcess(catalogUrl, { ...ENV, ...env }, upstream);
  try {
    await run(async (params) => (await server.client.callTool(params)) as CallResult);
  } finally {
    await server.close();
  }
  return upstream.requests;
}

describe('code mode, a write operation called by name', () => {
  it('is refused under the default MCP_CODE_ALLOW=read, naming the setting, and nothing is sent', async () => {
    const sent = await calls({}, async (call) => {
      const result = await call(ADD_PET);
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(/^Not sent: addPet is a write.*MCP_CODE_ALLOW=write/);
    });
    expect(sent).toEqual([]);
  });

  it('is refused when it is destructive and only writes are allowed', async () => {
    const sent = await calls({ MCP_CODE_ALLOW: 'write' }, async (call) => {
      const result = await call({ name: 'deletePet', arguments: { petId: 1 } });
      expect(result.content[0]?.text).toMatch('MCP_CODE_ALLOW=destructive');
    });
    expect(sent).toEqual([]);
  });

  it('is sent once its level is allowed, as a program’s call would be', async () => {
    const sent = await calls({ MCP_CODE_ALLOW: 'write' }, async (call) => {
      expect((await call(ADD_PET)).isError).toBeFalsy();
    });
    expect(sent).toEqual(['POST http://petstore.test/v3/pet']);
  });

  it('is asked about first when the confirmation policy says so, as a program’s call is', async () => {
    // This client cannot elicit: the fallback refuses until the user's yes comes as `confirm: true`.
    const sent = await calls({ MCP_CODE_ALLOW: 'destructive' }, async (call) => {
      const asked = await call({ name: 'deletePet', arguments: { petId: 1 } });
      expect(asked.content[0]?.text).toMatch("needs the user's confirmation");
      expect((await call({ name: 'deletePet', arguments: { petId: 1, confirm: true } })).isError).toBeFalsy();
    });
    expect(sent).toEqual(['DELETE http://petstore.test/v3/pet/1']);
  });
});

describe('code mode, a read operation called by name', () => {
  it('is sent under the default policy', async () => {
    const sent = await calls({}, async (call) => {
      expect((await call({ name: 'getPetById', arguments: { petId: 1 } })).isError).toBeFalsy();
    });
    expect(sent).toEqual(['GET http://petstore.test/v3/pet/1']);
  });
});
