/** Code mode's pieces around the sandbox: type stripping, the write policy, and where its settings come from. */
import { describe, expect, it } from 'vitest';
import { decideApiCall } from '../../../templates/runtime/contract/code-policy.js';
import { readCodeSettings } from '../../../templates/runtime/code-mode/code-settings.js';
import { CODE_MODE_DEFAULTS } from '../../../templates/runtime/contract/code-limits.js';
import { stripTypes } from '../../../templates/runtime/code-mode/strip-types.js';

describe('stripTypes', () => {
  it('removes types and keeps every line where it was', () => {
    const stripped = stripTypes(
      'interface Pet { id: number }\nconst p: Pet = await api.get({ id: 1 } as const);\nreturn p!.id;',
    );
    expect(stripped).toEqual({ ok: true, code: '\nconst p = await api.get({ id: 1 } );\nreturn p.id;' });
  });

  it('passes JavaScript through, top-level await and return included', () => {
    expect(stripTypes('const a = await api.x({});\nreturn a;')).toEqual({
      ok: true,
      code: 'const a = await api.x({});\nreturn a;',
    });
  });

  it('points a syntax error at the line of the program', () => {
    expect(stripTypes('const a = 1;\n\nconst b = ;')).toMatchObject({ ok: false, line: 3 });
  });
});

describe('decideApiCall', () => {
  const read = { name: 'get', annotations: { readOnlyHint: true } };
  const write = { name: 'create', annotations: { readOnlyHint: false, destructiveHint: false } };
  const unmarked = { name: 'post', annotations: {} };
  const destroy = { name: 'delete', annotations: { destructiveHint: true } };

  it('allows by annotations and the allowed level', () => {
    const allowed = (allow: 'read' | 'write' | 'destructive') =>
      [read, write, unmarked, destroy].map((t) => decideApiCall(t, allow).allowed);
    expect(allowed('read')).toEqual([true, false, false, false]);
    expect(allowed('write')).toEqual([true, true, true, false]);
    expect(allowed('destructive')).toEqual([true, true, true, true]);
  });

  it('says which setting would allow a refused call', () => {
    expect(decideApiCall(write, 'read')).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('MCP_CODE_ALLOW=write'),
    });
    expect(decideApiCall(destroy, 'write')).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('MCP_CODE_ALLOW=destructive'),
    });
  });
});

describe('readCodeSettings', () => {
  it('takes the environment, else the generator config, else the defaults; unusable values fall back', () => {
    const catalog = { codeMode: { allow: 'write' as const, maxCalls: 7, timeoutMs: 9_000 } };
    expect(readCodeSettings({}, {})).toEqual(CODE_MODE_DEFAULTS);
    expect(
      readCodeSettings({ MCP_CODE_MAX_CALLS: '3', MCP_CODE_TIMEOUT_MS: 'soon', MCP_CODE_ALLOW: 'all' }, catalog),
    ).toEqual({
      ...CODE_MODE_DEFAULTS,
      allow: 'write',
      maxCalls: 3,
      timeoutMs: 9_000,
    });
  });
});
