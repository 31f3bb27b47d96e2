/**
 * Where code mode plugs into the server. Code mode (code-mode/: the QuickJS sandbox, type stripping, their
 * dependencies) is copied only into a project generated with `--tool-mode code`, so nothing outside that folder
 * imports it: the project's entry hands it in as `codeMode` (code-mode/code-mode-support.ts), as it hands in
 * the owner's hooks and extensions. These are the types both sides agree on.
 */
import type { InputRequiredResult, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CatalogHeader, CatalogTool, ConfirmPolicy } from '../contract/catalog.js';
import type { DeclarationsFile } from '../contract/code-definitions.js';
import type { CodeSettings } from '../contract/code-limits.js';
import type { ConfirmGate } from '../confirm/confirm.js';
import type { OperationSearch } from '../search/search.js';
import type { ToolResult } from '../upstream/response.js';
import type { ToolRegistry } from './tool-registry.js';

export interface CodeModeSupport {
  /** The settings one catalog's programs run under: MCP_CODE_*, else the catalog's `codeMode`, else defaults. */
  readSettings(env: NodeJS.ProcessEnv, catalog: Pick<CatalogHeader, 'codeMode'>): CodeSettings;
  /** Answers a call of `search` or `execute`. */
  callTool(name: string, args: Record<string, unknown>, call: CodeToolCall): Promise<ToolResult | InputRequiredResult>;
}

/** What the server hands code mode for one call of its tools. */
export interface CodeToolCall {
  registry: ToolRegistry;
  search: () => Promise<OperationSearch>;
  declarations: () => Promise<DeclarationsFile>;
  settings: CodeSettings;
  /** Runs one operation exactly as a direct tool call would (already redacted). */
  callOperation: (tool: CatalogTool, args: Record<string, unknown>, signal: AbortSignal) => Promise<ToolResult>;
  /** The client's cancellation of the execute call. */
  signal: AbortSignal;
  /** What asking the user about a program's calls needs (code-mode/code-confirm.ts). */
  confirm: {
    gate: ConfirmGate;
    policy: ConfirmPolicy;
    ctx: ServerContext;
    server: Server;
    /** execute's fallback `confirm` argument, for a client that cannot elicit. */
    confirmedByArgument: unknown;
  };
}
