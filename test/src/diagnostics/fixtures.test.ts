/**
 * Every diagnostic code, exercised by a small hand-written input in fixtures/invalid/: the generation reports
 * that code at that JSON pointer (with its severity), whether it goes on or stops with an error.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES, type DiagnosticCode } from '../../../src/diagnostics/codes.js';
import type { Diagnostic } from '../../../src/diagnostics/diagnostics.js';
import { UserError } from '../../../src/diagnostics/errors.js';
import { generate } from '../../../src/pipeline.js';
import type { UserOptions } from '../../../src/options.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const FIXTURES = join(REPO_ROOT, 'fixtures', 'invalid');
const work = mkdtempSync(join(tmpdir(), 'otm-diagnostics-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Case {
  /** fixtures/invalid/<spec> */
  spec: string;
  pointer: string;
  severity: Diagnostic['severity'];
  options?: Partial<UserOptions>;
  /** Prepares the output folder (the one code about it). */
  out?: () => string;
}

const CASES: Record<DiagnosticCode, Case> = {
  OTM_LOAD_FAILED: { spec: 'load-failed.yaml', pointer: '#', severity: 'error' },
  OTM_NOT_OPENAPI: { spec: 'not-openapi.yaml', pointer: '#', severity: 'error' },
  OTM_UNSUPPORTED_VERSION: { spec: 'unsupported-version.yaml', pointer: '#/openapi', severity: 'error' },
  OTM_BUNDLE_FALLBACK: { spec: 'bundle-fallback.yaml', pointer: '#', severity: 'warning' },
  OTM_SPEC_INVALID: {
    spec: 'spec-invalid.yaml',
    pointer: '#/paths/~1pets/get',
    severity: 'warning',
    options: { validate: true },
  },
  OTM_UNRESOLVED_REF: {
    spec: 'unresolved-ref.yaml',
    pointer: '#/paths/~1pets/get/parameters/0/schema',
    severity: 'warning',
  },
  OTM_NO_OPERATIONS: { spec: 'no-operations.yaml', pointer: '#/paths', severity: 'warning' },
  OTM_DUPLICATE_OPERATION_ID: {
    spec: 'duplicate-operation-id.yaml',
    pointer: '#/paths/~1owners/get',
    severity: 'warning',
  },
  OTM_TOOL_RENAMED: { spec: 'tool-renamed.yaml', pointer: '#/paths/~1pets/get', severity: 'info' },
  OTM_PARAM_RENAMED: { spec: 'param-renamed.yaml', pointer: '#/paths/~1pets/get', severity: 'info' },
  OTM_PARAM_INVALID: { spec: 'param-invalid.yaml', pointer: '#/paths/~1pets/get/parameters/0', severity: 'warning' },
  OTM_PATH_PARAM_MISSING: {
    spec: 'path-param-missing.yaml',
    pointer: '#/paths/~1pets~1{petId}/get',
    severity: 'warning',
  },
  OTM_UNSUPPORTED_MEDIA_TYPE: {
    spec: 'unsupported-media-type.yaml',
    pointer: '#/paths/~1pets/post/requestBody/content/application~1x-custom-thing',
    severity: 'info',
  },
  OTM_OPERATION_SKIPPED: { spec: 'operation-skipped.yaml', pointer: '#/paths/~1pets/delete', severity: 'info' },
  OTM_NO_SERVER: { spec: 'no-server.yaml', pointer: '#/servers', severity: 'warning' },
  OTM_SERVER_VARIABLE: { spec: 'server-variable.yaml', pointer: '#/servers/0/variables/region', severity: 'warning' },
  OTM_SECURITY_UNKNOWN: { spec: 'security-unknown.yaml', pointer: '#/security/0/nowhereAuth', severity: 'warning' },
  OTM_SECURITY_UNSUPPORTED: {
    spec: 'security-unsupported.yaml',
    pointer: '#/components/securitySchemes/clientCert',
    severity: 'warning',
  },
  OTM_OUTPUT_NOT_EMPTY: {
    spec: 'config-target.yaml',
    pointer: '#',
    severity: 'error',
    out: () => {
      const out = mkdtempSync(join(work, 'not-ours-'));
      writeFileSync(join(out, 'notes.txt'), 'somebody else’s folder\n');
      return out;
    },
  },
  OTM_SCHEMA_SIMPLIFIED: {
    spec: 'schema-simplified.yaml',
    pointer: '#/paths/~1pets/get/parameters/0/schema',
    severity: 'info',
  },
  OTM_CONFIG_INVALID: {
    spec: 'config-target.yaml',
    pointer: 'config-invalid.json#/tools/listPets/name',
    severity: 'error',
    options: { config: join(FIXTURES, 'config-invalid.json') },
  },
  OTM_CONFIG_NO_MATCH: {
    spec: 'config-target.yaml',
    pointer: 'config-no-match.json#/include/0/tags/0',
    severity: 'error',
    options: { config: join(FIXTURES, 'config-no-match.json') },
  },
  OTM_X_MCP_INVALID: { spec: 'x-mcp-invalid.yaml', pointer: '#/paths/~1pets/get/x-mcp', severity: 'warning' },
  OTM_QUERY_IN_PATH: {
    spec: 'query-in-path.yaml',
    pointer: '#/paths/~1fax~1history~1export?filename={filename}',
    severity: 'warning',
  },
  OTM_OWNER_CODE_STALE: {
    spec: 'config-target.yaml',
    pointer: '#/paths',
    severity: 'warning',
    options: { force: true },
    out: () => {
      const out = mkdtempSync(join(work, 'owner-code-'));
      mkdirSync(join(out, 'src'));
      writeFileSync(
        join(out, 'src/hooks.ts'),
        'export const tools = { removedLongAgo: { beforeRequest: () => undefined } };\n',
      );
      return out;
    },
  },
};

/** What a generation reported: its diagnostics, or those of the error that stopped it. */
async function reported({ spec, options, out }: Case): Promise<readonly Diagnostic[]> {
  const write = out !== undefined;
  try {
    const result = await generate({
      spec: join(FIXTURES, spec),
      out: out?.() ?? join(work, 'unwritten'),
      validate: false,
      write,
      ...options,
    });
    return result.diagnostics;
  } catch (error) {
    if (error instanceof UserError) return error.diagnostics;
    throw error;
  }
}

it('has a case for every code', () => {
  expect(Object.keys(CASES).sort()).toEqual(Object.keys(DIAGNOSTIC_CODES).sort());
});

describe.each(Object.entries(CASES))('%s', (code, testCase) => {
  it(`is reported at ${testCase.pointer}`, async () => {
    const diagnostics = await reported(testCase);
    expect(
      diagnostics.filter((d) => d.code === code).map(({ pointer, severity }) => ({ pointer, severity })),
    ).toContainEqual({ pointer: testCase.pointer, severity: testCase.severity });
  });
});
