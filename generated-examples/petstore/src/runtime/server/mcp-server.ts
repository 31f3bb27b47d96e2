/**
 * The MCP server factory. The SDK calls it once per HTTP request (stateless) and once per stdio
 * connection, so it only wires handlers to state built once at start-up: the tool list for the chosen mode
 * (precomputed, paged) and the registry.
 *
 * It uses the SDK's low-level `Server` rather than `McpServer`: McpServer converts every registered tool's
 * schema on every construction, which for an API with a thousand operations would dominate each request.
 */
import {
  CLIENT_INFO_META_KEY,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type HandlerResultTypeMap,
  type RequestTypeMap,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { CatalogTool, ToolMode } from '../contract/catalog.js';
import type { CallDeps } from './call-tool.js';
import { createConfirmGate, type ConfirmGate } from '../confirm/confirm.js';
import { catalogConfirmPolicy, needsConfirmation, withConfirmArgument } from '../contract/confirm-policy.js';
import { readEnv } from '../contract/environment.js';
import { MemoryStateStore, type StateStore } from '../state/state-store.js';
import { uriMatcher } from '../primitives/uri-template-match.js';
import { META_TOOL_NAMES, metaInstructions, SEARCH_TOOL } from '../contract/meta-definitions.js';
import { CODE_EXECUTE_TOOL, CODE_TOOL_NAMES, codeInstructions } from '../contract/code-definitions.js';
import { directCallRefusal, programsMayAsk } from '../contract/code-policy.js';
import type { CodeSettings } from '../contract/code-limits.js';
import type { DeclarationsFile } from '../contract/code-definitions.js';
import type { CodeModeSupport } from './code-mode-seam.js';
import type { ListedTool } from '../contract/listing.js';
import { decodeArguments, unparsedHint, type DecodedArguments } from './decode-arguments.js';
import { argumentsTooDeep } from '../contract/message-limits.js';
import { lowerTool, profileMode, type LoweredTool } from '../contract/profiles/profile-listing.js';
import {
  PROFILES,
  profileFor,
  type ClientProfile,
  type ProfileChoice,
  type ProfileName,
} from '../contract/profiles/profiles.js';
import type { OperationSearch } from '../search/search.js';
import {
  callExtraTool,
  extensionCapabilities,
  listedExtraTools,
  registerResourcesAndPrompts,
  type ExtensionContext,
  type ServedExtensions,
} from '../extend/extensions.js';

/**
 * tools/list answers may be cached by clients for this long: the tool set changes only with a regeneration, which a
 * server watching its catalog announces with list_changed (catalog-watch.ts).
 */
export const TOOLS_LIST_TTL_MS = 3_600_000;

export interface ServeOptions {
  mode: ToolMode;
  /** Loaded on the first search only: the all-tools mode never pays for it. */
  searchIndex: () => Promise<OperationSearch>;
  /** Tools per tools/list page; 0 = one page. */
  pageSize: number;
  /** How a client's profile is chosen (profiles.ts); absent: every client gets the full schemas. */
  profiles?: ProfileChoice;
  /** The owner's own tools, resources and prompts (extensions.ts). */
  extensions?: ServedExtensions;
  /**
   * In code mode: its tools' handlers (handed in by the project's entry), its limits and write policy, and its
   * declarations file (read on the first search).
   */
  code?: { support: CodeModeSupport; settings: CodeSettings; declarations: () => Promise<DeclarationsFile> };
  /** Signs confirmation states and response links (MCP_SIGNING_KEY); absent: a random key for this factory. */
  signingKey?: Uint8Array | string;
  /** Records the confirmation states used (state-store.ts); absent: this factory's memory. */
  stateStore?: StateStore;
}

export function createServerFactory(deps: CallDeps, options: ServeOptions): () => Server {
  const served = serveCatalog(deps, options);
  return serverFactory(() => served);
}

/**
 * What one catalog serves, built once per catalog (at start-up, and again by each reload: catalog-state.ts).
 * A request reads the current one once, at its start, and finishes on it.
 */
export interface ServedCatalog {
  readonly info: { name: string; version: string; title: string };
  readonly instructions: string;
  readonly listScope: 'public' | 'private';
  readonly extensions: ServedExtensions;
  readonly confirm: ConfirmGate;
  contextOf(ctx: RequestContext): ExtensionContext;
  listTools(cursor: string | undefined, ctx: ServerContext, server: Server): Page;
  callTool(
    request: RequestTypeMap['tools/call'],
    ctx: ServerContext,
    server: Server,
  ): Promise<HandlerResultTypeMap['tools/call']>;
}

export interface ServerFactoryOptions {
  /** Declare `listChanged` on tools, resources and prompts: the catalog may be swapped while connected. */
  listChanged?: boolean;
  /** Each server made, once connected state matters (stdio: the connection's instance sends list_changed). */
  onServer?: (server: Server) => void;
}

/** Servers whose every request is answered by the catalog `current()` returns when it arrives. */
export function serverFactory(current: () => ServedCatalog, factoryOptions: ServerFactoryOptions = {}): () => Server {
  const listChanged = factoryOptions.listChanged ?? false;
  return () => {
    // What a client learns once per connection (discover, initialize) comes from the catalog current then.
    const first = current();
    const server = new Server(first.info, {
      capabilities: { tools: { listChanged }, ...extensionCapabilities(first.extensions, listChanged) },
      instructions: first.instructions,
      cacheHints: {
        'server/discover': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: 'public' },
        'tools/list': { ttlMs: TOOLS_LIST_TTL_MS, cacheScope: first.listScope },
      },
      // Every catalog's gate signs with the process's one key, so a state stays valid across a reload.
      requestState: { verify: (state, ctx) => current().confirm.verifyState(state, ctx) },
    });
    server.setRequestHandler('tools/list', (request, ctx) => current().listTools(request.params?.cursor, ctx, server));
    server.setRequestHandler('tools/call', (request, ctx) => current().callTool(request, ctx, server));
    registerResourcesAndPrompts(server, current);
    factoryOptions.onServer?.(server);
    return server;
  };
}

export function serveCatalog(deps: CallDeps, options: ServeOptions): ServedCatalog {
  const { catalog } = deps.registry;
  const info = { name: catalog.server.name, version: catalog.server.version, title: catalog.server.title };
  const choice: ProfileChoice = options.profiles ?? { clients: new Map() };
  const confirmPolicy = readEnv(deps.env, 'MCP_CONFIRM') ?? catalogConfirmPolicy(catalog);
  const confirm = createConfirmGate(confirmPolicy, options.signingKey, options.stateStore ?? new MemoryStateStore());
  const listings = new Map<`${ProfileName}:${boolean}`, ProfileListing>();
  // Built on a profile's first request and kept: per-request work does not grow with the number of tools.
  // A client that cannot elicit is listed the fallback `confirm` argument of the tools that ask (confirm.ts).
  // Code mode: execute lists the fallback too when some call a program may make would be asked about.
  let programsMayBeAsked: boolean | undefined;
  const programsAsk = () =>
    (programsMayBeAsked ??=
      options.code !== undefined &&
      programsMayAsk(
        confirmPolicy,
        options.code.settings.allow,
        deps.registry.names().map((n) => deps.registry.get(n)!),
      ));
  const listingOf = (profile: ClientProfile, confirmArgument: boolean) => {
    let listing = listings.get(`${profile.name}:${confirmArgument}`);
    if (!listing) {
      const confirmed = confirmArgument ? (tool: CatalogTool) => needsConfirmation(confirmPolicy, tool) : undefined;
      listing = profileListing(deps, options, profile, confirmed, confirmArgument && programsAsk());
      listings.set(`${profile.name}:${confirmArgument}`, listing);
    }
    return listing;
  };
  const instructions = instructionsFor(catalog.server.instructions, options.mode, deps.registry.size, catalog.core);
  // Unless one profile is forced and no tool asks for confirmation, what tools/list shows depends on the client.
  const listScope = choice.forced && !confirm.asks ? 'public' : 'private';
  const extensions = withResponseLinks(options.extensions ?? NO_EXTENSIONS, deps);
  const contextOf = (ctx: RequestContext) => extensionContext(deps, ctx);
  const listingFor = (ctx: ServerContext, server: Server) =>
    listingOf(profileFor(choice, clientName(ctx.mcpReq.envelope, server)), confirm.listsConfirmArgument(ctx, server));
  return {
    info,
    instructions,
    listScope,
    extensions,
    confirm,
    contextOf,
    listTools: (cursor, ctx, server) => pageFor(listingFor(ctx, server).pages, cursor),
    callTool: async (request, ctx, server) => {
      const name = request.params.name;
      // Before anything walks the arguments: decoding, validation, confirmation and redaction all recurse.
      const tooDeep = argumentsTooDeep(request.params.arguments);
      if (tooDeep) return (await loadCallPath()).errorResult(`Invalid arguments for tool ${name}: ${tooDeep}`);
      await deps.registry.loadValidator();
      const listing = listingFor(ctx, server);
      const decoded = listing.decoded(name, (request.params.arguments ?? {}) as Record<string, unknown>);
      const { unparsed } = decoded;
      // JSON text decoded for a strict host can be nested deeper than the arguments it came in.
      const decodedTooDeep = decoded.args !== request.params.arguments && argumentsTooDeep(decoded.args);
      if (decodedTooDeep)
        return (await loadCallPath()).errorResult(`Invalid arguments for tool ${name}: ${decodedTooDeep}`);
      // execute's fallback `confirm` (code-confirm.ts) is for the confirmation, not part of the program's arguments.
      const execute = options.code !== undefined && name === CODE_EXECUTE_TOOL;
      const { confirm: programConfirmed, ...executeArgs } = execute ? decoded.args : {};
      const args = execute ? executeArgs : decoded.args;
      const extra = extensions.tools.get(name);
      if (extra)
        return callExtraTool(extra, args, contextOf(ctx), (schema, value) =>
          deps.registry.validateAgainst(`extension:${name}`, schema, value),
        );
      // The caller's HTTP headers, for per-caller upstream credentials (undefined over stdio).
      const callerHeaders = ctx.http?.req?.headers;
      const { callTool, errorResult, handleMetaTool } = await loadCallPath();
      const meta = listing.metaByName.get(name);
      const tool = meta ? undefined : deps.registry.get(name);
      // JSON text that did not parse: the refusal says so (callTool would only say the value is not an object).
      const invalid = meta
        ? deps.registry.validateAgainst(`meta:${name}`, meta.inputSchema, args)
        : unparsed.length > 0 && tool
          ? deps.registry.validate(tool, args)
          : undefined;
      if (invalid)
        return errorResult(
          `Invalid arguments for tool ${name}: ${invalid}${unparsed.length > 0 ? `; ${unparsedHint(unparsed)}` : ''}`,
        );
      // Asked first when the confirmation policy says so: nothing is sent before the user agrees.
      const confirmedCall = async (operation: CatalogTool, operationArgs: Record<string, unknown>) => {
        const outcome = await confirm.check(operation, operationArgs, ctx, server, (checked) =>
          Boolean(deps.registry.validate(operation, checked)),
        );
        if ('result' in outcome) return outcome.result;
        return callTool(deps, operation, outcome.proceed, ctx.mcpReq.signal, callerHeaders);
      };
      if (meta && options.code && CODE_TOOL_NAMES.includes(name)) {
        const { support, settings, declarations } = options.code;
        return support.callTool(name, args, {
          registry: deps.registry,
          search: options.searchIndex,
          settings,
          declarations,
          callOperation: (tool, operationArgs, signal) => callTool(deps, tool, operationArgs, signal, callerHeaders),
          signal: ctx.mcpReq.signal,
          confirm: { gate: confirm, policy: confirmPolicy, ctx, server, confirmedByArgument: programConfirmed },
        });
      }
      if (meta) {
        return handleMetaTool(name, args, {
          registry: deps.registry,
          search: options.searchIndex,
          callOperation: confirmedCall,
        });
      }
      // Operations not listed in this mode stay callable by name: listing is about the model's context. In code
      // mode they obey the write policy of programs, checked before anything is sent.
      if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${name} not found`);
      const refusal = options.code && directCallRefusal(tool, options.code.settings.allow);
      if (refusal) return errorResult(refusal);
      return confirmedCall(tool, args);
    },
  };
}

const NO_EXTENSIONS: ServedExtensions = { tools: new Map(), resources: new Map(), prompts: new Map() };

/** The links of large and binary responses are read as a resource template, replaying the call for each page. */
function withResponseLinks(served: ServedExtensions, deps: CallDeps): ServedExtensions {
  if (!deps.links) return served;
  const template = deps.links.template(async (name, args, page, ctx) => {
    const { callTool, errorResult } = await loadCallPath();
    const tool = deps.registry.get(name);
    if (!tool) return errorResult(`There is no tool ${name} any more`);
    return callTool(deps, tool, args, ctx.signal, ctx.requestHeaders, page);
  });
  const link = { template, matches: uriMatcher(template.uriTemplate) };
  return { ...served, resourceTemplates: [...(served.resourceTemplates ?? []), link] };
}

interface RequestContext {
  mcpReq: { signal: AbortSignal };
  http?: { req?: Request };
}

/** What an owner's tool, resource or prompt gets: the server's fetch, logger and environment, and its generated tools. */
function extensionContext(deps: CallDeps, ctx: RequestContext): ExtensionContext {
  const requestHeaders = ctx.http?.req?.headers;
  return {
    signal: ctx.mcpReq.signal,
    log: deps.log,
    fetch: deps.fetch ?? fetch,
    env: deps.env,
    ...(requestHeaders ? { requestHeaders } : {}),
    callTool: async (name, args) => {
      const tool = deps.registry.get(name);
      if (!tool) throw new Error(`callTool: there is no generated tool ${name}`);
      const { callTool } = await loadCallPath();
      const { content, structuredContent, isError } = await callTool(
        deps,
        tool,
        args,
        ctx.mcpReq.signal,
        requestHeaders,
      );
      return { content, ...(structuredContent ? { structuredContent } : {}), ...(isError ? { isError } : {}) };
    },
  };
}

/**
 * Instructions are the same for every client (the SDK answers discover and initialize before any request says
 * who asks). In mode all, a client whose host caps tools below the API's count is listed the hybrid tools
 * instead (profile-listing.ts), so the instructions say how to use them when they are there.
 */
function instructionsFor(base: string, mode: ToolMode, tools: number, core: readonly string[]): string {
  if (mode === 'code') return `${base}\n\n${codeInstructions()}`;
  if (mode !== 'all') return `${base}\n\n${metaInstructions(mode, core)}`;
  if (tools <= SMALLEST_TOOL_CAP) return base;
  return `${base}\n\nIf ${SEARCH_TOOL} is among your tools: ${metaInstructions('hybrid', core)}`;
}

const SMALLEST_TOOL_CAP = Math.min(...Object.values(PROFILES).map((p) => p.maxTools));

/**
 * The client's name: from the request's `_meta` envelope (2026-07-28), else from the `initialize` this
 * server instance answered (2025-11-25 over stdio, where one instance serves the connection). A 2025-11-25
 * request over stateless HTTP comes to a fresh instance that saw no `initialize`: no name (see the README).
 */
function clientName(envelope: unknown, server: Server): string | undefined {
  const info = (envelope as Record<string, unknown> | undefined)?.[CLIENT_INFO_META_KEY] as
    { name?: unknown } | undefined;
  if (typeof info?.name === 'string') return info.name;
  return server.getClientVersion()?.name;
}

/** What one profile's clients are listed, and how their arguments map back to the full schemas. */
interface ProfileListing {
  pages: Array<() => Page>;
  /** The meta-tools this listing shows, as listed in full (calls are validated against these). */
  metaByName: ReadonlyMap<string, ListedTool>;
  /** Arguments made for the lowered schema of tool `name`, as the full schema takes them. */
  decoded: (name: string, args: Record<string, unknown>) => DecodedArguments;
}

/**
 * `confirmed`: the tools listed with the fallback `confirm` argument (a client that cannot elicit);
 * `executeConfirms`: code mode's execute is listed with it too.
 */
function profileListing(
  deps: CallDeps,
  options: ServeOptions,
  profile: ClientProfile,
  confirmed?: (tool: CatalogTool) => boolean,
  executeConfirms = false,
): ProfileListing {
  const names = deps.registry.names();
  const { listing } = profileMode(deps.registry.catalog, names, options.mode, profile);
  const { direct } = listing;
  const meta = executeConfirms
    ? listing.meta.map((t) => (t.name === CODE_EXECUTE_TOOL ? withConfirmArgument(t, t) : t))
    : listing.meta;
  const served = [...META_TOOL_NAMES, ...CODE_TOOL_NAMES];
  const metaByName = new Map(meta.filter((t) => served.includes(t.name)).map((t) => [t.name, t]));
  const extraTools = listedExtraTools(options.extensions ?? NO_EXTENSIONS);
  const entries: PageEntry[] = [
    ...direct.map((index) => ({ index })),
    ...meta.map((tool) => ({ tool })),
    ...extraTools.map((tool) => ({ tool })),
  ];
  const listedOperation = (index: number) => {
    const operation = deps.registry.listedAt(index, listing.compact);
    const tool = deps.registry.at(index);
    return confirmed?.(tool) ? withConfirmArgument(operation, tool) : operation;
  };
  const listed = ({ index, tool }: PageEntry) => tool ?? listedOperation(index!);
  if (!profile.rules) {
    return {
      pages: paginate(entries, options.pageSize, (slice) => slice.map(listed)),
      metaByName,
      decoded: (_name, args) => ({ args, unparsed: [] }),
    };
  }
  const lowered = new Map<string, LoweredTool>();
  const loweredOf = (tool: ListedTool) => {
    let found = lowered.get(tool.name);
    if (!found) lowered.set(tool.name, (found = lowerTool(tool, profile)));
    return found;
  };
  const listedByName = (name: string): ListedTool | undefined => {
    const notFromCatalog = metaByName.get(name) ?? extraTools.find((t) => t.name === name);
    if (notFromCatalog) return notFromCatalog;
    const index = deps.registry.indexOf(name);
    return index < 0 ? undefined : deps.registry.listedAt(index, listing.compact);
  };
  return {
    pages: paginate(entries, options.pageSize, (slice) => slice.map((entry) => loweredOf(listed(entry)).tool)),
    metaByName,
    decoded: (name, args) => {
      const tool = profile.rules?.strictObjects ? listedByName(name) : undefined;
      const decoding = tool && loweredOf(tool).lowering?.decoding;
      return decoding ? decodeArguments(args, decoding) : { args, unparsed: [] };
    },
  };
}

/**
 * The modules a tools/call needs (request building, upstream, auth, the meta-tool handlers) load on the
 * first call, not at start-up: a server's cold start to its first tools/list does not pay for them.
 */
let callPath:
  | Promise<
      typeof import('./call-tool.js') &
        typeof import('../search/meta-tools.js') &
        typeof import('../upstream/response.js')
    >
  | undefined;

function loadCallPath(): NonNullable<typeof callPath> {
  callPath ??= Promise.all([
    import('./call-tool.js'),
    import('../search/meta-tools.js'),
    import('../upstream/response.js'),
  ]).then(([call, meta, response]) => ({ ...call, ...meta, ...response }));
  return callPath;
}

/** A tools/list result (a type, so that it is assignable to the SDK's ListToolsResult). */
type Page = {
  tools: ListedTool[];
  nextCursor?: string;
};

/** A listed operation (by catalog index) or a meta-tool. */
interface PageEntry {
  index?: number;
  tool?: ListedTool;
}

/** Pages are built on first request: a cold start lists (and reads) only the tools of the first page. */
function paginate(
  entries: PageEntry[],
  pageSize: number,
  toolsOf: (slice: PageEntry[]) => ListedTool[],
): Array<() => Page> {
  const size = pageSize <= 0 ? Math.max(entries.length, 1) : pageSize;
  const pages: Array<() => Page> = [];
  for (let start = 0; start === 0 || start < entries.length; start += size) {
    const slice = entries.slice(start, start + size);
    const next = start + size < entries.length ? String(pages.length + 1) : undefined;
    let page: Page | undefined;
    pages.push(() => (page ??= { tools: toolsOf(slice), ...(next ? { nextCursor: next } : {}) }));
  }
  return pages;
}

/** Cursors are page numbers as strings; anything else is an invalid cursor (-32602, as the spec says). */
function pageFor(pages: Array<() => Page>, cursor: string | undefined): Page {
  if (cursor === undefined) return pages[0]!();
  const index = /^\d+$/.test(cursor) ? Number(cursor) : -1;
  const page = pages[index];
  if (!page) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
  return page();
}
