/** Entry point shared by every generated server: parse flags, load the catalog, start a transport. */
import type { CatalogHeader, ToolMode } from './catalog.js';
import type { SearchIndexFile } from './search.js';
import { readConfig, type RuntimeConfig } from './config.js';
import type { Hooks } from './hooks.js';
import { readDataAhead, readJsonFile } from './data-file.js';
import { serializedListing, type SerializedListing } from './listing-bytes.js';
import { DEFAULT_TOOLS_PAGE_SIZE } from './listing.js';
import { createLogger, type Logger } from './log.js';
import { readProfileChoice } from './profiles.js';
import { serverRedactionForms } from './redact.js';
import { createServerFactory } from './server.js';
import { parseCatalog } from './tool-table.js';
import { ToolRegistry } from './tools.js';
import { startStdio } from './stdio.js';
import type { UpstreamAuth } from './upstream-auth.js';

export interface MainOptions {
  catalogUrl: URL;
  /** catalog.json's bytes, when the entry point started reading them already (see readDataAhead). */
  catalogBytes?: Promise<Buffer>;
  /** tools-list.json's bytes, likewise. */
  listingBytes?: Promise<Buffer>;
  argv?: string[];
  env?: NodeJS.ProcessEnv;
  /** The project's src/hooks.ts exports. */
  hooks?: Hooks;
}

const USAGE = `usage: <server> [--http] [--port N] [--host H]
  (no flags)  serve MCP over stdio
  --http      serve Streamable HTTP (stateless) on http://127.0.0.1:$PORT/mcp (default port 3000)`;

export async function main({ catalogUrl, catalogBytes, listingBytes, argv = process.argv.slice(2), env: givenEnv = process.env, hooks }: MainOptions): Promise<void> {
  // A plain copy: the configuration is read at start-up, and every tool call looks variables up (credentials,
  // secrets to redact), which on process.env itself costs a trip into the C++ environment each time.
  const env: NodeJS.ProcessEnv = { ...givenEnv };
  const flags = parseFlags(argv);
  if (flags.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const config = readConfig(env);
  if (flags.port !== undefined) config.http.port = flags.port;
  if (flags.host !== undefined) config.http.host = flags.host;
  const { header: catalog, tools } = parseCatalog(await (catalogBytes ?? readDataAhead(catalogUrl)));
  const secrets = serverRedactionForms(catalog, env); // env is a snapshot: computed once, not per log line
  const log = createLogger(config.logLevel, () => secrets);
  if (!config.baseUrl && !catalog.baseUrl) {
    log.warn('no upstream base URL: set API_BASE_URL, or every tool call will fail', { note: catalog.baseUrlNote });
  }
  const registry = new ToolRegistry({ header: catalog, tools });
  const mode = toolMode(env['MCP_TOOL_MODE'], catalog.toolMode);
  const searchIndex = lazy(async () => (await import('./search.js')).OperationSearch.load(readJsonFile<SearchIndexFile>(new URL('search-index.json', catalogUrl))));
  // Per-caller credentials only exist over HTTP. A stdio server builds its upstream auth (token cache and
  // all) on its first call, so its cold start does not load those modules.
  const upstreamAuth = flags.http ? await httpUpstreamAuth(catalog, env, config, log) : undefined;
  // Over stdio, tools/list pages are written from tools-list.json's bytes (listing-bytes.ts).
  const listing = flags.http ? undefined : await readListing(listingBytes ?? readDataAhead(new URL('tools-list.json', catalogUrl)), log);
  const { choice: profiles, problems } = readProfileChoice(env);
  for (const problem of problems) log.warn('client profiles: entry ignored', { problem });
  const factory = createServerFactory(
    { registry, config, env, log, ...(upstreamAuth ? { upstreamAuth } : {}), ...(hooks ? { hooks } : {}) },
    { mode, searchIndex, pageSize: pageSize(env['MCP_TOOLS_PAGE_SIZE']), profiles, ...(listing ? { serializedListing: listing } : {}) },
  );
  log.debug('tool mode', { mode, tools: registry.size });
  // The HTTP transport (and @modelcontextprotocol/node with it) is loaded only when asked for: a stdio
  // server's cold start does not pay for it.
  if (flags.http) await (await import('./http.js')).startHttp(factory, config, log);
  else startStdio(factory, log);
}

/** tools-list.json's listing; without the file (or in another layout) tools/list pages are built from the catalog. */
async function readListing(bytes: Promise<Buffer>, log: Logger): Promise<SerializedListing | undefined> {
  try {
    return serializedListing(await bytes);
  } catch (error) {
    log.debug('tools-list.json not read; tools/list pages are built from the catalog', { error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
}

/** The upstream auth of an HTTP server, once it said which request headers carry per-caller credentials. */
async function httpUpstreamAuth(catalog: CatalogHeader, env: NodeJS.ProcessEnv, config: RuntimeConfig, log: Logger): Promise<UpstreamAuth> {
  const [{ createUpstreamAuth }, callerCredentials] = await Promise.all([import('./upstream-auth.js'), import('./caller-credentials.js')]);
  const auth = createUpstreamAuth({ catalog, env, timeoutMs: config.timeoutMs });
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
  const unknown = unknownCallerSchemes(callerCredentialsConfig(catalog.callerCredentials, env), catalog.securitySchemes);
  if (unknown.length > 0) log.warn('caller credentials name unknown security schemes; they are ignored', { schemes: unknown });
  if (auth.callerHeaders.size === 0) return;
  log.info('per-caller upstream credentials', { headers: Object.fromEntries(auth.callerHeaders) });
  if (endpointProtected && [...auth.callerHeaders.values()].includes('authorization')) {
    log.warn('the caller-credentials mapping forwards the Authorization header upstream, and that header also carries the token for this endpoint');
  }
}


function toolMode(raw: string | undefined, fallback: ToolMode): ToolMode {
  return raw === 'all' || raw === 'dynamic' || raw === 'hybrid' ? raw : fallback;
}

function pageSize(raw: string | undefined): number {
  const n = raw === undefined ? NaN : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_TOOLS_PAGE_SIZE;
}

function lazy<T>(load: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= load());
}

interface Flags {
  http: boolean;
  help: boolean;
  port?: number;
  host?: string;
}

export function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = { http: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--http') flags.http = true;
    else if (name === '--help' || name === '-h') flags.help = true;
    else if (name === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port needs a number from 0 to 65535`);
      flags.port = port;
      flags.http = true;
    } else if (name === '--host') {
      flags.host = value();
      flags.http = true;
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return flags;
}
