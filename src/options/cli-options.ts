/** The command line's options, built from the option table: yargs declarations in, `generate()` options out. */
import type { Argv } from 'yargs';
import { GENERATE_OPTIONS } from './generate-options.js';
import { flagOf, type OptionSpec, type OptionValues } from './option-spec.js';

const SPECS: readonly OptionSpec[] = GENERATE_OPTIONS;

/** Declares every option of the table on a yargs parser (`--help` shows their descriptions). */
export function declareOptions<T>(parser: Argv<T>): Argv<T> {
  let declared = parser;
  for (const spec of SPECS)
    declared = declared.option(flagOf(spec), {
      // A choice needs no type (`--help` would say [string] beside the choices).
      ...(spec.choices !== undefined
        ? { choices: spec.choices }
        : { type: spec.type === 'list' ? 'string' : spec.type }),
      ...(spec.type === 'list' ? { array: true } : {}),
      ...(spec.alias !== undefined ? { alias: spec.alias } : {}),
      // Only a switch's default is yargs' to apply (and show): the others are resolveOptions'.
      ...(spec.type === 'boolean' ? { default: spec.default } : {}),
      describe: spec.describe,
    });
  return declared;
}

/** The parsed command line as the table's keys (`--core-tag` → `coreTags`); absent options stay absent. */
export function optionsFromArgs(args: Record<string, unknown>): OptionValues<typeof GENERATE_OPTIONS> {
  const options: Record<string, unknown> = {};
  for (const spec of SPECS) {
    const value = args[flagOf(spec)];
    if (value !== undefined) options[spec.key] = Array.isArray(value) ? value.map(String) : value;
  }
  return options as OptionValues<typeof GENERATE_OPTIONS>;
}
