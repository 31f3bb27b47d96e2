/**
 * The owner's own tools, resources and prompts, served beside the generated tools. They are written in the
 * project's `src/extensions.ts` (created once by openapi-to-mcp, never overwritten) or passed to
 * `createServer()`. Every list is optional; a name or URI given twice is an error at start-up.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type GetPromptResult,
  type PromptArgument,
  type ReadResourceResult,
  ResourceNotFoundError,
  type Server,
  type Variables,
} from '@modelcontextprotocol/server';
import type { ToolAnnotations } from '../contract/catalog.js';
import type { ListedTool } from '../contract/listing.js';
import type { Logger } from '../server/log.js';
import { META_TOOL_NAMES } from '../contract/meta-definitions.js';
import { uriMatcher, type UriMatcher } from '../primitives/uri-template-match.js';

/** What an owner's tool, resource or prompt is given besides its arguments. */
export interface ExtensionContext {
  /** Aborted when the client cancels the request (or the server shuts down). */
  signal: AbortSignal;
  log: Logger;
  /** The server's fetch: createServer's `fetch` option, else the global one. */
  fetch: typeof fetch;
  /** The environment the server was started with. */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Calls a generated tool with the same validation, credentials, hooks and redaction as a client's call. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The incoming MCP request's HTTP headers; undefined over stdio. */
  requestHeaders?: Headers;
}

export interface ExtraTool<Args extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  title?: string;
  description: string;
  /** JSON Schema (2020-12) of the arguments: they are validated against it before `run` is called. */
  inputSchema: { type: 'object'; [keyword: string]: unknown };
  annotations?: ToolAnnotations;
  run(args: Args, ctx: ExtensionContext): CallToolResult | Promise<CallToolResult>;
}

export interface ExtraResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(ctx: ExtensionContext): ReadResourceResult['contents'] | Promise<ReadResourceResult['contents']>;
}

/** Resources by URI template (RFC 6570): `read` gets the URI asked for and the template's variables from it. */
export interface ExtraResourceTemplate {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  read(
    uri: string,
    variables: Variables,
    ctx: ExtensionContext,
  ): ReadResourceResult['contents'] | Promise<ReadResourceResult['contents']>;
}

export interface ExtraPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  get(
    args: Record<string, string>,
    ctx: ExtensionContext,
  ): GetPromptResult['messages'] | Promise<GetPromptResult['messages']>;
}

export interface Extensions {
  tools?: readonly ExtraTool[];
  resources?: readonly ExtraResource[];
  resourceTemplates?: readonly ExtraResourceTemplate[];
  prompts?: readonly ExtraPrompt[];
}

/** The extensions keyed for lookup, checked once at start-up. */
export interface ServedExtensions {
  tools: ReadonlyMap<string, ExtraTool>;
  resources: ReadonlyMap<string, ExtraResource>;
  /** Tried in order for a URI that is no resource of its own. */
  resourceTemplates?: ReadonlyArray<{ template: ExtraResourceTemplate; matches: UriMatcher }>;
  prompts: ReadonlyMap<string, ExtraPrompt>;
}

/** Throws when a name or URI repeats, or when an owner's tool takes the name of a generated tool or meta-tool. */
export function serveExtensions(extensions: Extensions, generatedToolNames: readonly string[]): ServedExtensions {
  const taken = new Set([...generatedToolNames, ...META_TOOL_NAMES]);
  const tools = keyed('tool', extensions.tools ?? [], (t) => t.name);
  for (const name of tools.keys()) {
    if (taken.has(name)) throw new Error(`extension tool ${name}: a generated tool already has this name`);
  }
  return {
    tools,
    resources: keyed('resource', extensions.resources ?? [], (r) => r.uri),
    resourceTemplates: [
      ...keyed('resource template', extensions.resourceTemplates ?? [], (t) => t.uriTemplate).values(),
    ].map((template) => ({ template, matches: uriMatcher(template.uriTemplate) })),
    prompts: keyed('prompt', extensions.prompts ?? [], (p) => p.name),
  };
}

function keyed<T>(kind: string, items: readonly T[], keyOf: (item: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) {
    const key = keyOf(item);
    if (map.has(key)) throw new Error(`extension ${kind} ${key} is given twice`);
    map.set(key, item);
  }
  return map;
}

/** The owner's tools as tools/list shows them. */
export function listedExtraTools(served: ServedExtensions): ListedTool[] {
  return [...served.tools.values()].map(({ name, title, description, inputSchema, annotations }) => ({
    name,
    ...(title ? { title } : {}),
    description,
    inputSchema,
    annotations: annotations ?? {},
  }));
}

/** The capabilities the owner's resources and prompts add; `listChanged`: their lists may change while connected. */
export function extensionCapabilities(
  served: ServedExtensions,
  listChanged = false,
): {
  resources?: { listChanged?: true };
  prompts?: { listChanged?: true };
} {
  const flag = listChanged ? { listChanged: true as const } : {};
  return {
    ...(served.resources.size > 0 || (served.resourceTemplates?.length ?? 0) > 0 ? { resources: flag } : {}),
    ...(served.prompts.size > 0 ? { prompts: flag } : {}),
  };
}

type ContextOf = (ctx: { mcpReq: { signal: AbortSignal }; http?: { req?: Request } }) => ExtensionContext;

/** The extensions served now, and the context their handlers get (a reload replaces both together). */
export interface ServedPrimitives {
  readonly extensions: ServedExtensions;
  contextOf: ContextOf;
}

/**
 * resources/list, resources/read, prompts/list and prompts/get, when the owner gave any. Which methods are
 * served is decided by the extensions current when the server is made (they match its declared capabilities);
 * each request is answered from those current when it arrives.
 */
export function registerResourcesAndPrompts(server: Server, current: () => ServedPrimitives): void {
  const first = current().extensions;
  const templatesOf = (served: ServedExtensions) => served.resourceTemplates ?? [];
  if (first.resources.size > 0 || templatesOf(first).length > 0) {
    server.setRequestHandler('resources/templates/list', () => ({
      resourceTemplates: templatesOf(current().extensions).map(
        ({ template: { uriTemplate, name, title, description, mimeType } }) => ({
          uriTemplate,
          name,
          ...defined({ title, description, mimeType }),
        }),
      ),
    }));
    server.setRequestHandler('resources/list', () => ({
      resources: [...current().extensions.resources.values()].map(({ uri, name, title, description, mimeType }) => ({
        uri,
        name,
        ...defined({ title, description, mimeType }),
      })),
    }));
    server.setRequestHandler('resources/read', async (request, ctx) => {
      const { extensions: served, contextOf } = current();
      const { uri } = request.params;
      const resource = served.resources.get(uri);
      if (resource) return { contents: await resource.read(contextOf(ctx)) };
      for (const { template, matches } of templatesOf(served)) {
        const variables = await matches(uri);
        if (variables) return { contents: await template.read(uri, variables, contextOf(ctx)) };
      }
      throw new ResourceNotFoundError(uri, `Resource ${uri} not found`);
    });
  }
  if (first.prompts.size > 0) {
    server.setRequestHandler('prompts/list', () => ({
      prompts: [...current().extensions.prompts.values()].map(({ name, title, description, arguments: args }) => ({
        name,
        ...defined({ title, description }),
        ...(args ? { arguments: args } : {}),
      })),
    }));
    server.setRequestHandler('prompts/get', async (request, ctx) => {
      const { extensions: served, contextOf } = current();
      const prompt = served.prompts.get(request.params.name);
      if (!prompt) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${request.params.name} not found`);
      const args = request.params.arguments ?? {};
      const missing = (prompt.arguments ?? [])
        .filter((a) => a.required && args[a.name] === undefined)
        .map((a) => a.name);
      if (missing.length > 0)
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Prompt ${prompt.name} needs the argument(s) ${missing.join(', ')}`,
        );
      return {
        ...(prompt.description ? { description: prompt.description } : {}),
        messages: await prompt.get(args, contextOf(ctx)),
      };
    });
  }
}

function defined<T extends Record<string, string | undefined>>(fields: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<
    Record<keyof T, string>
  >;
}

/**
 * One call of an owner's tool: arguments validated against its inputSchema first; a tool that throws gives a
 * tool error (the model sees what went wrong, the server keeps serving).
 */
export async function callExtraTool(
  tool: ExtraTool,
  args: Record<string, unknown>,
  ctx: ExtensionContext,
  validate: (schema: ExtraTool['inputSchema'], args: unknown) => string | undefined,
): Promise<CallToolResult> {
  const invalid = validate(tool.inputSchema, args);
  if (invalid) return toolError(`Invalid arguments for tool ${tool.name}: ${invalid}`);
  try {
    return await tool.run(args, ctx);
  } catch (error) {
    return toolError(`Tool ${tool.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
