/**
 * Code mode lists two tools, `search` and `execute`: generated in code mode, operations whose names would be
 * those are renamed deterministically (`search_2`, with an OTM_TOOL_RENAMED diagnostic), and an owner's tool
 * of either name stops the start; in other modes both names stay free.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../../../src/pipeline.js';
import { codeModeSupport } from '../../../../templates/runtime/code-mode/code-mode-support.js';
import { createServer } from '../../../../templates/runtime/server/create-server.js';
import type { ExtraTool } from '../../../../templates/runtime/extend/extensions.js';

const dir = mkdtempSync(join(tmpdir(), 'otm-code-names-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const ok = { '200': { description: 'ok' } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Names', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/search': { get: { operationId: 'search', responses: ok } },
    '/jobs': { post: { operationId: 'Execute', responses: ok } },
  },
};
const spec = join(dir, 'names.json');

beforeAll(() => writeFileSync(spec, JSON.stringify(SPEC)));

const toolNames = (files: Array<{ path: string; contents: string }>) =>
  (JSON.parse(files.find((f) => f.path === 'catalog.json')!.contents) as { tools: Array<{ name: string }> }).tools.map(
    (t) => t.name,
  );

describe('operations named like the code tools', () => {
  it('are renamed in code mode, with a diagnostic pointing at the operation', async () => {
    const result = await generate({ spec, validate: false, write: false, toolMode: 'code' });
    expect(toolNames(result.files)).toEqual(['search_2', 'Execute_2']);
    expect(result.diagnostics.filter((d) => d.code === 'OTM_TOOL_RENAMED')).toEqual([
      expect.objectContaining({ pointer: '#/paths/~1search/get', message: 'operationId search is tool search_2' }),
      expect.objectContaining({ pointer: '#/paths/~1jobs/post', message: 'operationId Execute is tool Execute_2' }),
    ]);
  });

  it('keep their names in the other modes', async () => {
    const result = await generate({ spec, validate: false, write: false, toolMode: 'all' });
    expect(toolNames(result.files)).toEqual(['search', 'Execute']);
  });
});

describe("an owner's tool named like a code tool", () => {
  const tool = (name: string): ExtraTool => ({
    name,
    description: 'mine',
    inputSchema: { type: 'object' },
    run: () => ({ content: [{ type: 'text', text: 'mine' }] }),
  });

  it('stops the start of a server in code mode, and is served in another mode', async () => {
    await generate({ spec, out: join(dir, 'code'), validate: false, toolMode: 'code' });
    await generate({ spec, out: join(dir, 'all'), validate: false, toolMode: 'all' });
    const catalogUrl = (mode: string) => pathToFileURL(join(dir, mode, 'catalog.json'));
    const codeMode = codeModeSupport();
    await expect(
      createServer({ catalogUrl: catalogUrl('code'), env: {}, tools: [tool('execute')], codeMode }),
    ).rejects.toThrow('extension tool execute: a generated tool already has this name');
    await expect(
      createServer({ catalogUrl: catalogUrl('all'), env: {}, tools: [tool('execute')] }),
    ).resolves.toBeDefined();
  });
});
