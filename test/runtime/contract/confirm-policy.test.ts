/** Which calls ask for confirmation, the MCP_CONFIRM text, and the fallback `confirm` argument. */
import { describe, expect, it } from 'vitest';
import {
  confirmArgumentName,
  needsConfirmation,
  parseConfirmPolicy,
  withConfirmArgument,
} from '../../../templates/runtime/contract/confirm-policy.js';

const tool = (name: string, annotations: Record<string, boolean>, properties: Record<string, unknown> = {}) => ({
  name,
  annotations,
  inputSchema: { type: 'object', properties },
});
const del = tool('deletePet', { readOnlyHint: false, destructiveHint: true });
const post = tool('createPet', { readOnlyHint: false, destructiveHint: false });
const get = tool('getPet', { readOnlyHint: true, destructiveHint: false });
const relabelled = tool('purge', { readOnlyHint: false, destructiveHint: false });

describe('needsConfirmation', () => {
  it('asks per policy: destructive, writes, never, or the tools named', () => {
    const asks = (policy: Parameters<typeof needsConfirmation>[0]) =>
      [del, post, get, relabelled].filter((t) => needsConfirmation(policy, t)).map((t) => t.name);
    expect(asks('destructive')).toEqual(['deletePet']);
    expect(asks('writes')).toEqual(['deletePet', 'createPet', 'purge']);
    expect(asks('never')).toEqual([]);
    expect(asks(['getPet', 'purge'])).toEqual(['getPet', 'purge']);
  });
});

describe('parseConfirmPolicy', () => {
  it('reads the words, a comma-separated list, and nothing for empty text', () => {
    expect(parseConfirmPolicy('never')).toBe('never');
    expect(parseConfirmPolicy(' writes ')).toBe('writes');
    expect(parseConfirmPolicy('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(parseConfirmPolicy(' , ')).toBeUndefined();
    expect(parseConfirmPolicy(undefined)).toBeUndefined();
  });
});

describe('the fallback argument', () => {
  it('is `confirm`, or the first free name when the operation has a `confirm` of its own', () => {
    expect(confirmArgumentName(del)).toBe('confirm');
    expect(confirmArgumentName(tool('x', {}, { confirm: {} }))).toBe('confirm_call');
    expect(confirmArgumentName(tool('x', {}, { confirm: {}, confirm_call: {} }))).toBe('confirm_call_2');
  });

  it('is an optional plain boolean added to the listed schema, which is not changed in place', () => {
    const listed = {
      name: 'deletePet',
      description: 'd',
      inputSchema: { type: 'object' as const, properties: { id: { type: 'string' } }, required: ['id'] },
      annotations: {},
    };
    const shown = withConfirmArgument(listed, del);
    expect(shown.inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, confirm: { type: 'boolean', description: expect.any(String) } },
      required: ['id'],
    });
    expect(Object.keys(listed.inputSchema.properties)).toEqual(['id']);
  });
});
