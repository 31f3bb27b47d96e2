/**
 * The shape of one generation option in the table (generate-options.ts), and the option types derived from it:
 * a row gives the CLI flag, the `generate()` key, its type, allowed values, default and description, so none
 * of these is written anywhere else.
 */

export interface OptionSpec {
  /** The `generate()` key, camelCase; the flag is its kebab case unless `flag` says otherwise. */
  readonly key: string;
  /** The command-line flag (without `--`) when it is not the key in kebab case. */
  readonly flag?: string;
  readonly alias?: string;
  /** `list`: a flag that may be repeated, an array of strings in `generate()`. */
  readonly type: 'string' | 'boolean' | 'list';
  /** The allowed values (the CLI and `generate()` both refuse others). */
  readonly choices?: readonly string[];
  /** Applied when the option is absent. */
  readonly default?: boolean | readonly string[] | string;
  /** The default as the docs say it, when it is not a fixed value (chosen from the API, say). */
  readonly defaultDoc?: string;
  /** What it does: `--help` shows it, and the docs. */
  readonly describe: string;
  /** A check of a string value, and what the message says is expected ("--name must be <expected>, got …"). */
  readonly check?: { readonly test: (value: string) => boolean; readonly expected: string };
  /** A command-line switch only, not a `generate()` option (`--check`, `--dry-run`). */
  readonly cliOnly?: true;
}

/** The value an option takes in `generate()`. */
export type OptionValue<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['type'] extends 'list'
    ? string[]
    : S extends { choices: readonly (infer C)[] }
      ? C
      : string;

/** Every option of a table, optional: what a caller passes. */
export type OptionValues<T extends readonly OptionSpec[]> = {
  [S in T[number] as S['key']]?: OptionValue<S>;
};

/** The options of a table that have a default: present once resolved. */
export type DefaultedValues<T extends readonly OptionSpec[]> = {
  [S in T[number] as S extends { default: unknown } ? S['key'] : never]: OptionValue<S>;
};

/** The options of a table that are `generate()` options (not command-line switches only). */
export type ApiSpecs<T extends readonly OptionSpec[]> = Exclude<T[number], { cliOnly: true }>[];

export function flagOf(spec: OptionSpec): string {
  return spec.flag ?? spec.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
