/** Which profile a client gets (profiles.ts), and how strict-mode arguments map back (decode-arguments.ts). */
import { describe, expect, it } from 'vitest';
import { decodeArguments, unparsedHint } from '../../../../templates/runtime/server/decode-arguments.js';
import { lowerSchema } from '../../../../templates/runtime/contract/profiles/lower-schema.js';
import { profileMode } from '../../../../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES, profileFor, readProfileChoice } from '../../../../templates/runtime/contract/profiles/profiles.js';

describe('profile choice', () => {
  it('known client names pick their host, in any case; unknown and anonymous clients get full', () => {
    const { choice, problems } = readProfileChoice({});
    expect(problems).toEqual([]);
    expect(profileFor(choice, 'cursor-vscode').name).toBe('cursor');
    expect(profileFor(choice, 'Visual Studio Code').name).toBe('vscode');
    expect(profileFor(choice, 'claude-code').name).toBe('claude');
    expect(profileFor(choice, 'gemini-cli-mcp-client').name).toBe('gemini');
    expect(profileFor(choice, 'codex-mcp-client').name).toBe('openai');
    expect(profileFor(choice, 'windsurf-client').name).toBe('portable');
    expect(profileFor(choice, 'my-agent').name).toBe('full');
    expect(profileFor(choice, undefined).name).toBe('full');
  });

  it('MCP_CLIENT_PROFILES adds and overrides names; MCP_CLIENT_PROFILE forces one profile; bad entries are reported', () => {
    const { choice, problems } = readProfileChoice({
      MCP_CLIENT_PROFILES: 'My Agent=openai-strict, cursor-vscode=portable, broken, x=nope',
    });
    expect(profileFor(choice, 'my agent').name).toBe('openai-strict');
    expect(profileFor(choice, 'cursor-vscode').name).toBe('portable');
    expect(problems).toHaveLength(2);
    const forced = readProfileChoice({ MCP_CLIENT_PROFILE: 'gemini' }).choice;
    expect(profileFor(forced, 'cursor-vscode').name).toBe('gemini');
    expect(profileFor(forced, undefined).name).toBe('gemini');
    expect(readProfileChoice({ MCP_CLIENT_PROFILE: 'chatgpt' }).problems[0]).toContain('MCP_CLIENT_PROFILE');
  });

  it('a client whose host takes fewer tools than the mode lists gets the hybrid listing', () => {
    const names = Array.from({ length: 60 }, (_, i) => `op${i}`);
    const catalog = { core: ['op1', 'op2'], server: { name: 's', version: '1', title: 'S', instructions: '' } };
    const cursor = profileMode(catalog, names, 'all', PROFILES.cursor);
    expect(cursor).toMatchObject({ mode: 'hybrid', capped: true });
    expect(cursor.listing.direct).toEqual([1, 2]);
    expect(profileMode(catalog, names, 'all', PROFILES.vscode)).toMatchObject({ mode: 'all', capped: false });
    expect(profileMode(catalog, names, 'all', PROFILES.full).listing.direct).toHaveLength(60);
  });
});

describe('strict-mode arguments, decoded for the full schema', () => {
  const schema = {
    type: 'object',
    properties: {
      name: { type: 'string' },
      note: { type: 'string' },
      labels: { type: 'object', additionalProperties: { type: 'string' } },
      items: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'integer' }, extra: {} }, required: ['id'] },
      },
    },
    required: ['name'],
    additionalProperties: false,
  };
  const { decoding } = lowerSchema(schema, PROFILES['openai-strict'].rules!);

  it('null for an optional property means absent; JSON text becomes the value', () => {
    const args = {
      name: 'a',
      note: null,
      labels: '{"env":"prod"}',
      items: [
        { id: 1, extra: '[1,2]' },
        { id: 2, extra: null },
      ],
    };
    expect(decodeArguments(args, decoding)).toEqual({
      args: { name: 'a', labels: { env: 'prod' }, items: [{ id: 1, extra: [1, 2] }, { id: 2 }] },
      unparsed: [],
    });
    expect(args.note).toBeNull();
  });

  it('leaves a required null, and text that is not JSON, for validation to report, naming where the text was', () => {
    expect(decodeArguments({ name: null, labels: 'not json', items: [{ id: 1, extra: '{' }] }, decoding)).toEqual({
      args: { name: null, labels: 'not json', items: [{ id: 1, extra: '{' }] },
      unparsed: ['labels', 'items.0.extra'],
    });
    expect(unparsedHint(['labels'])).toBe(
      '"labels" is text that does not parse as JSON: write the value as JSON text, e.g. {"key": "value"}',
    );
  });
});
