/**
 * `src/tools.ts` of the generated project: every tool with its HTTP operation, as a typed constant
 * (`ToolName`) for hooks and custom code. prettier formats it with the other generated code.
 */
import type { ToolModel } from '../../ir/types.js';

export function toolNamesModule(tools: readonly ToolModel[], header: string): string {
  const entries = tools.map(
    (t) => `  ${JSON.stringify(t.name)}: ${JSON.stringify(`${t.source.method.toUpperCase()} ${t.source.path}`)},\n`,
  );
  return `// ${header}
/** Every tool of this server, with the HTTP operation it calls. */
export const TOOLS = {
${entries.join('')}} as const;

export type ToolName = keyof typeof TOOLS;
`;
}
