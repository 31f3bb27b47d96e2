/**
 * What makes the generated project publishable and self-testing: npx registration snippets and registry
 * metadata for the README and package.json, a Dockerfile for the HTTP transport, `server.json` for the MCP
 * registry, `manifest.json` with `npm run bundle` for an MCP Bundle (desktop hosts), and the project's own tests
 * (a mock of the API built from the spec's examples, and a vitest file that lists the tools and calls every
 * read-only one). Also the user-owned files, created only when absent.
 */
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import type { PublishConfig } from '../../config/types.js';
import type { ApiModel, ToolModel } from '../../ir/types.js';
import { isSecretVariable, type EnvVarDoc } from '../env-vars.js';
import { npxSnippets, type ClientSnippet } from '../clients.js';
import { dataJson } from '../data-json.js';
import { slugWords } from '../names.js';
import type { EmittedFile } from '../plan.js';
import { mcpbManifest } from './mcpb.js';
import { jsonFitsIn } from '../../util/json-size.js';
import { sampleArguments } from '../samples.js';
import { MOCK_ROUTES_FILE, TOOL_CALLS_FILE } from '../test-data-files.js';
import { readProjectFile, renderTemplate } from '../templates.js';

/** The generated project's test dependencies, pinned (vite 8.4 lists an optional dependency the registry lacks). */
export const TEST_DEPENDENCIES = { client: '2.4.0', vitest: '4.1.12', vite: '8.3.4' } as const;

export const SERVER_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Files the user owns: written by the first generation only, never listed in the lock, never overwritten. */
export const USER_OWNED_FILES: readonly string[] = ['src/extensions.ts', 'src/hooks.ts'];

export function userOwnedFiles(): EmittedFile[] {
  return USER_OWNED_FILES.map((path) => ({ path, contents: readProjectFile(path) }));
}

export interface PublishView {
  mcpName: string;
  /** True while mcpName is the placeholder the README asks to replace. */
  mcpNamePlaceholder: boolean;
  keywords: string[];
  repository?: { type: 'git'; url: string };
  test: typeof TEST_DEPENDENCIES;
  npx: ClientSnippet[];
  dockerTag: string;
  credentialEnv: string[];
}

export function publishView(
  packageName: string,
  serverKey: string,
  apiTitle: string,
  envVars: readonly EnvVarDoc[],
  config: PublishConfig = {},
): PublishView {
  const bare = packageName.replace(/^@[^/]+\//, '');
  const keywords = [
    ...new Set([
      'mcp',
      'mcp-server',
      'model-context-protocol',
      'openapi',
      ...titleWords(apiTitle),
      ...(config.keywords ?? []),
    ]),
  ];
  return {
    mcpName: config.mcpName ?? `io.github.YOUR-GITHUB-USER/${bare}`,
    mcpNamePlaceholder: config.mcpName === undefined,
    keywords,
    ...(config.repository ? { repository: { type: 'git' as const, url: config.repository } } : {}),
    test: TEST_DEPENDENCIES,
    npx: npxSnippets(packageName, serverKey, envVars),
    dockerTag: bare,
    credentialEnv: envVars
      .filter((v) => isSecretVariable(v) || v.required)
      .map((v) => v.name)
      .filter((n) => n !== 'API_BASE_URL'),
  };
}

function titleWords(title: string): string[] {
  const slug = slugWords(title).join('-');
  return slug ? [slug.slice(0, 50)] : [];
}

export interface PublishInput {
  api: ApiModel;
  tools: readonly ToolModel[];
  catalog: Catalog;
  envVars: readonly EnvVarDoc[];
  /** The template view (header, packageName, version, publish, …). */
  view: { header: string; packageName: string; version: string; description: string; publish: PublishView };
}

export function publishFiles(input: PublishInput): EmittedFile[] {
  const { view } = input;
  return [
    {
      path: 'Dockerfile',
      contents: renderTemplate('Dockerfile.hbs', {
        ...view,
        dockerTag: view.publish.dockerTag,
        credentialEnv: view.publish.credentialEnv,
      }),
    },
    { path: '.dockerignore', contents: readProjectFile('dockerignore') },
    { path: 'server.json', contents: serverJson(input) },
    { path: 'manifest.json', contents: mcpbManifestOf(input) },
    { path: 'src/bundle.ts', contents: readProjectFile('src/bundle.ts') },
    // The routes and the calls are data files beside the tests, one entry a line: a thousand operations make
    // megabytes of literals, which as TypeScript cost formatting and the project's own type-check.
    { path: 'test/mock.ts', contents: renderTemplate('test/mock.ts.hbs', { header: view.header }) },
    { path: MOCK_ROUTES_FILE, contents: dataJson({ routes: mockRoutes(input.api, input.tools) }, ['routes']) },
    { path: 'test/tools.test.ts', contents: renderTemplate('test/tools.test.ts.hbs', { header: view.header }) },
    { path: TOOL_CALLS_FILE, contents: dataJson(toolCalls(input), ['tools', 'calls']) },
  ];
}

function mcpbManifestOf({ view, envVars, catalog }: PublishInput): string {
  const { packageName, version, description, publish } = view;
  return mcpbManifest({ catalog, envVars, packageName, version, description, keywords: publish.keywords });
}

function serverJson({ view, envVars, catalog }: PublishInput): string {
  const environmentVariables = envVars
    .filter((v) => !v.http && v.role !== 'endpoint')
    .map((v) => ({
      name: v.name,
      description: v.description,
      isRequired: v.required,
      isSecret: isSecretVariable(v),
      ...(v.name === 'API_BASE_URL' && catalog.baseUrl ? { default: catalog.baseUrl } : {}),
    }));
  const description = view.description.length > 100 ? `${view.description.slice(0, 99)}…` : view.description;
  const server = {
    $schema: SERVER_SCHEMA,
    name: view.publish.mcpName,
    title: catalog.server.title.slice(0, 100),
    description,
    version: view.version,
    ...(view.publish.repository
      ? { repository: { url: view.publish.repository.url, source: repositorySource(view.publish.repository.url) } }
      : {}),
    packages: [
      {
        registryType: 'npm',
        identifier: view.packageName,
        version: view.version,
        runtimeHint: 'npx',
        transport: { type: 'stdio' },
        environmentVariables,
      },
    ],
  };
  return `${JSON.stringify(server, null, 2)}\n`;
}

function repositorySource(url: string): string {
  const host = /^https?:\/\/([^/]+)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return host.replace(/^www\./, '').split('.')[0] || 'git';
}

/** Bodies of the mock beyond this many characters in total become `{}`: a huge API still gets a small mock. */
const MOCK_BODY_BUDGET = 200_000;

interface MockRoute {
  method: string;
  path: string;
  contentType: string;
  body: string;
}

function mockRoutes(api: ApiModel, tools: readonly ToolModel[]): MockRoute[] {
  const examples = new Map(api.operations.map((op) => [op.pointer, op.responseExample]));
  let budget = MOCK_BODY_BUDGET;
  const routes = tools.map((tool, index) => {
    const accept = tool.request.accept;
    const json = accept === undefined || /json/i.test(accept) || accept === '*/*';
    const example = examples.get(tool.source.pointer);
    let body: string;
    if (json) {
      // Measured before it is written: once the budget is spent, a large API's examples are never stringified.
      const value = example === undefined ? {} : example;
      body = jsonFitsIn(value, budget) ? JSON.stringify(value) : Array.isArray(example) ? '[]' : '{}';
    } else {
      body = typeof example === 'string' ? example : 'ok';
    }
    budget = Math.max(0, budget - body.length);
    const template = tool.source.path.split('?')[0]!;
    const params = (template.match(/\{[^}]+\}/g) ?? []).length;
    return {
      index,
      params,
      route: {
        method: tool.source.method.toUpperCase(),
        path: pathPattern(template),
        contentType: json ? 'application/json' : accept!,
        body,
      },
    };
  });
  // Literal paths before templated ones, so `/pets/mine` is not answered as `/pets/{petId}`.
  routes.sort((a, b) => a.params - b.params || a.index - b.index);
  return routes.map((r) => r.route);
}

function pathPattern(template: string): string {
  const parts = template
    .split(/(\{[^}]+\})/)
    .map((part) => (/^\{[^}]+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return `^${parts.join('')}/?$`;
}

/**
 * Every tool's name, the read-only tools with the arguments to call them with (`null`: no sample), and a
 * placeholder for each credential, so the tools that need one reach the mock.
 */
function toolCalls({ tools, api, catalog }: PublishInput) {
  const credentials: Record<string, string> = {};
  for (const scheme of catalog.securitySchemes) {
    for (const name of [scheme.env.value, scheme.env.username, scheme.env.password])
      if (name) credentials[name] = 'test-credential';
  }
  return {
    tools: tools.map((t) => t.name),
    calls: tools
      .filter((t) => t.annotations.readOnlyHint === true)
      .map((t) => ({ tool: t.name, args: sampleArguments(t.inputSchema, api.schemas) ?? null })),
    credentials,
  };
}
