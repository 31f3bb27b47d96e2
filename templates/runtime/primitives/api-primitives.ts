/**
 * The resources and prompts the generator chose (catalog `resources`, `prompts`), served the way an owner's
 * own are (extensions.ts): the project's files (the OpenAPI document, the operations guide) as resources;
 * resource templates read through their GET operation's tool with `callTool`, so a read goes through the same
 * validation, request mapping, credentials, hooks, redaction and truncation as a tool call; prompts whose
 * text is filled from their arguments.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type ReadResourceResult,
  type Variables,
} from '@modelcontextprotocol/server';
import type { CatalogHeader, CatalogPrompt, CatalogResourceTemplate, JsonSchema } from '../contract/catalog.js';
import type { ExtraPrompt, ExtraResource, ExtraResourceTemplate } from '../extend/extensions.js';
import type { ToolRegistry } from '../server/tool-registry.js';

export interface ApiPrimitives {
  resources: ExtraResource[];
  resourceTemplates: ExtraResourceTemplate[];
  prompts: ExtraPrompt[];
}

/** `readProjectFile` reads a file of the project by its path relative to catalog.json (absent: none can be read). */
export function apiPrimitives(
  catalog: CatalogHeader,
  readProjectFile: ((file: string) => Promise<string>) | undefined,
  registry: ToolRegistry,
): ApiPrimitives {
  const fileText = projectFiles(readProjectFile);
  return {
    resources: (catalog.resources?.documents ?? []).map(({ uri, name, title, description, mimeType, file }) => ({
      uri,
      name,
      title,
      description,
      mimeType,
      read: async () => [{ uri, mimeType, text: await fileText(file) }],
    })),
    resourceTemplates: (catalog.resources?.templates ?? []).map((template) => readThroughTool(template, registry)),
    prompts: (catalog.prompts ?? []).map((prompt) => servedPrompt(prompt, fileText)),
  };
}

/** A project file's text, read on first use and kept (they are small, and they change only with a regeneration). */
function projectFiles(read: ((file: string) => Promise<string>) | undefined): (file: string) => Promise<string> {
  const texts = new Map<string, Promise<string>>();
  return (file) => {
    let text = texts.get(file);
    if (!text) {
      text = read
        ? read(file)
        : Promise.reject(new Error(`${file} is not bundled on this deployment target: read it from the Node server`));
      texts.set(file, text);
      text.catch(() => texts.delete(file));
    }
    return text;
  };
}

function readThroughTool(template: CatalogResourceTemplate, registry: ToolRegistry): ExtraResourceTemplate {
  const { uriTemplate, name, title, description, mimeType, tool } = template;
  return {
    uriTemplate,
    name,
    ...(title ? { title } : {}),
    description,
    mimeType,
    read: async (uri, variables, ctx) => {
      const schema = registry.get(tool)?.inputSchema ?? {};
      const result = await ctx.callTool(tool, toolArguments(variables, schema));
      const text = result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      if (result.isError) {
        // The tool's own error text says what went wrong; an API's 404 is the resource's own "not found".
        if (/^HTTP 404\b/.test(text)) throw new ResourceNotFoundError(uri, `Reading ${uri}: ${text}`);
        throw new ProtocolError(ProtocolErrorCode.InternalError, `Reading ${uri}: ${text}`);
      }
      return resultContents(uri, mimeType, result.content);
    },
  };
}

/**
 * URI template values are percent-encoded text (the SDK's match leaves them so): each is decoded, then made
 * what its argument's schema takes (a number, a boolean, a list).
 */
function toolArguments(variables: Variables, inputSchema: JsonSchema): Record<string, unknown> {
  const properties = (inputSchema['properties'] ?? {}) as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => [
      name,
      typedValue(Array.isArray(value) ? value.map(decoded) : decoded(value), properties[name] ?? {}),
    ]),
  );
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text; // a lone `%` is the character itself
  }
}

function typedValue(value: string | string[], schema: JsonSchema): unknown {
  const type = Array.isArray(schema['type']) ? schema['type'][0] : schema['type'];
  if (type === 'array') return (Array.isArray(value) ? value : value.split(',')).filter((v) => v !== '');
  const text = Array.isArray(value) ? value.join(',') : value;
  if ((type === 'integer' || type === 'number') && text.trim() !== '' && Number.isFinite(Number(text)))
    return Number(text);
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

type Content = Awaited<ReturnType<ExtraResourceTemplate['read']>>[number];

function resultContents(
  uri: string,
  mimeType: string,
  content: ReadonlyArray<{ type: string; [key: string]: unknown }>,
): ReadResourceResult['contents'] {
  const contents: Content[] = [];
  for (const item of content) {
    if (item.type === 'text') contents.push({ uri, mimeType, text: String(item['text']) });
    else if (item.type === 'image' || item.type === 'audio')
      contents.push({ uri, mimeType: String(item['mimeType']), blob: String(item['data']) });
    else if (item.type === 'resource') {
      const resource = item['resource'] as { mimeType?: string; blob?: string; text?: string };
      contents.push(
        resource.blob !== undefined
          ? { uri, mimeType: resource.mimeType ?? mimeType, blob: resource.blob }
          : { uri, mimeType: resource.mimeType ?? mimeType, text: resource.text ?? '' },
      );
    }
  }
  return contents;
}

function servedPrompt(prompt: CatalogPrompt, fileText: (file: string) => Promise<string>): ExtraPrompt {
  const { name, title, description, arguments: args, text, file } = prompt;
  return {
    name,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    arguments: args,
    get: async (values) => {
      const body = file ? await fileText(file) : fill(text ?? '', values);
      // A file-based prompt (the operations guide) takes its one argument as the task to start on.
      const task = file ? Object.values(values).find((v) => v.trim() !== '') : undefined;
      return [{ role: 'user', content: { type: 'text', text: task ? `${body}\nTask: ${task}\n` : body } }];
    },
  };
}

/** `{{name}}` becomes the argument's value; an optional argument left out becomes nothing. */
function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, (_, name: string) => values[name] ?? '');
}
