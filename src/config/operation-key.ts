/** Config entries name operations by operationId or by `METHOD /path` (method in any case). */
import type { ToolModel } from '../ir/types.js';

export function matchesOperationKey(key: string, tool: ToolModel): boolean {
  const route = /^([A-Za-z]+)\s+(\/.*)$/.exec(key.trim());
  if (route) return tool.source.method === route[1]!.toLowerCase() && tool.source.path === route[2];
  return tool.operationId === key;
}
