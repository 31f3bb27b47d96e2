/**
 * code-declarations.json: each operation as a TypeScript method of `api`, which code mode's `search`
 * returns: what it does, its arguments with their descriptions, and the shape of what it resolves to.
 * Written at generation, so the server only looks them up.
 */
import type { Catalog, CatalogTool } from '../../../templates/runtime/contract/catalog.js';
import { operationKind } from '../../../templates/runtime/contract/code-policy.js';
import type { JsonSchema, ToolModel } from '../../ir/types.js';
import { dataJson } from '../data-json.js';
import { docText, propertyKey, typeText } from './ts-type.js';

/** Past this many characters a declaration is written again with less nesting, then without comments. */
const MAX_DECLARATION_CHARS = 6_000;
const INDENT = '  ';

export function declarationsFileText(catalog: Catalog, tools: readonly ToolModel[]): string {
  const shapes = new Map(tools.map((t) => [t.name, t.resultShape]));
  // Operations that answer with one response schema share its shape object (normalize memoizes them).
  const resultTypes = new Map<JsonSchema, string>();
  const declarations: Record<string, string> = {};
  for (const tool of catalog.tools) {
    declarations[tool.name] = declaration(tool, shapes.get(tool.name), catalog.defs, resultTypes);
  }
  return dataJson({ format: 1, declarations }, ['declarations']);
}

export function declaration(
  tool: CatalogTool,
  resultShape: JsonSchema | undefined,
  defs: Catalog['defs'],
  resultTypes = new Map<JsonSchema, string>(),
): string {
  const comment = headerComment(tool);
  let result = 'unknown';
  if (resultShape) {
    result =
      resultTypes.get(resultShape) ?? typeText(resultShape, { defs: {}, maxDepth: 3, docs: false, indent: INDENT });
    resultTypes.set(resultShape, result);
  }
  let text = '';
  for (const [maxDepth, docs] of [
    [4, true],
    [2, true],
    [1, false],
  ] as const) {
    text = `${comment}\n${INDENT}${propertyKey(tool.name)}(${argsText(tool, defs, maxDepth, docs)}): Promise<${result}>;`;
    if (text.length <= MAX_DECLARATION_CHARS) break;
  }
  return text;
}

function argsText(tool: CatalogTool, defs: Catalog['defs'], maxDepth: number, docs: boolean): string {
  const schema = tool.inputSchema;
  const properties = schema['properties'];
  const none = !properties || Object.keys(properties).length === 0;
  if (none) return 'args?: {}';
  const required = Array.isArray(schema['required']) && schema['required'].length > 0;
  return `args${required ? '' : '?'}: ${typeText(schema, { defs, maxDepth, docs, indent: INDENT })}`;
}

const KIND_NOTE = {
  read: 'read-only',
  write: 'write: runs when MCP_CODE_ALLOW is write or destructive',
  destructive: 'destructive: runs when MCP_CODE_ALLOW=destructive',
} as const;

/**
 * What the operation does (the description's opening: tool-description.ts puts the summary there), its
 * route and kind, then the rest of the condensed description.
 */
function headerComment(tool: CatalogTool): string {
  const [opening = '', ...rest] = tool.description.split(/\n\s*\n/);
  const about = docText(rest.join(' '), 300);
  const lines = [
    docText(opening, 300),
    `${tool.request.method} ${tool.request.path} (${KIND_NOTE[operationKind(tool)]})${tool.deprecated ? '. Deprecated' : ''}`,
    ...(about ? [about] : []),
  ];
  return [`${INDENT}/**`, ...lines.map((l) => `${INDENT} * ${l}`), `${INDENT} */`].join('\n');
}
