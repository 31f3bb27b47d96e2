/** User options → fully defaulted options, resolved once. The CLI and the programmatic API both go through here. */

export interface UserOptions {
  /** Spec file path or http(s) URL. */
  spec: string;
  /** Output folder; default `./<slug of info.title>-mcp`. */
  out?: string;
  /** npm package and server name; default `<slug of info.title>-mcp`. */
  name?: string;
  /** Default upstream base URL baked into the server (API_BASE_URL still overrides it at run time). */
  baseUrl?: string;
  /** Overwrite a non-empty output folder that openapi-to-mcp did not generate. */
  force?: boolean;
  /** Validate the spec (warnings only). Default true. */
  validate?: boolean;
  /** Declare output schemas (lenient outlines of each success response). Default true. */
  outputSchemas?: boolean;
}

export interface ResolvedOptions {
  spec: string;
  out?: string;
  name?: string;
  baseUrl?: string;
  force: boolean;
  validate: boolean;
  outputSchemas: boolean;
}

export const DEFAULT_OPTIONS: Omit<ResolvedOptions, 'spec'> = { force: false, validate: true, outputSchemas: true };

export function resolveOptions(user: UserOptions): ResolvedOptions {
  const problems: string[] = [];
  if (!user.spec) problems.push('a spec path or URL is required');
  if (user.baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(user.baseUrl)) problems.push(`--base-url must be an absolute http(s) URL, got ${user.baseUrl}`);
  if (user.name !== undefined && !/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(user.name)) problems.push(`--name must be a valid npm package name, got ${user.name}`);
  if (problems.length > 0) throw new OptionsError(problems);
  return {
    ...DEFAULT_OPTIONS,
    spec: user.spec,
    ...(user.out !== undefined ? { out: user.out } : {}),
    ...(user.name !== undefined ? { name: user.name } : {}),
    ...(user.baseUrl !== undefined ? { baseUrl: user.baseUrl.replace(/\/+$/, '') } : {}),
    force: user.force ?? DEFAULT_OPTIONS.force,
    validate: user.validate ?? DEFAULT_OPTIONS.validate,
    outputSchemas: user.outputSchemas ?? DEFAULT_OPTIONS.outputSchemas,
  };
}

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  constructor(readonly problems: string[]) {
    super(`Invalid options: ${problems.join('; ')}`);
  }
}
