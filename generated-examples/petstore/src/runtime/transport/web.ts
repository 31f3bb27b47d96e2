/**
 * The server for the web-standard targets (Cloudflare Workers, Deno, Bun, AWS Lambda): the same server the
 * Node bin serves (server-core.ts behind web-handler.ts), built from data the target hands in rather than
 * from files, from an environment object rather than process.env, sending upstream through fetch and
 * logging through the console. It uses no Node-only API.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';
import { cutEnd, NO_SECRETS } from '../redaction/cut.js';
import type { Extensions } from '../extend/extensions.js';
import { EndpointAuthConfigError } from '../endpoint-auth/endpoint-auth.js';
import type { Hooks } from '../extend/hooks.js';
import { consoleSink, type Logger } from '../server/log.js';
import type { DeclarationsFile } from '../contract/code-definitions.js';
import type { CodeModeSupport } from '../server/code-mode-seam.js';
import type { RuntimeConfig } from '../server/config.js';
import { dataBytes } from '../server/data-text.js';
import type { SearchIndexFile } from '../search/search.js';
import { buildServerCore } from '../server/server-core.js';
import type { RedisStateLoader } from '../state/state-store.js';
import { createWebHandler, pathOf } from './web-handler.js';

/** A JSON data file as a target has it: parsed (a JSON module), as text, or as bytes read from a file. */
export type JsonData<T> = T | string | Uint8Array;
export type SearchIndexData = JsonData<SearchIndexFile>;

export interface WebServerOptions extends Extensions {
  /** catalog.json: its bytes, or its text (a Workers `Text` module). */
  catalog: Uint8Array | string;
  /** search-index.json, asked for on the first search only. */
  searchIndex: () => SearchIndexData | Promise<SearchIndexData>;
  /** code-declarations.json, in a project generated in code mode: asked for on the first code-mode search. */
  declarations?: () => JsonData<DeclarationsFile> | Promise<JsonData<DeclarationsFile>>;
  /**
   * Code mode, in a project generated with `--tool-mode code` (src/web-server.ts passes it; on Workers with
   * QuickJS compiled by wrangler, worker-data.js). Absent: MCP_TOOL_MODE=code stops the start.
   */
  codeMode?: CodeModeSupport;
  /** Reads a project file by its path relative to catalog.json (the API description resources); absent: not served. */
  projectFile?: (file: string) => Promise<string>;
  /**
   * The configuration and credentials: Workers' `env` (vars and secrets bindings), `Deno.env.toObject()`,
   * `process.env` on Bun and Lambda. Values that are not strings (other bindings) are ignored.
   */
  env: Readonly<Record<string, unknown>>;
  /** Sends every upstream and OAuth token request (default: the platform's fetch). */
  fetch?: typeof fetch;
  /** Receives the log lines, secrets redacted (default: JSON lines on the console). */
  logger?: Logger;
  hooks?: Hooks;
  /** Validates tool arguments (default Ajv; the Workers entry passes the SDK's CfWorkerJsonSchemaValidator). */
  jsonSchemaValidator?: jsonSchemaValidator;
  /**
   * Loads the Redis store (MCP_STATE_URL) on a target whose runtime can open TCP connections (the Lambda, Deno
   * and Bun entries pass it). Absent (Workers): a server with MCP_STATE_URL set refuses to start.
   */
  loadRedisState?: RedisStateLoader;
}

export interface WebServer {
  readonly config: RuntimeConfig;
  readonly log: Logger;
  /** Answers one HTTP request: /health, /mcp and the OAuth metadata, with every guard of the Node server. */
  fetch(request: Request): Promise<Response>;
  /** From now on every request is answered 503: the start of a drain. */
  stopAccepting(): void;
  close(): Promise<void>;
}

export async function createWebServer(options: WebServerOptions): Promise<WebServer> {
  const env = stringValues(options.env);
  // Bound: on Workers, fetch called as a detached function throws "Illegal invocation".
  const upstreamFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const { declarations } = options;
  const core = buildServerCore(
    {
      catalog: dataBytes(options.catalog),
      searchIndex: async () => parsedJson(await options.searchIndex()),
      ...(options.projectFile ? { projectFile: options.projectFile } : {}),
      ...(declarations ? { declarations: async () => parsedJson(await declarations()) } : {}),
    },
    { ...options, env, fetch: upstreamFetch, logSink: consoleSink },
  );
  const { config, log } = core;
  // A web target knows no address of its own, and a Host header is the caller's word: OAuth needs the URL said.
  const needsResourceUrl = () =>
    new EndpointAuthConfigError(
      'MCP_OAUTH_ISSUER is set: also set MCP_OAUTH_RESOURCE_URL to the public URL of this endpoint (…/mcp)',
    );
  if (config.http.auth.oauth && !config.http.auth.oauth.resourceUrl) throw needsResourceUrl();
  const factory = await core.httpFactory();
  const shared = await core.sharedState();
  const handler = createWebHandler(factory, config, log, {
    defaultResourceUrl: () => {
      throw needsResourceUrl();
    },
    ...(shared.bus ? { bus: shared.bus } : {}),
  });
  return {
    config,
    log,
    fetch: async (request) => {
      const started = Date.now();
      const response = await handler.fetch(request);
      log.info('http request', {
        method: request.method,
        path: cutEnd(pathOf(request), MAX_LOGGED_PATH, NO_SECRETS).text,
        status: response.status,
        ms: Date.now() - started,
      });
      return response;
    },
    stopAccepting: () => handler.stopAccepting(),
    close: async () => {
      await handler.close();
      await shared.close();
    },
  };
}

/**
 * Request paths are logged, never query strings (they can hold tokens); this bounds a hostile path, cut without
 * leaving part of a word at the edge (cut.ts), so a token in a path is never logged in part.
 */
const MAX_LOGGED_PATH = 200;

function stringValues(env: Readonly<Record<string, unknown>>): NodeJS.ProcessEnv {
  const strings: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === 'string') strings[name] = value;
  return strings;
}

function parsedJson<T>(data: JsonData<T>): T {
  if (typeof data === 'string') return JSON.parse(data) as T;
  if (data instanceof Uint8Array) return JSON.parse(new TextDecoder().decode(data)) as T;
  return data;
}
