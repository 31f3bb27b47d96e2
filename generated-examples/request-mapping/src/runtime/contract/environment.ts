/**
 * Every environment variable the server reads, declared once: its name, how its text is read, its default and
 * what it means. (Each security scheme's credentials are named in the catalog instead: they differ per API.)
 * The runtime reads through `readEnv`; the generator writes the README's table, `.env.example` and
 * `server.json`'s environment list from this table (src/emit/env-vars.ts). Free of SDK imports for that reason.
 */
import {
  CODE_ALLOW,
  TOOL_MODES,
  type CatalogHeader,
  type CodeAllow,
  type ConfirmPolicy,
  type ToolMode,
} from './catalog.js';
import { CODE_MODE_DEFAULTS } from './code-limits.js';
import { catalogConfirmPolicy, describeConfirmPolicy, parseConfirmPolicy } from './confirm-policy.js';
import { MAX_MESSAGE_BYTES } from './message-limits.js';
import { PROFILE_NAMES } from './profiles/profile-names.js';

/**
 * Tools per tools/list page unless MCP_TOOLS_PAGE_SIZE says otherwise. Some hosts never follow nextCursor (the
 * Inspector CLI among them), so every listing the generator's default mode makes fits one page: mode `all` is
 * the default only up to 128 tools (ALL_MODE_MAX_TOOLS in src/emit/search/tool-modes.ts), a hybrid listing is at most
 * 15 core tools plus the meta-tools. Only `--tool-mode all` on a larger API is paged.
 */
export const DEFAULT_TOOLS_PAGE_SIZE = 500;

/** Text of the docs that depends on what the generation chose (the default base URL, the tool mode). */
export type Doc = string | ((catalog: CatalogHeader) => string);

export interface EnvVariable<T> {
  /** The value its text gives, or undefined when the text is absent or not usable (the default applies). */
  parse: (raw: string | undefined) => T | undefined;
  default: T;
  /** What it does, one sentence; the docs add the default. */
  description: Doc;
  /** The default as the docs say it (absent: none is said). */
  defaultDoc?: Doc;
  /** The value `.env.example` shows. */
  example: Doc;
  /** Only the HTTP transport reads it: it is not part of a stdio registration. */
  http?: true;
  /** A setting of the MCP endpoint's own protection (README: Authentication). */
  endpoint?: true;
  /** Required when this says so (API_BASE_URL when the spec names no usable server). */
  required?: (catalog: CatalogHeader) => boolean;
  /** Read by code mode only: documented only in a project generated with `--tool-mode code`, which has it. */
  codeMode?: true;
}

const variable = <T>(declared: EnvVariable<T>): EnvVariable<T> => declared;

const positiveInt = (raw: string | undefined) => integerAtLeast(raw, 1);
/** 0 is meaningful (API_MAX_RETRIES=0 turns retries off). */
const nonNegativeInt = (raw: string | undefined) => integerAtLeast(raw, 0);
const trimmed = (raw: string | undefined) => raw?.trim() || undefined;
/** Secrets are taken as given: spaces may belong to them. */
const nonEmpty = (raw: string | undefined) => raw || undefined;
const verbatim = (raw: string | undefined) => raw;
const listBy = (separator: RegExp) => (raw: string | undefined) =>
  (raw ?? '')
    .split(separator)
    .map((s) => s.trim())
    .filter(Boolean);
const oneOf =
  <T extends string>(values: readonly T[]) =>
  (raw: string | undefined) =>
    (values as readonly string[]).includes(raw ?? '') ? (raw as T) : undefined;

function integerAtLeast(raw: string | undefined, min: number): number | undefined {
  const n = raw === undefined || raw.trim() === '' ? NaN : Number(raw);
  return Number.isInteger(n) && n >= min ? n : undefined;
}

const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** In the order the docs list them (each scheme's credentials come after API_BASE_URL). */
export const ENV = {
  API_BASE_URL: variable({
    parse: trimmed,
    default: undefined,
    description: (c) =>
      c.baseUrl ? 'Upstream base URL.' : 'Upstream base URL. Required: the spec names no usable server.',
    defaultDoc: (c) => c.baseUrl ?? '',
    example: (c) => c.baseUrl ?? 'https://api.example.com',
    required: (c) => !c.baseUrl,
  }),
  API_TIMEOUT_MS: variable({
    parse: positiveInt,
    default: 30_000,
    description: 'Time budget of one upstream call in milliseconds, retries and redirects included.',
    example: '30000',
  }),
  API_MAX_RETRIES: variable({
    parse: nonNegativeInt,
    default: 2,
    description: 'Retries after HTTP 429/502/503/504 for idempotent methods, honouring Retry-After; 0 turns them off.',
    example: '2',
  }),
  // About 25k tokens of JSON: enough for a page of results, small enough to leave a model room to think.
  API_MAX_RESPONSE_BYTES: variable({
    parse: positiveInt,
    default: 100_000,
    description: 'Response bytes returned to the model before truncation.',
    example: '100000',
  }),
  // Mutual TLS and private CAs (upstream-tls.ts): read once at start; the Node server's own client applies them.
  // File names are not secrets: no name here says "key" or "token", words tools take to mean a credential to fill.
  API_TLS_CA_FILE: variable({
    parse: trimmed,
    default: undefined,
    description:
      "PEM file of the CA certificates that sign the API's (and its OAuth token endpoint's) TLS certificate, trusted besides Node's built-in ones: a private CA. Node server only.",
    example: '',
  }),
  API_TLS_CERT_FILE: variable({
    parse: trimmed,
    default: undefined,
    description:
      'PEM file of the client certificate (mutual TLS) presented to the API and its OAuth token endpoint, with API_TLS_PRIVATE_FILE. Node server only.',
    example: '',
  }),
  API_TLS_PRIVATE_FILE: variable({
    parse: trimmed,
    default: undefined,
    description: "PEM file of the client certificate's private key, with API_TLS_CERT_FILE. Node server only.",
    example: '',
  }),
  API_TLS_PASSPHRASE: variable({
    parse: nonEmpty,
    default: undefined,
    description: 'Passphrase of an encrypted API_TLS_PRIVATE_FILE (a secret).',
    example: '',
  }),
  PORT: variable({
    parse: positiveInt,
    default: 3000,
    description: 'HTTP port with --http.',
    example: '3000',
    http: true,
  }),
  HOST: variable({
    parse: trimmed,
    default: '127.0.0.1',
    description: 'HTTP bind address with --http.',
    example: '127.0.0.1',
    http: true,
  }),
  MCP_ALLOWED_HOSTS: variable({
    parse: listBy(/,/),
    default: [],
    description: 'Comma-separated Host names accepted over HTTP.',
    defaultDoc: 'localhost names only',
    example: 'mcp.example.com',
    http: true,
  }),
  MCP_ALLOWED_ORIGINS: variable({
    parse: listBy(/,/),
    default: [],
    description: 'Comma-separated Origin host names accepted over HTTP.',
    defaultDoc: 'MCP_ALLOWED_HOSTS, else localhost',
    example: 'app.example.com',
    http: true,
  }),
  MCP_CORS_ORIGINS: variable({
    parse: listBy(/,/),
    default: [],
    description: 'CORS for browser clients over HTTP: comma-separated origins, host names or *.',
    defaultDoc: 'off',
    example: 'https://app.example.com',
    http: true,
  }),
  MCP_SHUTDOWN_TIMEOUT_MS: variable({
    parse: positiveInt,
    default: 10_000,
    description: 'On SIGTERM, how long running HTTP calls may finish, in milliseconds.',
    example: '10000',
    http: true,
  }),
  MCP_TOOL_MODE: variable<ToolMode | undefined>({
    parse: oneOf(TOOL_MODES),
    default: undefined,
    description: (c) =>
      c.toolMode === 'code'
        ? 'all, dynamic, hybrid or code: overrides the tool mode chosen at generation.'
        : 'all, dynamic or hybrid: overrides the tool mode chosen at generation (code needs a project generated with --tool-mode code).',
    defaultDoc: (c) => c.toolMode,
    example: (c) => c.toolMode,
  }),
  // Code mode (README: Tool modes); unset, each takes the value of the generator config's `codeMode`.
  MCP_CODE_ALLOW: variable<CodeAllow | undefined>({
    parse: oneOf(CODE_ALLOW),
    default: undefined,
    description:
      'Code mode: which operations `api.*` may call: read (read-only ones), write (also writes that are not destructive) or destructive (every one).',
    defaultDoc: (c) => c.codeMode?.allow ?? CODE_MODE_DEFAULTS.allow,
    codeMode: true,
    example: (c) => c.codeMode?.allow ?? CODE_MODE_DEFAULTS.allow,
  }),
  MCP_CODE_TIMEOUT_MS: variable<number | undefined>({
    parse: positiveInt,
    default: undefined,
    description: 'Code mode: wall time of one `execute` program in milliseconds, its API calls included.',
    defaultDoc: (c) => String(c.codeMode?.timeoutMs ?? CODE_MODE_DEFAULTS.timeoutMs),
    codeMode: true,
    example: (c) => String(c.codeMode?.timeoutMs ?? CODE_MODE_DEFAULTS.timeoutMs),
  }),
  MCP_CODE_MEMORY_MB: variable<number | undefined>({
    parse: positiveInt,
    default: undefined,
    description: "Code mode: memory one program's sandbox may allocate, in MiB.",
    defaultDoc: (c) => String(c.codeMode?.memoryMb ?? CODE_MODE_DEFAULTS.memoryMb),
    codeMode: true,
    example: (c) => String(c.codeMode?.memoryMb ?? CODE_MODE_DEFAULTS.memoryMb),
  }),
  MCP_CODE_MAX_CALLS: variable<number | undefined>({
    parse: positiveInt,
    default: undefined,
    description: 'Code mode: `api.*` calls one program may make.',
    defaultDoc: (c) => String(c.codeMode?.maxCalls ?? CODE_MODE_DEFAULTS.maxCalls),
    codeMode: true,
    example: (c) => String(c.codeMode?.maxCalls ?? CODE_MODE_DEFAULTS.maxCalls),
  }),
  MCP_CODE_MAX_RESULT_BYTES: variable<number | undefined>({
    parse: positiveInt,
    default: undefined,
    description: 'Code mode: bytes of what a program returns (and logs) before truncation.',
    defaultDoc: (c) => String(c.codeMode?.maxResultBytes ?? CODE_MODE_DEFAULTS.maxResultBytes),
    codeMode: true,
    example: (c) => String(c.codeMode?.maxResultBytes ?? CODE_MODE_DEFAULTS.maxResultBytes),
  }),
  MCP_CODE_MAX_PROGRAM_BYTES: variable<number | undefined>({
    parse: positiveInt,
    default: undefined,
    description: "Code mode: bytes of a program's text; a longer one is refused before it is parsed.",
    defaultDoc: (c) => String(c.codeMode?.maxProgramBytes ?? CODE_MODE_DEFAULTS.maxProgramBytes),
    codeMode: true,
    example: (c) => String(c.codeMode?.maxProgramBytes ?? CODE_MODE_DEFAULTS.maxProgramBytes),
  }),
  MCP_CODE_MAX_PROGRAMS: variable<number | undefined>({
    parse: positiveInt,
    default: undefined,
    description: 'Code mode: programs running at once in one server process; one more is refused and may be retried.',
    defaultDoc: (c) => String(c.codeMode?.maxPrograms ?? CODE_MODE_DEFAULTS.maxPrograms),
    codeMode: true,
    example: (c) => String(c.codeMode?.maxPrograms ?? CODE_MODE_DEFAULTS.maxPrograms),
  }),
  MCP_CLIENT_PROFILE: variable({
    parse: trimmed,
    default: undefined,
    description: `Client profile for every client: ${PROFILE_NAMES.join(', ')}.`,
    defaultDoc: 'chosen per client from its clientInfo name; unknown clients get full schemas',
    example: '',
  }),
  MCP_CLIENT_PROFILES: variable({
    parse: listBy(/,/),
    default: [],
    description:
      'More clientInfo names and their profiles, comma-separated `name=profile` (added to, or overriding, the built-in table).',
    example: 'my-agent=openai-strict',
  }),
  // Above this many tools, tools/list is paged (the SDK's clients follow cursors).
  MCP_TOOLS_PAGE_SIZE: variable({
    parse: nonNegativeInt,
    default: DEFAULT_TOOLS_PAGE_SIZE,
    description: 'Tools per tools/list page; 0 = one page.',
    example: '500',
  }),
  MCP_CONFIRM: variable<ConfirmPolicy | undefined>({
    parse: parseConfirmPolicy,
    default: undefined,
    description:
      'Which calls the user confirms first (elicitation): destructive, writes, never, or comma-separated tool names.',
    defaultDoc: (c) => describeConfirmPolicy(catalogConfirmPolicy(c)),
    example: (c) => describeConfirmPolicy(catalogConfirmPolicy(c)),
  }),
  MCP_SIGNING_KEY: variable({
    parse: nonEmpty,
    default: undefined,
    description:
      'Secret (32 bytes or more) signing confirmation states and response links; set the same one on every replica behind a load balancer.',
    defaultDoc: 'random per process',
    example: '',
  }),
  MCP_STATE_URL: variable({
    parse: trimmed,
    default: undefined,
    description:
      "Redis shared by the replicas (redis:// or rediss://): confirmations taken once across all of them, list_changed to every replica's clients, one OAuth client-credentials token for all.",
    defaultDoc: 'none: each process keeps its own',
    example: '',
    http: true,
  }),
  MCP_STATE_PREFIX: variable({
    parse: trimmed,
    default: undefined,
    description: 'Prefix of the keys and channel in MCP_STATE_URL, so that several servers can share one Redis.',
    defaultDoc: (c) => `mcp:${c.server.name}`,
    example: '',
    http: true,
  }),
  MCP_WATCH_CATALOG: variable<'on' | 'off' | undefined>({
    parse: oneOf(['on', 'off'] as const),
    default: undefined,
    description:
      'on: when the project is regenerated in place, serve the new catalog and send list_changed (Node only); off: serve the catalog of the start until a restart.',
    defaultDoc: 'on over stdio, off over HTTP',
    example: '',
  }),
  MCP_STDIO_MAX_MESSAGE_BYTES: variable({
    parse: positiveInt,
    default: MAX_MESSAGE_BYTES,
    description:
      'Over stdio, the largest message read, in bytes; a longer one is skipped unread and answered with an error (over HTTP the limit is 4 MiB).',
    example: String(MAX_MESSAGE_BYTES),
  }),
  LOG_LEVEL: variable<(typeof LOG_LEVELS)[number]>({
    parse: oneOf(LOG_LEVELS),
    default: 'info',
    description: 'debug, info, warn or error; logs go to stderr.',
    example: 'info',
  }),
  MCP_CALLER_CREDENTIALS: variable({
    parse: verbatim,
    default: undefined,
    description:
      'Per-caller upstream credentials over HTTP: `off`, `headers` (each scheme from its `X-Upstream-<Scheme>` header) or `scheme=Header,…`.',
    defaultDoc: (c) => describeCallerCredentials(c),
    example: (c) => describeCallerCredentials(c),
    endpoint: true,
  }),
  MCP_AUTH_TOKENS: variable({
    parse: listBy(/,/),
    default: [],
    description:
      'Comma-separated bearer tokens the HTTP endpoint accepts; without it (and without MCP_OAUTH_ISSUER) the endpoint is open.',
    example: '',
    endpoint: true,
  }),
  MCP_OAUTH_ISSUER: variable({
    parse: trimmed,
    default: undefined,
    description:
      'OAuth 2.1 resource-server mode: the authorization server that issues tokens for this endpoint (advertised in the Protected Resource Metadata).',
    example: 'https://auth.example.com',
    endpoint: true,
  }),
  MCP_OAUTH_INTROSPECTION_URL: variable({
    parse: trimmed,
    default: undefined,
    description: 'Token introspection endpoint (RFC 7662) used to verify tokens; required with MCP_OAUTH_ISSUER.',
    example: 'https://auth.example.com/oauth2/introspect',
    endpoint: true,
  }),
  MCP_OAUTH_CLIENT_ID: variable({
    parse: trimmed,
    default: undefined,
    description: "This server's client id at the introspection endpoint.",
    example: '',
    endpoint: true,
  }),
  MCP_OAUTH_CLIENT_SECRET: variable({
    parse: nonEmpty,
    default: undefined,
    description: "This server's client secret at the introspection endpoint.",
    example: '',
    endpoint: true,
  }),
  MCP_OAUTH_RESOURCE_URL: variable({
    parse: trimmed,
    default: undefined,
    description: 'Public URL of the MCP endpoint, the `resource` of the metadata.',
    defaultDoc: 'http://HOST:PORT/mcp',
    example: 'https://mcp.example.com/mcp',
    endpoint: true,
  }),
  MCP_OAUTH_AUDIENCE: variable({
    parse: trimmed,
    default: undefined,
    description: "What a token's `aud` must contain.",
    defaultDoc: 'the resource URL',
    example: '',
    endpoint: true,
  }),
  MCP_OAUTH_SCOPES: variable({
    parse: listBy(/[\s,]+/),
    default: [],
    description: 'Space-separated scopes every token must carry (403 insufficient_scope otherwise).',
    example: '',
    endpoint: true,
  }),
} as const;

export type EnvName = keyof typeof ENV;
type ValueOf<K extends EnvName> = (typeof ENV)[K] extends EnvVariable<infer T> ? T : never;

/** The variable's value in `env`, or its default when unset or not usable. */
export function readEnv<K extends EnvName>(env: NodeJS.ProcessEnv, name: K): ValueOf<K> {
  const declared = ENV[name] as EnvVariable<ValueOf<K>>;
  return declared.parse(env[name]) ?? declared.default;
}

/** The caller-credentials mapping baked in at generation, as MCP_CALLER_CREDENTIALS would say it. */
function describeCallerCredentials(catalog: CatalogHeader): string {
  const config = catalog.callerCredentials;
  if (!config || config.mode === 'off') return 'off';
  if (!config.map) return 'headers';
  return (
    Object.entries(config.map)
      .map(([scheme, header]) => `${scheme}=${header}`)
      .join(',') || 'off'
  );
}
