/**
 * The generated server as a library. The project's `src/server.ts` calls this with the owner's files
 * (`src/hooks.ts`, `src/extensions.ts`); the bin serves the result over stdio or HTTP (main.ts); an owner's
 * own Node app mounts its MCP endpoint (`endpoint()`: a web-standard `fetch` for Hono and a Node handler for
 * Express and node:http).
 *
 * What a transport needs is built when it is asked for: a stdio server's cold start loads neither the HTTP
 * transport nor the upstream-auth modules.
 */
import type { CatalogHeader } from './catalog.js';
import { readEnv } from './environment.js';
import type { SearchIndexFile } from './search.js';
import { readConfig, type RuntimeConfig } from './config.js';
import { randomBytes } from 'node:crypto';
import { apiPrimitives } from './api-primitives.js';
import { createResponseLinker } from './response-links.js';
import { serveExtensions, type Extensions } from './extensions.js';
import type { Hooks } from './hooks.js';
import type { HttpServerHandle, McpEndpoint, StartHttpOptions } from './http.js';
import { readDataAhead, readJsonFile } from './data-file.js';
import { createLogger, redactingLogger, type Logger } from './log.js';
import { readProfileChoice } from './profiles.js';
import { serverRedactionForms } from './redact.js';
import { createServerFactory, type ServeOptions } from './server.js';
import { parseCatalog } from './tool-table.js';
import { ToolRegistry } from './tools.js';
import { startStdio } from './stdio.js';
import type { UpstreamAuth } from './upstream-auth.js';
import type { CallDeps } from './call-tool.js';

export interface CreateServerOptions extends Extensions {
  /** The project's catalog.json (search-index.json is read beside it). */
  catalogUrl: URL;
  /** catalog.json's bytes, when the caller started reading them already (see readDataAhead). */
  catalogBytes?: Promise<Buffer>;
  /** Where the configuration and credentials are read from (default process.env, copied once). */
  env?: NodeJS.ProcessEnv;
  /** Sends every upstream request (and OAuth token request) through this fetch instead of node:http. */
  fetch?: typeof fetch;
  /** Receives the server's log lines, with known secrets replaced by `[redacted]` (default: JSON lines on stderr). */
  logger?: Logger;
  /** Code around each upstream call (hooks.ts). */
  hooks?: Hooks;
  /** Overrides HOST and PORT for `listen()`. */
  http?: { port?: number; host?: string };
}

export interface GeneratedServer {
  readonly config: RuntimeConfig;
  readonly log: Logger;
  /** The MCP endpoint, to mount in an existing app (README: "Mount the MCP endpoint in your app"). */
  endpoint(): Promise<McpEndpoint>;
  /** Serves stateless Streamable HTTP on `config.http` with /health, Host/Origin checks, CORS and endpoint auth. */
  listen(options?: StartHttpOptions): Promise<HttpServerHandle>;
  /** Serves MCP over this process's stdin and stdout. */
  serveStdio(): Promise<void>;
}

export async function createServer(options: CreateServerOptions): Promise<GeneratedServer> {
  // A plain copy: every tool call looks variables up (credentials, secrets to redact), which on process.env
  // itself costs a trip into the C++ environment each time.
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env) };
  const config = readConfig(env);
  if (options.http?.port !== undefined) config.http.port = options.http.port;
  if (options.http?.host !== undefined) config.http.host = options.http.host;
  const { catalogUrl } = options;
  const { header: catalog, tools } = parseCatalog(await (options.catalogBytes ?? readDataAhead(catalogUrl)));
  const secrets = serverRedactionForms(catalog, env); // env is a snapshot: computed once, not per log line
  const log = options.logger
    ? redactingLogger(options.logger, () => secrets)
    : createLogger(config.logLevel, () => secrets);
  if (!config.baseUrl && !catalog.baseUrl) {
    log.warn('no upstream base URL: set API_BASE_URL, or every tool call will fail', { note: catalog.baseUrlNote });
  }
  const registry = new ToolRegistry({ header: catalog, tools });
  // The generated resources and prompts are served as the owner's are; a URI or name given twice stops the start.
  const generated = apiPrimitives(catalog, catalogUrl, registry);
  const extensions = serveExtensions(
    {
      tools: options.tools ?? [],
      resources: [...generated.resources, ...(options.resources ?? [])],
      resourceTemplates: [...generated.resourceTemplates, ...(options.resourceTemplates ?? [])],
      prompts: [...generated.prompts, ...(options.prompts ?? [])],
    },
    registry.names(),
  );
  const mode = readEnv(env, 'MCP_TOOL_MODE') ?? catalog.toolMode;
  const searchIndex = lazy(async () =>
    (await import('./search.js')).OperationSearch.load(
      readJsonFile<SearchIndexFile>(new URL('search-index.json', catalogUrl)),
    ),
  );
  const { choice: profiles, problems } = readProfileChoice(env);
  for (const problem of problems) log.warn('client profiles: entry ignored', { problem });
  const signingKey = readEnv(env, 'MCP_SIGNING_KEY') ?? randomBytes(MIN_SIGNING_KEY_BYTES);
  if (Buffer.byteLength(signingKey) < MIN_SIGNING_KEY_BYTES)
    throw new Error(`MCP_SIGNING_KEY must be at least ${MIN_SIGNING_KEY_BYTES} bytes long`);
  const deps: CallDeps = {
    registry,
    config,
    env,
    log,
    links: createResponseLinker(signingKey),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
  const serve: ServeOptions = {
    mode,
    searchIndex,
    pageSize: readEnv(env, 'MCP_TOOLS_PAGE_SIZE'),
    profiles,
    extensions,
    signingKey,
  };
  log.debug('tool mode', { mode, tools: registry.size, extensionTools: extensions.tools.size });

  // Per-caller credentials only exist over HTTP: the HTTP factory builds its upstream auth up front (a bad
  // MCP_CALLER_CREDENTIALS stops the start); stdio builds it on its first call.
  const httpFactory = lazy(async () =>
    createServerFactory(
      { ...deps, upstreamAuth: await httpUpstreamAuth(catalog, env, config, log, options.fetch) },
      serve,
    ),
  );
  // The HTTP transport (and @modelcontextprotocol/node with it) is loaded only when asked for.
  const http = lazy(() => import('./http.js'));
  return {
    config,
    log,
    endpoint: async () => (await http()).mcpEndpoint(await httpFactory(), log),
    listen: async (listenOptions) => (await http()).startHttp(await httpFactory(), config, log, listenOptions),
    serveStdio: async () => {
      startStdio(createServerFactory(deps, serve), log, config.timeoutMs);
    },
  };
}

/** The upstream auth of an HTTP server, once it said which request headers carry per-caller credentials. */
async function httpUpstreamAuth(
  catalog: CatalogHeader,
  env: NodeJS.ProcessEnv,
  config: RuntimeConfig,
  log: Logger,
  fetch: typeof globalThis.fetch | undefined,
): Promise<UpstreamAuth> {
  const [{ createUpstreamAuth }, callerCredentials] = await Promise.all([
    import('./upstream-auth.js'),
    import('./caller-credentials.js'),
  ]);
  const auth = createUpstreamAuth({ catalog, env, timeoutMs: config.timeoutMs, ...(fetch ? { fetch } : {}) });
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
  { callerCredentialsConfig, unknownCallerSchemes }: typeof import('./caller-credentials.js'),
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

/** HMAC-SHA256 keys shorter than its block of output are weaker than the hash; the SDK's codec refuses them too. */
const MIN_SIGNING_KEY_BYTES = 32;

function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}
