/**
 * The generated server as a library. The project's `src/server.ts` calls this with the owner's files
 * (`src/hooks.ts`, `src/extensions.ts`); the bin serves the result over stdio or HTTP (main.ts); an owner's
 * own Node app mounts its MCP endpoint (`endpoint()`: a web-standard `fetch` for Hono and a Node handler for
 * Express and node:http).
 *
 * What a transport needs is built when it is asked for: a stdio server's cold start loads neither the HTTP
 * transport nor the upstream-auth modules.
 */
import type { Buffer } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import type { Extensions } from '../extend/extensions.js';
import type { Hooks } from '../extend/hooks.js';
import type { HttpServerHandle, McpEndpoint, StartHttpOptions } from '../transport/http-server.js';
import { readDataAhead, readJsonFile } from './data-file.js';
import type { RuntimeConfig } from './config.js';
import type { Logger } from './log.js';
import type { SearchIndexFile } from '../search/search.js';
import type { DeclarationsFile } from '../contract/code-definitions.js';
import type { CodeModeSupport } from './code-mode-seam.js';
import { readEnv } from '../contract/environment.js';
import { buildServerCore, lazy } from './server-core.js';
import { startStdio } from '../transport/stdio.js';
import { loadUpstreamTls } from '../upstream/upstream-tls.js';

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
  /** Code mode, in a project generated with `--tool-mode code` (its src/server.ts passes it). */
  codeMode?: CodeModeSupport;
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
  const { catalogUrl } = options;
  const upstreamTls = loadUpstreamTls(env);
  const core = buildServerCore(
    {
      catalog: await (options.catalogBytes ?? readDataAhead(catalogUrl)),
      searchIndex: () => readJsonFile<SearchIndexFile>(new URL('search-index.json', catalogUrl)),
      // Read only in code mode (the file exists only in a project generated for it).
      declarations: () => readJsonFile<DeclarationsFile>(new URL('code-declarations.json', catalogUrl)),
      projectFile: (file) => readFile(new URL(file, catalogUrl), 'utf8'),
    },
    // Redis is loaded only when MCP_STATE_URL is set (state-store.ts).
    {
      ...options,
      env,
      ...(upstreamTls ? { upstreamTls } : {}),
      loadRedisState: () => import('../state/redis-state.js'),
    },
  );
  const { config, log } = core;
  // The HTTP transport (and @modelcontextprotocol/node with it) is loaded only when asked for.
  const http = lazy(() => import('../transport/http-server.js'));
  // One catalog watch for the process's HTTP endpoint, whether listened on or mounted (reloading.ts).
  const httpReload = lazy(async () => (await import('../reload/reloading.js')).httpReloading(core, catalogUrl, env));
  const httpParts = async () => {
    const reload = await httpReload();
    const factory = await core.httpFactory(reload.factoryOptions);
    const shared = await core.sharedState();
    return {
      factory,
      parts: { shared, ...(reload.onCatalogChange ? { onCatalogChange: reload.onCatalogChange } : {}) },
    };
  };
  return {
    config,
    log,
    endpoint: async () => {
      const { factory, parts } = await httpParts();
      return (await http()).mcpEndpoint(factory, log, parts);
    },
    listen: async (listenOptions) => {
      const { factory, parts } = await httpParts();
      return (await http()).startHttp(factory, config, log, { ...listenOptions, ...parts });
    },
    serveStdio: async () => {
      const factoryOptions = await (await import('../reload/reloading.js')).stdioReloading(core, catalogUrl, env);
      startStdio(core.stdioFactory(factoryOptions), log, {
        callTimeoutMs: config.timeoutMs,
        maxMessageBytes: readEnv(env, 'MCP_STDIO_MAX_MESSAGE_BYTES'),
      });
    },
  };
}
