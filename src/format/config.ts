/**
 * The layout of the TypeScript the generator writes: prettier's with this config (test/src/format/layout.test.ts
 * checks every generated file against it), which is also the repo's own (.prettierrc.json).
 */
export const PRINT_WIDTH = 120;
export const TAB_WIDTH = 2;

export const PRETTIER_CONFIG = {
  printWidth: PRINT_WIDTH,
  tabWidth: TAB_WIDTH,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  endOfLine: 'lf',
} as const;
