/** Stage 3: ApiModel → ToolModel[], one tool per operation, names unique, stable and within the hosts' limits. */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ApiModel, ToolModel } from '../ir/types.js';
import { mapOperation } from './map-operation.js';
import { baseToolName, DEFAULT_MAX_NAME_LENGTH, NameRegistry } from './naming.js';
import { CODE_TOOL_NAMES } from '../../templates/runtime/contract/code-definitions.js';
import { META_TOOL_NAMES } from '../../templates/runtime/contract/meta-definitions.js';

export interface MapToolsOptions {
  outputSchemas: boolean;
  /** The longest tool name (src/tools/host-limits.ts toolNameBudget of the server key); default 64. */
  maxNameLength?: number;
  /** Generating in code mode: its tools' names (`search`, `execute`) are taken too. */
  codeMode?: boolean;
}

export function mapTools(
  api: ApiModel,
  diags: Diagnostics,
  options: MapToolsOptions = { outputSchemas: true },
): ToolModel[] {
  // The meta-tools' names are taken in every mode, since MCP_TOOL_MODE can switch modes at run time.
  const registry = new NameRegistry(options.maxNameLength ?? DEFAULT_MAX_NAME_LENGTH);
  // Code mode's only in code mode: a project generated in another mode cannot be switched to it (and renaming
  // an operation named `search` there would change its tool's name for nothing).
  for (const reserved of [...META_TOOL_NAMES, ...(options.codeMode ? CODE_TOOL_NAMES : [])]) registry.claim(reserved);
  const seenIds = new Map<string, string>();
  return api.operations.map((op) => {
    if (op.operationId) {
      const first = seenIds.get(op.operationId);
      if (first)
        diags.warn('OTM_DUPLICATE_OPERATION_ID', op.pointer, `operationId ${op.operationId} is also used at ${first}`);
      else seenIds.set(op.operationId, op.pointer);
    }
    const base = baseToolName(op.operationId, op.method, op.path);
    const name = registry.claim(base);
    if (op.operationId && name !== op.operationId)
      diags.info('OTM_TOOL_RENAMED', op.pointer, `operationId ${op.operationId} is tool ${name}`);
    // A name cut to fit (not merely suffixed `_2`) keeps the full one in its title.
    const shortenedFrom = name.startsWith(base) ? undefined : (op.operationId ?? base);
    return mapOperation(
      op,
      name,
      {
        defs: api.schemas,
        globalSecurity: api.security,
        securitySchemes: api.securitySchemes,
        diags,
        outputSchemas: options.outputSchemas,
      },
      shortenedFrom,
    );
  });
}
