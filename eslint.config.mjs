// The repo's own lint: ESLint's and typescript-eslint's recommended rules over the generator, the runtime it
// copies into generated projects, the tests, benchmarks and scripts. Generated output is checked by its own
// golden tests, not here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The boundary between generator and runtime (docs/runtime.md): the generator reads the runtime only through
// templates/runtime/contract/, and the contract is plain TypeScript that runs anywhere (the generator in Node,
// the server in Node, Workers, Deno, Bun): no SDK, no platform module, nothing else of the runtime.
const PLATFORM_MODULES = ['node:*', '@modelcontextprotocol/*', 'bun', 'bun:*', 'cloudflare:*', 'quickjs-*', 'ioredis'];
const runtimeOutsideContract = {
  group: ['**/templates/runtime/**', '!**/templates/runtime/contract', '!**/templates/runtime/contract/**'],
  message: 'The generator may import only the shared modules in templates/runtime/contract/ (docs/runtime.md).',
};
const contractRule = (leavesContract) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        { group: PLATFORM_MODULES, message: 'The contract stays free of the SDK and platform modules.' },
        { group: leavesContract, message: 'The contract imports nothing of the runtime outside contract/.' },
      ],
    },
  ],
});

// Code mode (templates/runtime/code-mode/) is copied only into a project generated for it, with QuickJS and
// sucrase: the rest of the runtime never imports it, statically or on first use, or a project without it would
// not build. The project's entry hands it to the server (server/code-mode-seam.ts).
const CODE_MODE_MESSAGE =
  'Only a project generated in code mode has code-mode/: take it through server/code-mode-seam.ts (docs/runtime.md).';
const codeModeStaysApart = {
  'no-restricted-imports': ['error', { patterns: [{ group: ['**/code-mode/*'], message: CODE_MODE_MESSAGE }] }],
  'no-restricted-syntax': [
    'error',
    { selector: 'ImportExpression[source.value=/code-mode\\//]', message: CODE_MODE_MESSAGE },
    { selector: 'TSImportType[argument.literal.value=/code-mode\\//]', message: CODE_MODE_MESSAGE },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'generated-examples/**',
      'node_modules/**',
      'fixtures/**',
      'templates/project/**',
      'scratch/**',
      'out/**',
      '.ci-results.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [runtimeOutsideContract] }] },
  },
  { files: ['templates/runtime/**/*.ts'], ignores: ['templates/runtime/code-mode/**'], rules: codeModeStaysApart },
  { files: ['templates/runtime/contract/*.ts'], rules: contractRule(['../*']) },
  { files: ['templates/runtime/contract/*/*.ts'], rules: contractRule(['../../*']) },
);
