/**
 * `src/tools.ts` of the generated project: every tool with its HTTP operation, as a typed constant
 * (`ToolName`) for hooks and custom code. Like all generated TypeScript, it is written in prettier's layout
 * (format/format-files.ts); test/src/emit/code-mode/code.test.ts fails when prettier would lay it out otherwise.
 */
import { PRINT_WIDTH, TAB_WIDTH } from '../../format/config.js';
import type { ToolModel } from '../../ir/types.js';

export function toolNamesModule(tools: readonly ToolModel[], header: string): string {
  const entries = tools.map((t) => entryLines(t.name, `${t.source.method.toUpperCase()} ${t.source.path}`));
  return `// ${header}
/** Every tool of this server, with the HTTP operation it calls. */
export const TOOLS = {${entries.length > 0 ? '\n' : ''}${entries.join('')}} as const;

export type ToolName = keyof typeof TOOLS;
`;
}

const INDENT = ' '.repeat(TAB_WIDTH);

/** One property, as prettier prints it: on one line, else the value on the next line, indented once more. */
function entryLines(name: string, operation: string): string {
  const key = IDENTIFIER.test(name) ? name : stringLiteral(name);
  const value = stringLiteral(operation);
  const line = `${INDENT}${key}: ${value},`;
  return line.length <= PRINT_WIDTH ? `${line}\n` : `${INDENT}${key}:\n${INDENT}${INDENT}${value},\n`;
}

/** A key prettier writes unquoted (quoteProps "as-needed"): an identifier name. */
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** prettier's string quotes: single, unless the text holds more single quotes than double ones. */
function stringLiteral(text: string): string {
  const singles = text.split("'").length - 1;
  const doubles = text.split('"').length - 1;
  const quote = singles > doubles ? '"' : "'";
  const escaped = JSON.stringify(text).slice(1, -1).replace(/\\"/g, '"').replace(new RegExp(quote, 'g'), `\\${quote}`);
  return `${quote}${escaped}${quote}`;
}
