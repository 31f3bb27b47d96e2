/**
 * The official MCP conformance suite (../shared/tools/conformance, which installs the suite from npm on first use)
 * against generated servers over Streamable HTTP: the petstore as generated, for tools, resources, prompts,
 * DNS-rebinding protection, header validation and caching; and a spec of DELETE operations named like the
 * suite's input_required tools, for the confirmation flow (request state, tampering, validation).
 *
 * Left out, because they test the suite's own fixture behaviour that an API's server does not have: the
 * `test_*` fixture tools, resources and prompts (tools-call-*, resources-read-*, prompts-get-*), an elicitation
 * that asks for `user_name`, a sampling request, and input_required on prompts/get.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { startHttpServer, type HttpServerProcess } from '../../helpers/spawn-http.js';

const SUITE = join(REPO_ROOT, '..', 'shared', 'tools', 'conformance', 'run.sh');

/** Runs scenarios and returns each one's "Passed: x/y, n failed" line (or the output when there is none). */
async function runScenarios(url: string, scenarios: readonly string[]): Promise<Record<string, string>> {
  const args = [SUITE, url, ...scenarios.flatMap((s) => ['--scenario', s])];
  const output = await promisify(execFile)('bash', args, { maxBuffer: 16 * 1024 * 1024, timeout: 300_000 }).then(
    (r) => r.stdout,
    (error: { stdout?: string; stderr?: string }) => `${error.stdout ?? ''}\n${error.stderr ?? ''}`,
  );
  const results: Record<string, string> = {};
  for (const block of output.split(/^=== /m).slice(1)) {
    const name = block.slice(0, block.indexOf('\n')).trim();
    results[name] = /^Passed: .*$/m.exec(block)?.[0] ?? block.slice(0, 2000);
  }
  return results;
}

/** Every scenario ran and none of its checks failed. */
function expectAllPassed(results: Record<string, string>, scenarios: readonly string[]): void {
  expect(Object.keys(results).sort()).toEqual([...scenarios].sort());
  for (const scenario of scenarios) expect(results[scenario], scenario).toMatch(/^Passed: (\d+)\/\1, 0 failed/);
}

const PROJECTS: Array<{ spec: string; env: Record<string, string>; scenarios: string[] }> = [
  {
    spec: 'fixtures/specs/petstore.yaml',
    env: { API_KEY: 'conformance' },
    scenarios: [
      'tools-list',
      'resources-list',
      'prompts-list',
      'sep-2164-resource-not-found',
      'dns-rebinding-protection',
      'http-header-validation',
      'caching',
    ],
  },
  {
    spec: 'fixtures/conformance/confirmations.yaml',
    env: {},
    scenarios: [
      'input-required-result-request-state',
      'input-required-result-tampered-state',
      'input-required-result-missing-input-response',
      'input-required-result-result-type',
      'input-required-result-validate-input',
      'input-required-result-ignore-extra-params',
      'input-required-result-unsupported-methods',
    ],
  },
];

describe.each(PROJECTS)('the conformance suite against $spec', ({ spec, env, scenarios }) => {
  let project: BuiltProject;
  let server: HttpServerProcess;

  beforeAll(async () => {
    expect(existsSync(SUITE), `${SUITE} is missing`).toBe(true);
    project = await generateAndBuild(join(REPO_ROOT, spec));
    server = await startHttpServer(project.entry, { ...env, API_BASE_URL: 'http://127.0.0.1:9' });
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    project?.cleanup();
  });

  it('passes every check of the scenarios that apply', async () => {
    const results = await runScenarios(`http://127.0.0.1:${server.port}/mcp`, scenarios);
    expectAllPassed(results, scenarios);
  }, 400_000);
});
