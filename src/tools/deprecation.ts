import type { ToolModel } from '../ir/types.js';

/**
 * Deprecated in the spec, or in its own words (Kubernetes marks its watch operations only in prose:
 * "deprecated: use the 'watch' parameter with a list operation instead").
 */
export function isDeprecated(tool: ToolModel): boolean {
  // The whole text: a condensed description may have left the note out.
  const text = tool.fullDescription ?? tool.description;
  return tool.deprecated || /^\s*(deprecated\b|\[deprecated\])/i.test(text) || /\bdeprecated:/i.test(text);
}
