/**
 * What every transport and deployment target serves, assembled once from the project's data: the
 * configuration, the logger, the tool registry, the tool mode, the owner's hooks and extensions, and the
 * per-request MCP server factories. Sources of the data differ per target (files on Node, Deno and Bun,
 * modules on Workers), so they come in as values; this module reads no file and no process state.
 */
import type { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import type { jsonSchemaValidator, Server } from '@modelcontextprotocol/server';
import { apiPrimitives } from '../primitives/api-primitives.js';
import { primitiveListings, type CatalogChanges } from '../reload/catalog-changes.js';
import type { CatalogHeader, ToolMode } from '../contract/catalog.js';
import type { CallDeps } from './call-tool.js';
import { CODE_TOOL_NAMES, type DeclarationsFile } from '../contract/code-definitions.js';
import type { CodeModeSupport } from './code-mode-seam.js';
import { assertUpstreamTlsApplies, readConfig, type RuntimeConfig } from './config.js';
import type { UpstreamTls } from '../upstream/http-client.js';
import { MIN_KEY_BYTES } from '../confirm/confirm.js';
import { readEnv } from '../contract/environment.js';
import { serveExtensions, type Extensions } from '../extend/extensions.js';
import type { Hooks } from '../extend/hooks.js';
import { createLogger, redactingLogger, type Logger, type LogSink } from './log.js';
import { readProfileChoice, type ProfileChoice } from '../contract/profiles/profiles.js';
import { serverRedactionForms } from '../redaction/redact.js';
import { createResponseLinker } from '../primitives/response-links.js';
import type { SearchIndexFile } from '../search/search.js';
import {
  serveCatalog,
  serverFactory,
  type ServeOptions,
  type ServedCatalog,
  type ServerFactoryOptions,
} from './mcp-server.js';
import { parseCatalog } from './tool-table.js';
import { ToolRegistry } from './tool-registry.js';
import type { UpstreamAuth } from '../upstream-auth/call-credentials.js';
import {
  MemoryStateStore,
  openSharedState,
  type RedisStateLoader,
  type SharedState,
  type StateStore,
} from '../state/state-store.js';

export interface CoreOptions extends Extensions {
  /** Where the configuration and credentials are read from; a copy made by the caller. */
  env: NodeJS.ProcessEnv;
  /** Sends every upstream request (and OAuth token request) through this fetch instead of node:http. */
  fetch?: typeof fetch;
  /** API_TLS_* as read by the Node server (upstream-tls.ts), for node:http to apply. */
  upstreamTls?: UpstreamTls;
  /** Receives the server's log lines, with known secrets replaced by `[redacted]`. */
  logger?: Logger;
  /** Where the default logger writes its JSON lines (default stderr). */
  logSink?: LogSink;
  /** Code around each upstream call (hooks.ts). */
  hooks?: Hooks;
  /** Overrides HOST and PORT. */
  http?: { port?: number; host?: string };
  /** Validates tool arguments (default Ajv; Workers pass the SDK's CfWorkerJsonSchemaValidator). */
  jsonSchemaValidator?: jsonSchemaValidator;
  /** Loads the Redis store where the target can run its client; absent: MCP_STATE_URL stops the start. */
  loadRedisState?: RedisStateLoader;
  /**
   * Code mode, handed in by the entry of a project generated with `--tool-mode code` (code-mode-seam.ts);
   * absent: the project has no code mode, and MCP_TOOL_MODE=code stops the start.
   */
  codeMode?: CodeModeSupport;
}

export interface ServerData {
  /** catalog.json's bytes. */
  catalog: Buffer;
  /** search-index.json, read on the first search only (the all-tools mode never pays for it). */
  searchIndex: () => SearchIndexFile | Promise<SearchIndexFile>;
  /** A project file by its path relative to catalog.json (the API description resources); absent: none is served. */
  projectFile?: (file: string) => Promise<string>;
  /** code-declarations.json (in a project generated in code mode), read on the first code-mode search. */
  declarations?: () => DeclarationsFile | Promise<DeclarationsFile>;
}

export interface ServerCore {
  readonly config: RuntimeConfig;
  readonly log: Logger;
  /** The factory of the HTTP endpoint (per-caller credentials included); its catalog is built on first use. */
  httpFactory: (factoryOptions?: ServerFactoryOptions) => Promise<() => Server>;
  /** The factory of a stdio connection. */
  stdioFactory: (factoryOptions?: ServerFactoryOptions) => () => Server;
  /**
   * Serves `data` from now on: built exactly as the start built the first catalog, then swapped in whole.
   * Requests already running finish on the catalog they started with. Throws, keeping the current catalog,
   * when the new one cannot be served (a bad catalog, an extension name a new tool took).
   */
  reload: (data: ServerData) => Promise<Omit<CatalogChanges, 'tools'>>;
  /** The state the HTTP server shares with its replicas (MCP_STATE_URL), opened with the first HTTP catalog. */
  sharedState: () => Promise<SharedState>;
}

/** What the process sets up once, whatever the catalog: configuration, logger, signing key, profiles, state stores. */
interface ProcessParts {
  readonly env: NodeJS.ProcessEnv;
  readonly config: RuntimeConfig;
  readonly log: Logger;
  readonly signingKey: string | Uint8Array;
  readonly profiles: ProfileChoice;
  readonly options: CoreOptions;
  /** Over stdio (one client), confirmation states are recorded in this process's memory. */
  readonly localStore: StateStore;
  /** Over HTTP, where the replicas share them (state-store.ts); the first catalog names the keys' prefix. */
  readonly sharedState: (catalog: CatalogHeader) => Promise<SharedState>;
}

/** Everything one catalog serves; the one reference a reload replaces. */
interface CatalogState {
  /** The credentials' forms the log redacts (the catalog names the variables that hold them). */
  readonly secrets: readonly string[];
  readonly registry: ToolRegistry;
  readonly mode: ToolMode;
  readonly stdio: ServedCatalog;
  /** Over HTTP, with per-caller credentials: built on first HTTP use (and then by every reload, before it swaps). */
  readonly http: Resolving<ServedCatalog>;
  readonly listings: { resources: string; prompts: string };
}

export function buildServerCore(data: ServerData, options: CoreOptions): ServerCore {
  const { env } = options;
  const config = readConfig(env);
  assertUpstreamTlsApplies(env, options.upstreamTls !== undefined && !options.fetch);
  if (options.upstreamTls) config.upstreamTls = options.upstreamTls;
  if (options.http?.port !== undefined) config.http.port = options.http.port;
  if (options.http?.host !== undefined) config.http.host = options.http.host;
  // The log redacts the secrets of the catalog being served, so it reads them from the current state.
  let secrets: readonly string[] = [];
  const log = options.logger
    ? redactingLogger(options.logger, () => secrets)
    : createLogger(config.logLevel, () => secrets, options.logSink);
  const { choice: profiles, problems } = readProfileChoice(env);
  const signingKey = signingKeyOf(readEnv(env, 'MCP_SIGNING_KEY'), log);
  if (readEnv(env, 'MCP_STATE_URL') !== undefined && readEnv(env, 'MCP_SIGNING_KEY') === undefined) {
    log.warn(
      'MCP_STATE_URL is set but MCP_SIGNING_KEY is not: each replica signs with its own random key, so a confirmation asked on one replica is refused on the others; set the same MCP_SIGNING_KEY on every replica',
    );
  }
  const localStore = new MemoryStateStore();
  let opened: Promise<SharedState> | undefined;
  const sharedState = (catalog: CatalogHeader) =>
    (opened ??= openSharedState(
      readEnv(env, 'MCP_STATE_URL'),
      readEnv(env, 'MCP_STATE_PREFIX') ?? `mcp:${catalog.server.name}`,
      log,
      options.loadRedisState,
      localStore,
    ));
  const parts: ProcessParts = { env, config, log, signingKey, profiles, options, localStore, sharedState };
  let state = catalogState(data, parts);
  secrets = state.secrets;
  announce(state, parts);
  for (const problem of problems) log.warn('client profiles: entry ignored', { problem });
  return {
    config,
    log,
    httpFactory: async (factoryOptions) => {
      // A reload swapping in a state while the first HTTP catalog was being built: build that state's too.
      while (!state.http.value) await state.http.get();
      return serverFactory(() => state.http.value!, factoryOptions);
    },
    stdioFactory: (factoryOptions) => serverFactory(() => state.stdio, factoryOptions),
    sharedState: () => sharedState(state.registry.catalog),
    reload: async (next) => {
      const built = catalogState(next, parts);
      // Once HTTP is served, the new state's HTTP catalog is built before the swap.
      if (state.http.value) await built.http.get();
      const changes = {
        resources: built.listings.resources !== state.listings.resources,
        prompts: built.listings.prompts !== state.listings.prompts,
      };
      state = built;
      secrets = built.secrets;
      announce(built, parts);
      return changes;
    },
  };
}

/** One catalog's registry, extensions, tool mode and served handlers: the same for the start and a reload. */
function catalogState(data: ServerData, parts: ProcessParts): CatalogState {
  const { env, config, log, options } = parts;
  const { header: catalog, tools } = parseCatalog(data.catalog);
  const registry = new ToolRegistry({ header: catalog, tools }, options.jsonSchemaValidator);
  const mode = readEnv(env, 'MCP_TOOL_MODE') ?? catalog.toolMode;
  // The generated resources and prompts are served as the owner's are; a URI or name given twice stops the start.
  const generated = apiPrimitives(catalog, data.projectFile, registry);
  const extensions = serveExtensions(
    {
      tools: options.tools ?? [],
      resources: [...generated.resources, ...(options.resources ?? [])],
      resourceTemplates: [...generated.resourceTemplates, ...(options.resourceTemplates ?? [])],
      prompts: [...generated.prompts, ...(options.prompts ?? [])],
    },
    // In code mode an owner's tool named `search` or `execute` would hide one of the two tools.
    mode === 'code' ? [...registry.names(), ...CODE_TOOL_NAMES] : registry.names(),
  );
  const code = mode === 'code' ? codeMode(data, catalog, env, options.codeMode) : undefined;
  const searchIndex = lazy(async () =>
    (await import('../search/search.js')).OperationSearch.load(await data.searchIndex()),
  );
  const deps: CallDeps = {
    registry,
    config,
    env,
    log,
    links: createResponseLinker(parts.signingKey),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
  const serve: ServeOptions = {
    mode,
    searchIndex,
    pageSize: readEnv(env, 'MCP_TOOLS_PAGE_SIZE'),
    profiles: parts.profiles,
    extensions,
    signingKey: parts.signingKey,
    ...(code ? { code } : {}),
  };
  const stdio = serveCatalog(deps, { ...serve, stateStore: parts.localStore });
  // Per-caller credentials only exist over HTTP: the HTTP catalog builds its upstream auth up front (a bad
  // MCP_CALLER_CREDENTIALS stops the start); stdio builds it on its first call.
  const http = resolving(async () => {
    const shared = await parts.sharedState(catalog);
    const upstreamAuth = await httpUpstreamAuth(catalog, env, config, log, options.fetch, shared);
    return serveCatalog({ ...deps, upstreamAuth }, { ...serve, stateStore: shared.store });
  });
  return {
    secrets: serverRedactionForms(catalog, env), // env is a snapshot: computed once per catalog, not per log line
    registry,
    mode,
    stdio,
    http,
    listings: primitiveListings(stdio.extensions),
  };
}

/** What the log says of a catalog once it is served. */
function announce(state: CatalogState, { config, log }: ProcessParts): void {
  const { catalog, size } = state.registry;
  if (!config.baseUrl && !catalog.baseUrl) {
    log.warn('no upstream base URL: set API_BASE_URL, or every tool call will fail', { note: catalog.baseUrlNote });
  }
  log.debug('tool mode', { mode: state.mode, tools: size, extensionTools: state.stdio.extensions.tools.size });
}

/** Code mode's handlers, settings and declarations; refused, at start, where they cannot be served. */
function codeMode(
  data: ServerData,
  catalog: CatalogHeader,
  env: NodeJS.ProcessEnv,
  support: CodeModeSupport | undefined,
): NonNullable<ServeOptions['code']> {
  // A project generated in another mode carries neither code mode's files nor its dependencies (QuickJS, sucrase),
  // and no code-declarations.json (large on a large API): only a regeneration can add them.
  if (catalog.toolMode !== 'code')
    throw new Error(
      'MCP_TOOL_MODE=code needs a project generated with --tool-mode code: this one was generated without code mode, so it has neither its sandbox nor its dependencies. Regenerate it with --tool-mode code, or set MCP_TOOL_MODE to all, dynamic or hybrid.',
    );
  if (!support)
    throw new Error(
      'this catalog is in code mode, but the server was given no `codeMode`: pass `codeMode: codeModeSupport()` (src/runtime/code-mode/code-mode-support.ts), as the generated src/server.ts does',
    );
  const { declarations } = data;
  if (!declarations) throw new Error('code mode needs code-declarations.json: pass `declarations` to the server');
  return {
    support,
    settings: support.readSettings(env, catalog),
    declarations: lazy(async () => declarations()),
  };
}

/** The upstream auth of an HTTP server, once it said which request headers carry per-caller credentials. */
async function httpUpstreamAuth(
  catalog: CatalogHeader,
  env: NodeJS.ProcessEnv,
  config: RuntimeConfig,
  log: Logger,
  fetch: typeof globalThis.fetch | undefined,
  shared: SharedState,
): Promise<UpstreamAuth> {
  const [{ createUpstreamAuth }, callerCredentials, { sharedTokenCache }] = await Promise.all([
    import('../upstream-auth/call-credentials.js'),
    import('../contract/caller-credentials.js'),
    import('../upstream-auth/shared-tokens.js'),
  ]);
  const auth = createUpstreamAuth({
    catalog,
    env,
    timeoutMs: config.timeoutMs,
    ...(fetch ? { fetch } : {}),
    ...(config.upstreamTls ? { tls: config.upstreamTls } : {}),
    // Without a shared store each process keeps its own tokens, in ClientCredentialsTokens.
    ...(shared.shared ? { sharedTokens: sharedTokenCache(shared.store, log, { timeoutMs: config.timeoutMs }) } : {}),
  });
  const endpointProtected = config.http.auth.staticTokens.length > 0 || config.http.auth.oauth !== undefined;
  describeCallerCredentials(catalog, env, auth, endpointProtected, log, callerCredentials);
  return auth;
}

/** Says at start-up which request headers carry per-caller credentials (names only, never values). */
function describeCallerCredentials(
  catalog: CatalogHeader,
  env: NodeJS.ProcessEnv,
  auth: UpstreamAuth,
  endpointProtected: boolean,
  log: Logger,
  { callerCredentialsConfig, unknownCallerSchemes }: typeof import('../contract/caller-credentials.js'),
): void {
  const unknown = unknownCallerSchemes(
    callerCredentialsConfig(catalog.callerCredentials, env),
    catalog.securitySchemes,
  );
  if (unknown.length > 0)
    log.warn('caller credentials name unknown security schemes; they are ignored', { schemes: unknown });
  if (auth.callerHeaders.size === 0) return;
  log.info('per-caller upstream credentials', { headers: Object.fromEntries(auth.callerHeaders) });
  if (endpointProtected && [...auth.callerHeaders.values()].includes('authorization')) {
    log.warn(
      'the caller-credentials mapping forwards the Authorization header upstream, and that header also carries the token for this endpoint',
    );
  }
}

/**
 * MCP_SIGNING_KEY, else a random key for this process. A key shorter than the HMAC needs (which the SDK's
 * codec would refuse) is hashed to length with a warning rather than stopping the server: replicas given
 * the same short key still agree, and the warning says why it is weak.
 */
function signingKeyOf(given: string | undefined, log: Logger): string | Uint8Array {
  if (given === undefined) return crypto.getRandomValues(new Uint8Array(MIN_KEY_BYTES));
  if (new TextEncoder().encode(given).length >= MIN_KEY_BYTES) return given;
  log.warn(
    `MCP_SIGNING_KEY is shorter than ${MIN_KEY_BYTES} bytes: it is used hashed to that length, but a short key can be guessed; set ${MIN_KEY_BYTES} or more random bytes`,
  );
  return createHash('sha256').update(given).digest();
}

/** A value built asynchronously on first use, and readable without waiting once built. */
interface Resolving<T> {
  get(): Promise<T>;
  readonly value: T | undefined;
}

function resolving<T>(build: () => Promise<T>): Resolving<T> {
  let value: T | undefined;
  const get = lazy(async () => (value = await build()));
  return {
    get,
    get value() {
      return value;
    },
  };
}

export function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}
