/**
 * The user's config file (`openapi-to-mcp.config.json`, `.mjs` or `.js` with a default export): which
 * operations become tools, what the model sees of them, and the publishing metadata of the package. It belongs
 * to the user: generation reads it and never writes it.
 */
import type { CodeModeConfig, ConfirmPolicy, ToolAnnotations } from '../../templates/runtime/contract/catalog.js';

/**
 * Operations matching a selector: within a field any value may match, across fields all must (`{ tags:
 * ['pet'], methods: ['get'] }` is the GET operations tagged pet). Paths and operationIds take `*` (any
 * characters but `/`) and `**` (any characters).
 */
export interface Selector {
  tags?: string[];
  operationIds?: string[];
  paths?: string[];
  methods?: string[];
}

export interface ToolOverride {
  name?: string;
  title?: string;
  description?: string;
  annotations?: Omit<ToolAnnotations, 'title'>;
}

export interface PublishConfig {
  /** The MCP registry name (`io.github.<owner>/<name>`), written to server.json and package.json `mcpName`. */
  mcpName?: string;
  /** Source repository URL, written to package.json and server.json. */
  repository?: string;
  /** Extra npm keywords. */
  keywords?: string[];
}

export interface ProjectConfig {
  $schema?: string;
  /** When given, only operations matching one of these selectors become tools. */
  include?: Selector | Selector[];
  /** Operations matching one of these selectors are left out (after include). */
  exclude?: Selector | Selector[];
  /** Per-operation overrides, keyed by operationId or `METHOD /path` (`GET /pets/{petId}`). */
  tools?: Record<string, ToolOverride>;
  /**
   * Which calls the user confirms before they are sent (elicitation): `destructive` (the default), `writes`,
   * `never`, or a list of operations (operationIds or `METHOD /path`).
   */
  confirm?: ConfirmPolicy;
  resources?: ResourcesConfig;
  prompts?: PromptsConfig;
  publish?: PublishConfig;
  /** Code mode's write policy and limits, baked into the catalog (MCP_CODE_* override them at run time). */
  codeMode?: CodeModeConfig;
}

export interface ResourcesConfig {
  /** The OpenAPI document and the operations guide as resources (default true). */
  apiDescription?: boolean;
  /**
   * Resource templates read through GET operations, keyed by operationId or `METHOD /path`: an RFC 6570 URI
   * template whose variables are the tool's arguments (`github://repos/{owner}/{repo}`), or that plus a name
   * and description.
   */
  templates?: Record<string, string | { uri: string; name?: string; description?: string }>;
}

export interface PromptConfig {
  name: string;
  title?: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
  /** The message; `{{argument}}` is filled in from the arguments, `{{tool:operationId}}` names that tool. */
  text: string;
}

export interface PromptsConfig {
  /** The operations guide as a prompt (default true). */
  operationsGuide?: boolean;
  custom?: PromptConfig[];
}

/** A config as read from disk: its content and where it came from (for messages). */
export interface LoadedConfig {
  path: string;
  /** Shown in diagnostics: the file name as the user would write it. */
  label: string;
  config: ProjectConfig;
}

export const CONFIG_FILE_NAMES = [
  'openapi-to-mcp.config.json',
  'openapi-to-mcp.config.mjs',
  'openapi-to-mcp.config.js',
] as const;
