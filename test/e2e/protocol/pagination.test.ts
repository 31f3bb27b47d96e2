/**
 * Hosts that never follow nextCursor (the Inspector CLI) see only the first tools/list page. Every listing the
 * default mode makes must fit it: a spec at the limit of the default mode `all` (128 operations) is listed whole
 * by a single tools/list, over stdio and HTTP, and the page size leaves room for the hybrid listing too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_MODE_MAX_TOOLS } from '../../../src/emit/search/tool-modes.js';
import { DEFAULT_CORE_SIZE } from '../../../src/emit/search/hybrid-core.js';
import { DEFAULT_TOOLS_PAGE_SIZE } from '../../../templates/runtime/contract/environment.js';
import { META_TOOL_NAMES } from '../../../templates/runtime/contract/meta-definitions.js';
import { generateAndBuild, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernHttp, connectModernStdio } from '../../helpers/mcp-clients.js';
import { startHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';

function specWith(operations: number): string {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < operations; i++)
    paths[`/things${i}`] = {
      get: { operationId: `getThing${i}`, summary: `Get thing ${i}`, responses: { '200': { description: 'ok' } } },
    };
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'Many tools', version: '1.0.0' },
    servers: [{ url: 'https://many.example.com' }],
    paths,
  });
}

describe('a host that ignores nextCursor still sees every tool the default mode lists', () => {
  let dir: string;
  let project: BuiltProject;
  let http: HttpServerProcess;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'otm-pages-'));
    writeFileSync(join(dir, 'spec.json'), specWith(ALL_MODE_MAX_TOOLS));
    project = await generateAndBuild(join(dir, 'spec.json'));
    http = await startHttpServer(project.entry, {});
  });

  afterAll(async () => {
    await http?.stop();
    project?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes the default page hold the largest default listing of either mode', () => {
    expect(project.result.summary.toolMode.mode).toBe('all');
    expect(DEFAULT_TOOLS_PAGE_SIZE).toBeGreaterThanOrEqual(ALL_MODE_MAX_TOOLS);
    expect(DEFAULT_TOOLS_PAGE_SIZE).toBeGreaterThanOrEqual(DEFAULT_CORE_SIZE + META_TOOL_NAMES.length);
  });

  it('lists all 128 tools in one tools/list, without a cursor, over stdio and HTTP', async () => {
    for (const client of [await connectModernStdio(project.entry, {}), await connectModernHttp(http.url)]) {
      try {
        const page = await client.listTools();
        expect(page.tools).toHaveLength(ALL_MODE_MAX_TOOLS);
        expect(page.nextCursor).toBeUndefined();
      } finally {
        await client.close();
      }
    }
  });
});
