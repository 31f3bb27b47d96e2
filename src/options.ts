/** User options → fully defaulted options, resolved once. The CLI and the programmatic API both go through here. */
import { CallerCredentialsError, parseCallerCredentials } from '../templates/runtime/contract/caller-credentials.js';
import type { CallerCredentialsConfig, ToolMode } from '../templates/runtime/contract/catalog.js';
import {
  isProfileName,
  PROFILE_NAMES,
  type ProfileName,
} from '../templates/runtime/contract/profiles/profile-names.js';

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
  /**
   * all (one tool per operation), dynamic (search/describe/call meta-tools) or hybrid (core + meta). Default:
   * by the API's size (src/emit/search/tool-modes.ts chooseToolMode).
   */
  toolMode?: ToolMode;
  /** Hybrid mode: tool names or operationIds listed directly. */
  core?: string[];
  /** Hybrid mode: operations with these tags are listed directly. */
  coreTags?: string[];
  /** Config file (`--config`); default: openapi-to-mcp.config.{json,mjs,js} in the output folder, else the current one. */
  config?: string;
  /**
   * Per-caller upstream credentials over HTTP: `off` (default), `headers` (every scheme from
   * `X-Upstream-<Scheme>`), or `scheme=Header,…`; MCP_CALLER_CREDENTIALS overrides it at run time.
   */
  callerCredentials?: string | CallerCredentialsConfig;
  /** Also return this client profile's tools/list (`profileListing`), for inspection. */
  clientProfile?: string;
}

export interface ResolvedOptions {
  spec: string;
  out?: string;
  name?: string;
  baseUrl?: string;
  force: boolean;
  validate: boolean;
  outputSchemas: boolean;
  /** Undefined: chosen by the API's size at emit time. */
  toolMode?: ToolMode;
  core: string[];
  coreTags: string[];
  config?: string;
  callerCredentials: CallerCredentialsConfig;
  clientProfile?: ProfileName;
}

export const DEFAULT_OPTIONS: Omit<ResolvedOptions, 'spec'> = {
  force: false,
  validate: true,
  outputSchemas: true,
  core: [],
  coreTags: [],
  callerCredentials: { mode: 'off' },
};
const TOOL_MODES: readonly ToolMode[] = ['all', 'dynamic', 'hybrid', 'code'];

export function resolveOptions(user: UserOptions): ResolvedOptions {
  const problems: string[] = [];
  if (!user.spec) problems.push('a spec path or URL is required');
  if (user.baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(user.baseUrl))
    problems.push(`--base-url must be an absolute http(s) URL, got ${user.baseUrl}`);
  if (user.name !== undefined && !/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(user.name))
    problems.push(`--name must be a valid npm package name, got ${user.name}`);
  if (user.toolMode !== undefined && !TOOL_MODES.includes(user.toolMode))
    problems.push(`--tool-mode must be one of ${TOOL_MODES.join(', ')}, got ${String(user.toolMode)}`);
  if (user.clientProfile !== undefined && !isProfileName(user.clientProfile))
    problems.push(`--client-profile must be one of ${PROFILE_NAMES.join(', ')}, got ${user.clientProfile}`);
  const callerCredentials = callerCredentialsOption(user.callerCredentials, problems);
  if (problems.length > 0) throw new OptionsError(problems);
  return {
    ...DEFAULT_OPTIONS,
    spec: user.spec,
    ...(user.out !== undefined ? { out: user.out } : {}),
    ...(user.name !== undefined ? { name: user.name } : {}),
    ...(user.baseUrl !== undefined ? { baseUrl: user.baseUrl.replace(/\/+$/, '') } : {}),
    ...(user.config !== undefined ? { config: user.config } : {}),
    force: user.force ?? DEFAULT_OPTIONS.force,
    validate: user.validate ?? DEFAULT_OPTIONS.validate,
    outputSchemas: user.outputSchemas ?? DEFAULT_OPTIONS.outputSchemas,
    ...(user.toolMode !== undefined ? { toolMode: user.toolMode } : {}),
    core: user.core ?? DEFAULT_OPTIONS.core,
    coreTags: user.coreTags ?? DEFAULT_OPTIONS.coreTags,
    callerCredentials,
    ...(user.clientProfile !== undefined ? { clientProfile: user.clientProfile as ProfileName } : {}),
  };
}

function callerCredentialsOption(value: UserOptions['callerCredentials'], problems: string[]): CallerCredentialsConfig {
  if (value === undefined) return DEFAULT_OPTIONS.callerCredentials;
  if (typeof value !== 'string') return value;
  try {
    return parseCallerCredentials(value);
  } catch (error) {
    if (!(error instanceof CallerCredentialsError)) throw error;
    problems.push(`--caller-credentials: expected off, headers or scheme=Header-Name[,…], got ${value}`);
    return DEFAULT_OPTIONS.callerCredentials;
  }
}

export class OptionsError extends Error {
  override readonly name = 'OptionsError';
  constructor(readonly problems: string[]) {
    super(`Invalid options: ${problems.join('; ')}`);
  }
}
