import type { ToolModel } from '../ir/types.js';

/**
 * Deprecated in the spec, or in its own words (Kubernetes marks its watch operations only in prose:
 * "deprecated: use the 'watch' parameter with a list operation instead").
 */
export function isDeprecated(tool: ToolModel): boolean {
  return (
    tool.deprecated ||
    /^\s*(deprecated\b|\[deprecated\])/i.test(tool.description) ||
    /\bdeprecated:/i.test(tool.description)
  );
}
