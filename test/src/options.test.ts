/** generate()'s options resolved from the table (src/options/generate-options.ts): defaults, checks, messages. */
import { expect, it } from 'vitest';
import { OptionsError, resolveOptions, type UserOptions } from '../../src/options.js';

it('applies the defaults and resolves what needs it', () => {
  expect(resolveOptions({ spec: 'a.yaml', baseUrl: 'https://api.example.com//' })).toEqual({
    spec: 'a.yaml',
    baseUrl: 'https://api.example.com',
    force: false,
    validate: true,
    outputSchemas: true,
    core: [],
    coreTags: [],
    callerCredentials: { mode: 'off' },
  });
  expect(resolveOptions({ spec: 'a.yaml', callerCredentials: 'bearerAuth=X-Token' }).callerCredentials).toEqual({
    mode: 'headers',
    map: { bearerAuth: 'x-token' },
  });
});

it('says what each refused value should be, under its flag', () => {
  const bad = {
    spec: '',
    name: 'A B',
    baseUrl: 'nope',
    toolMode: 'some',
    callerCredentials: 'x',
    clientProfile: 'chatgpt',
  } as unknown as UserOptions;
  expect(() => resolveOptions(bad)).toThrow(OptionsError);
  expect(() => resolveOptions(bad)).toThrow(
    'Invalid options: a spec path or URL is required; --name must be a valid npm package name, got A B; ' +
      '--base-url must be an absolute http(s) URL, got nope; --tool-mode must be one of all, dynamic, hybrid, code, got some; ' +
      '--caller-credentials must be off, headers or scheme=Header-Name[,…], got x; ' +
      '--client-profile must be one of full, claude, cursor, gemini, openai, openai-strict, vscode, portable, got chatgpt',
  );
});
