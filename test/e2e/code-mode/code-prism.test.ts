/**
 * Code mode against GitHub and Stripe: the multi-step programs of code-programs.ts run through `execute` of a
 * generated server (stdio, SDK v2 client), and every HTTP request their `api.*` calls make is judged against
 * the spec. Each program must return a result, make its requests, and every request must be valid.
 *
 * The judge: GitHub's requests go to Prism behind a recording proxy that keeps Prism's verdict. Prism cannot
 * load Stripe's description (`prism mock` stays at "Starting Prism…" for over 9 minutes, with the whole spec
 * and with a 17-path subset of it), so Stripe's requests go to a spec-driven upstream whose validator reads
 * the wire request on its own (qs, JSON.parse) and checks it with Ajv against the spec's schemas
 * (test/helpers/request-validator.ts), and which answers with responses sampled from the spec.
 *
 * `npm test` runs the programs marked `quick`; `npm run e2e:code` (CODE_PROGRAMS=all) runs every one and
 * prints a table per program.
 */
import { existsSync } from 'node:fs';
import SwaggerParser from '@apidevtools/swagger-parser';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { connectModernStdio } from '../../helpers/mcp-clients.js';
import {
  credentialEnv,
  startPrism,
  startRecordingProxy,
  type PrismMock,
  type RecordingProxy,
} from '../../helpers/prism.js';
import { startSpecUpstream, type JudgedRequest, type SpecUpstream } from '../../helpers/spec-upstream.js';
import { CODE_PROGRAMS, type CodeProgram } from './code-programs.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
const SPECS = {
  github: join(SPECS_DIR, 'github', 'api.github.com.json'),
  stripe: join(SPECS_DIR, 'stripe', 'spec3.yaml'),
} as const;
const ALL = process.env['CODE_PROGRAMS'] === 'all';
const PRISM_START_MS = 300_000;

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

interface ProgramRecord {
  api: string;
  name: string;
  ok: boolean;
  requests: number;
  valid: number;
  ms: number;
  problems: string[];
}

const records: ProgramRecord[] = [];

afterAll(() => {
  if (records.length === 0) return;
  const lines = records.map(
    (r) =>
      `| ${r.api} (${r.api === 'github' ? 'Prism' : 'validator'}) | ${r.name} | ${r.ok ? 'yes' : 'NO'} | ${r.requests} | ${r.valid} | ${r.ms} |${r.problems.length ? ` ${r.problems.join('; ').slice(0, 300)}` : ''}`,
  );
  const ran = records.filter((r) => r.ok && r.requests === r.valid).length;
  const requests = records.reduce((n, r) => n + r.requests, 0);
  const valid = records.reduce((n, r) => n + r.valid, 0);
  console.log(
    [
      '| api (judge) | program | result | requests | valid | ms |',
      '| --- | --- | --- | --- | --- | --- |',
      ...lines,
      '',
      `${ran} of ${records.length} programs ran with every request valid; ${valid} of ${requests} requests valid.`,
    ].join('\n'),
  );
});

// The corpus lives beside the repo; CI has it (a missing spec must fail there, not skip).
const present = (spec: string) => existsSync(spec) || process.env['CI'] !== undefined;

describe.skipIf(!present(SPECS.stripe))('the independent request validator (the judge of Stripe requests)', () => {
  it('accepts what the spec allows and refuses what it does not', async () => {
    const { RequestValidator } = await import('../../helpers/request-validator.js');
    const validator = new RequestValidator(
      (await SwaggerParser.parse(SPECS.stripe)) as unknown as Record<string, unknown>,
    );
    const auth = { authorization: 'Basic dTpw', 'content-type': 'application/x-www-form-urlencoded' };
    const req = (method: string, url: string, body = '', headers: Record<string, string> = auth) => ({
      method,
      url,
      headers,
      body: Buffer.from(body),
    });
    expect(validator.validate(req('GET', '/v1/customers?limit=3&created[gt]=5'))).toEqual([]);
    expect(validator.validate(req('POST', '/v1/prices', 'product=p&unit_amount=2000&currency=usd'))).toEqual([]);
    expect(validator.validate(req('GET', '/v1/customers?limit=many'))).toEqual([
      'query parameter limit must be integer',
    ]);
    expect(validator.validate(req('POST', '/v1/prices', 'unit_amount=2000'))).toEqual([
      "body must have required property 'currency'",
    ]);
    expect(validator.validate(req('GET', '/v1/nowhere'))).toEqual(['no path of the spec matches /v1/nowhere']);
    expect(validator.validate(req('PATCH', '/v1/customers'))).toEqual(['PATCH is not an operation of /v1/customers']);
    expect(validator.validate(req('GET', '/v1/charges', '', {}))).toEqual([
      'the operation requires credentials and none were sent',
    ]);
    expect(
      validator.validate(req('POST', '/v1/customers', '{"email":"a"}', { ...auth, 'content-type': 'text/plain' }))[0],
    ).toMatch(/^content type text\/plain is not one of/);
  }, 60_000);
});

for (const api of ['github', 'stripe'] as const) {
  const programs = CODE_PROGRAMS.filter((p) => p.api === api && (ALL || p.quick));
  const spec = SPECS[api];
  describe.skipIf(!present(spec))(`code mode on ${api} against Prism`, () => {
    let project: BuiltProject | undefined;
    let judge: Judge | undefined;
    let client: Client | undefined;

    beforeAll(async () => {
      project = await generateAndBuild(spec, { toolMode: 'code' });
      judge = api === 'github' ? await prismJudge(spec) : await validatorJudge(spec);
      client = await connectModernStdio(project.entry, {
        API_BASE_URL: judge.url,
        ...credentialEnv(catalogOf(project)),
        MCP_CODE_ALLOW: 'write',
        LOG_LEVEL: 'error',
      });
    }, PRISM_START_MS + 120_000);

    afterAll(async () => {
      await client?.close();
      await judge?.close();
      project?.cleanup();
    });

    for (const program of programs) {
      it(
        program.name,
        async () => {
          const record = await runProgram(client!, judge!, program);
          records.push(record);
          expect(record.problems).toEqual([]);
          expect(record.ok).toBe(true);
          expect(record.requests).toBeGreaterThanOrEqual(program.minRequests);
          expect(record.valid).toBe(record.requests);
        },
        120_000,
      );
    }
  });
}

function catalogOf(project: BuiltProject): Catalog {
  return JSON.parse(project.result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
}

/** Where the server sends its requests, and what the judge said of each, in order. */
interface Judge {
  url: string;
  judged: () => JudgedRequest[];
  idle: () => Promise<void>;
  close: () => Promise<void>;
}

async function prismJudge(spec: string): Promise<Judge> {
  const prism: PrismMock = await startPrism(spec, PRISM_START_MS);
  const proxy: RecordingProxy = await startRecordingProxy(prism.port);
  return {
    url: proxy.url,
    judged: () =>
      proxy.log.map((r) => ({
        method: r.method,
        url: r.url,
        status: r.status ?? 0,
        problems: r.error
          ? [r.error]
          : r.verdict
            ? [`${r.verdict.type} ${r.verdict.messages.join(', ')}`]
            : (r.status ?? 0) >= 500
              ? [`HTTP ${r.status}`]
              : [],
      })),
    idle: () => proxy.idle(),
    close: async () => {
      await proxy.close();
      await prism.stop();
    },
  };
}

async function validatorJudge(spec: string): Promise<Judge> {
  const doc = (await SwaggerParser.parse(spec)) as unknown as Record<string, unknown>;
  const upstream: SpecUpstream = await startSpecUpstream(doc);
  return { url: upstream.url, judged: () => upstream.log, idle: async () => {}, close: () => upstream.close() };
}

async function runProgram(client: Client, judge: Judge, program: CodeProgram): Promise<ProgramRecord> {
  const first = judge.judged().length;
  const started = Date.now();
  const result = (await client.callTool({ name: 'execute', arguments: { code: program.code } })) as CallResult;
  const ms = Date.now() - started;
  await judge.idle();
  const requests = judge.judged().slice(first);
  const text = result.content.map((c) => c.text ?? '').join('');
  const problems: string[] = [];
  if (result.isError) problems.push(`program failed: ${text.slice(0, 600)}`);
  const invalid = requests.filter((r) => r.problems.length > 0);
  for (const r of invalid) problems.push(`${r.method} ${r.url}: ${r.problems.join(', ')}`);
  return {
    api: program.api,
    name: program.name,
    ok: !result.isError,
    requests: requests.length,
    valid: requests.length - invalid.length,
    ms,
    problems,
  };
}
