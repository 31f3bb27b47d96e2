// The repo's own lint: ESLint's and typescript-eslint's recommended rules over the generator, the runtime it
// copies into generated projects, the tests, benchmarks and scripts. Generated output is checked by its own
// golden tests, not here.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

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
);
