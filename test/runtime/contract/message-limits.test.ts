/**
 * Arguments of any depth (templates/runtime/contract/message-limits.ts): nested past MAX_ARGUMENT_DEPTH they are refused
 * with an error naming the limit, before validation, confirmation, request building or redaction recurse into
 * them; in a tools/call of any tool and in a code-mode program's api.* call. Nothing is sent upstream.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import { argumentsTooDeep, MAX_ARGUMENT_DEPTH } from '../../../templates/runtime/contract/message-limits.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';
import { recordingFetch, serveInProcess } from '../../helpers/in-process-server.js';
import { deeplyNested } from '../../helpers/raw-stdio.js';

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
const SPEC = join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml');
const ENV = { API_BASE_URL: 'http://petstore.test/v3', API_KEY: 'k-1', PETSTORE_AUTH_TOKEN: 't-1' };

/** A value nested `levels` deep, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = i % 2 ? { a: value } : [value];
  return value;
}

describe('argumentsTooDeep', () => {
  it('counts each object and array as a level, and refuses past the limit', () => {
    expect(argumentsTooDeep({ body: { tags: [] } })).toBeUndefined();
    expect(argumentsTooDeep(nested(MAX_ARGUMENT_DEPTH))).toBeUndefined();
    expect(argumentsTooDeep(nested(MAX_ARGUMENT_DEPTH + 1))).toMatch(`more than ${MAX_ARGUMENT_DEPTH} levels deep`);
    expect(argumentsTooDeep({ wide: Array.from({ length: 100_000 }, (_, i) => ({ i })) })).toBeUndefined();
  });

  it('answers for a value 100,000 levels deep without running out of stack', () => {
    expect(argumentsTooDeep(JSON.parse(deeplyNested(100_000)))).toMatch('levels deep');
  });
});

const work = mkdtempSync(join(tmpdir(), 'otm-depth-'));
let allModeCatalog: URL;
let codeModeCatalog: URL;
beforeAll(async () => {
  await generate({ spec: SPEC, out: join(work, 'all'), validate: false });
  await generate({ spec: SPEC, out: join(work, 'code'), validate: false, toolMode: 'code' });
  allModeCatalog = pathToFileURL(join(work, 'all', 'catalog.json'));
  codeModeCatalog = pathToFileURL(join(work, 'code', 'catalog.json'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

const addPetWithDeepBody = (levels: number) =>
  `{"name":"addPet","arguments":{"body":{"name":"Rex","photoUrls":[],"extra":${deeplyNested(levels)}}}}`;

describe('a tools/call with arguments 100,000 levels deep', () => {
  it('is an error result naming the limit, not an internal error, and nothing is sent', async () => {
    const upstream = recordingFetch();
    const server = await serveInProcess(allModeCatalog, ENV, upstream);
    try {
      const answer = await server.post('tools/call', addPetWithDeepBody(100_000));
      expect(answer.error).toBeUndefined();
      const result = answer.result as CallResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toBe(
        `Invalid arguments for tool addPet: the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep, the most this server reads`,
      );
      expect(upstream.requests).toEqual([]);
      // The next call is served as usual.
      const pet = (await server.client.callTool({ name: 'getPetById', arguments: { petId: 1 } })) as CallResult;
      expect(pet.isError).toBeFalsy();
    } finally {
      await server.close();
    }
  });

  it('is refused the same way in code mode, for execute and for an operation called by name', async () => {
    const server = await serveInProcess(codeModeCatalog, ENV, recordingFetch());
    try {
      const deep = deeplyNested(100_000);
      for (const params of [
        `{"name":"execute","arguments":{"code":"return 1","x":${deep}}}`,
        addPetWithDeepBody(100_000),
      ]) {
        const result = (await server.post('tools/call', params)).result as CallResult;
        expect(result.content[0]?.text).toMatch('levels deep');
      }
    } finally {
      await server.close();
    }
  });
});

// A program's own api.* call with arguments nested past the limit never leaves its sandbox: it is refused inside
// the program (sandbox.ts), which runs in a worker thread, so it is tested against the built worker in
// test/runtime/code-mode/sandbox-thread.test.ts; callTool's own check (call-tool.ts) is the second line behind it.
