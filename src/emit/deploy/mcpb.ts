/**
 * manifest.json of the MCP Bundle (`.mcpb`) that `npm run bundle` packs (templates/project/src/bundle.ts): what a
 * desktop host such as Claude Desktop reads to install the server with one click. The host asks the user for
 * each `user_config` entry (secrets marked sensitive, so it stores them in the OS keychain) and starts the server
 * with `mcp_config`, substituting `${user_config.<key>}` into the server's environment.
 */
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import { isSecretVariable, type EnvVarDoc } from '../env-vars.js';

/**
 * The manifest version `mcpb init` writes by default: the one every host that installs bundles reads. Every
 * field written here is in it (checked against @anthropic-ai/mcpb's schemas in test/src/emit/deploy/mcpb.test.ts).
 */
export const MCPB_MANIFEST_VERSION = '0.2';

/** The server the bundle starts: the stdio entry, as `npm start` runs it. */
const ENTRY_POINT = 'dist/index.js';

export interface McpbInput {
  catalog: Pick<Catalog, 'baseUrl' | 'server' | 'prompts'>;
  envVars: readonly EnvVarDoc[];
  packageName: string;
  version: string;
  description: string;
  keywords: readonly string[];
}

interface UserConfigEntry {
  type: 'string';
  title: string;
  description: string;
  required: boolean;
  sensitive?: true;
  default?: string;
}

export function mcpbManifest(input: McpbInput): string {
  const asked = input.envVars.filter(isAskedFor);
  const userConfig = Object.fromEntries(asked.map((v) => [configKey(v.name), userConfigEntry(v, input.catalog)]));
  const env = Object.fromEntries(asked.map((v) => [v.name, `\${user_config.${configKey(v.name)}}`]));
  const manifest = {
    manifest_version: MCPB_MANIFEST_VERSION,
    name: input.packageName.replace(/^@[^/]+\//, ''),
    display_name: input.catalog.server.title,
    version: input.version,
    description: input.description,
    author: { name: input.catalog.server.title },
    keywords: input.keywords,
    server: {
      type: 'node',
      entry_point: ENTRY_POINT,
      mcp_config: { command: 'node', args: [`\${__dirname}/${ENTRY_POINT}`], env },
    },
    // The tools depend on MCP_TOOL_MODE and the client's profile: the host lists them from the running server.
    tools_generated: true,
    ...(input.catalog.prompts?.length ? { prompts_generated: true } : {}),
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=20' } },
    user_config: userConfig,
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * What a desktop user is asked for: where the API is and its credentials. The server's other settings keep their
 * defaults in a bundle (a host gives no way to set anything the manifest does not declare).
 */
function isAskedFor(v: EnvVarDoc): boolean {
  return !v.http && v.role !== 'endpoint' && (v.role === 'credential' || v.name === 'API_BASE_URL' || v.required);
}

function userConfigEntry(v: EnvVarDoc, catalog: Pick<Catalog, 'baseUrl'>): UserConfigEntry {
  // An optional entry the user leaves empty must reach the server as an empty variable, which it reads as unset:
  // without a default the host would pass the `${user_config.…}` placeholder through as the value.
  const fallback = v.name === 'API_BASE_URL' && catalog.baseUrl ? catalog.baseUrl : '';
  return {
    type: 'string',
    title: v.name,
    description: v.description,
    required: v.required,
    ...(isSecretVariable(v) ? { sensitive: true as const } : {}),
    ...(v.required ? {} : { default: fallback }),
  };
}

/** `API_KEY` → `api_key`: user_config keys are the variables' names, lower-cased. */
function configKey(variable: string): string {
  return variable.toLowerCase();
}
