/**
 * On workerd arguments are checked by @cfworker/json-schema, which would run a spec's pattern with JavaScript's
 * backtracking engine (server/edge-argument-validator.ts): the generated server on workerd (`wrangler dev`)
 * refuses an argument on which `^(\w+\s?)*$` backtracks for ever, then serves the next call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernHttp } from '../../helpers/mcp-clients.js';
import { startMockUpstream, type MockUpstream } from '../../helpers/mock-upstream.js';
import { startTarget, type RunningTarget } from '../../helpers/targets.js';

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

let upstream: MockUpstream;
let project: BuiltProject;
let server: RunningTarget;
let client: Client;

beforeAll(async () => {
  upstream = await startMockUpstream();
  upstream.respond(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '["ann lee"]' }));
  project = await generateAndBuild(`${REPO_ROOT}/fixtures/specs/features/patterns.yaml`);
  server = await startTarget('workerd', project.dir, { API_BASE_URL: upstream.url });
  client = await connectModernHttp(`${server.url}/mcp`);
}, 180_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
  await upstream?.close();
  project?.cleanup();
});

describe('patterns.yaml on workerd', () => {
  it('refuses an argument the pattern would backtrack on for ever, sending nothing, then serves the next call', async () => {
    const attack = (await client.callTool({
      name: 'findPeople',
      arguments: { name: `${'a'.repeat(100_000)}!` },
    })) as CallResult;
    expect(attack.isError).toBe(true);
    expect(attack.content[0]?.text).toContain('name');
    expect(upstream.requests).toHaveLength(0);
    const next = (await client.callTool({ name: 'findPeople', arguments: { name: 'ann lee' } })) as CallResult;
    expect(next.isError).toBeFalsy();
    expect(upstream.requests.map((r) => r.url)).toEqual(['/people?name=ann%20lee']);
  });
});
