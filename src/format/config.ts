/** The pinned prettier config, passed explicitly so the user's own prettier config never changes our bytes. */
import type { Options } from 'prettier';

export const PRINT_WIDTH = 120;
export const TAB_WIDTH = 2;

export const PRETTIER_CONFIG: Options = {
  printWidth: PRINT_WIDTH,
  tabWidth: TAB_WIDTH,
  singleQuote: true,
  trailingComma: 'all',
  semi: true,
  endOfLine: 'lf',
};
