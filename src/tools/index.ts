/** Stage 3: ApiModel → ToolModel[], one tool per operation, names unique and stable. */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ApiModel, ToolModel } from '../ir/types.js';
import { mapOperation } from './map-operation.js';
import { baseToolName, NameRegistry } from './naming.js';
import { META_TOOL_NAMES } from '../../templates/runtime/meta-definitions.js';

export function mapTools(api: ApiModel, diags: Diagnostics, options: { outputSchemas: boolean } = { outputSchemas: true }): ToolModel[] {
  // The meta-tools' names are taken in every mode, since MCP_TOOL_MODE can switch modes at run time.
  const registry = new NameRegistry();
  for (const reserved of META_TOOL_NAMES) registry.claim(reserved);
  const seenIds = new Map<string, string>();
  return api.operations.map((op) => {
    if (op.operationId) {
      const first = seenIds.get(op.operationId);
      if (first) diags.warn('OTM_DUPLICATE_OPERATION_ID', op.pointer, `operationId ${op.operationId} is also used at ${first}`);
      else seenIds.set(op.operationId, op.pointer);
    }
    const name = registry.claim(baseToolName(op.operationId, op.method, op.path));
    if (op.operationId && name !== op.operationId) diags.info('OTM_TOOL_RENAMED', op.pointer, `operationId ${op.operationId} is tool ${name}`);
    return mapOperation(op, name, { defs: api.schemas, globalSecurity: api.security, securitySchemes: api.securitySchemes, diags, outputSchemas: options.outputSchemas });
  });
}
