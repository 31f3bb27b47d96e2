/**
 * User options → fully defaulted options, resolved once. The CLI and the programmatic API both go through here.
 * The options themselves, their defaults and checks are the table in src/options/generate-options.ts.
 */
import { parseCallerCredentials } from '../templates/runtime/contract/caller-credentials.js';
import type { CallerCredentialsConfig } from '../templates/runtime/contract/catalog.js';
import { GENERATE_OPTIONS } from './options/generate-options.js';
import {
  flagOf,
  type ApiSpecs,
  type DefaultedValues,
  type OptionSpec,
  type OptionValues,
} from './options/option-spec.js';

type ApiOptionSpecs = ApiSpecs<typeof GENERATE_OPTIONS>;
type TableOptions = OptionValues<ApiOptionSpecs>;
type Defaults = DefaultedValues<ApiOptionSpecs>;

/** What `generate()` takes: docs/options.md describes each option (its flag is the key in kebab case). */
export interface UserOptions extends Omit<TableOptions, 'callerCredentials'> {
  /** Spec file path or http(s) URL. */
  spec: string;
  /** `off`, `headers` or `scheme=Header,…` as on the command line, or already parsed. */
  callerCredentials?: string | CallerCredentialsConfig;
}

/** Every option with a default present; `toolMode` undefined: chosen by the API's size at emit time. */
export type ResolvedOptions = Omit<TableOptions, keyof Defaults> &
  Omit<Defaults, 'callerCredentials'> & { spec: string; callerCredentials: CallerCredentialsConfig };

/** The options `generate()` takes: all but the command line's own switches (`--check`, `--dry-run`). */
export const API_OPTIONS: readonly OptionSpec[] = GENERATE_OPTIONS.filter((spec) => !('cliOnly' in spec));

export function resolveOptions(user: UserOptions): ResolvedOptions {
  const problems: string[] = [];
  if (!user.spec) problems.push('a spec path or URL is required');
  const given = user as unknown as Record<string, unknown>;
  const resolved: Record<string, unknown> = { spec: user.spec };
  for (const spec of API_OPTIONS) {
    const value = given[spec.key];
    if (value === undefined) {
      if (spec.default !== undefined)
        resolved[spec.key] = Array.isArray(spec.default) ? [...(spec.default as string[])] : spec.default;
      continue;
    }
    const problem = optionProblem(spec, value);
    if (problem) problems.push(problem);
    else resolved[spec.key] = value;
  }
  if (problems.length > 0) throw new OptionsError(problems);
  const options = resolved as Omit<ResolvedOptions, 'callerCredentials'> & {
    callerCredentials: string | CallerCredentialsConfig;
  };
  return {
    ...options,
    ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl.replace(/\/+$/, '') } : {}),
    callerCredentials:
      typeof options.callerCredentials === 'string'
        ? parseCallerCredentials(options.callerCredentials)
        : options.callerCredentials,
  };
}

/** The table's checks: one of its choices, or a string its `check` accepts. */
function optionProblem(spec: OptionSpec, value: unknown): string | undefined {
  const flag = `--${flagOf(spec)}`;
  if (spec.choices && !spec.choices.includes(value as string))
    return `${flag} must be one of ${spec.choices.join(', ')}, got ${String(value)}`;
  if (spec.check && typeof value === 'string' && !spec.check.test(value))
    return `${flag} must be ${spec.check.expected}, got ${value}`;
  return undefined;
}

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  constructor(readonly problems: string[]) {
    super(`Invalid options: ${problems.join('; ')}`);
  }
}
