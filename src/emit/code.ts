/**
 * TypeScript that varies per API, built with ts-morph: `src/tools.ts` names every tool with its HTTP
 * operation, as a typed constant (`ToolName`) for hooks and custom code.
 *
 * ts-morph (and the TypeScript compiler it loads) is the heaviest module here, and it would also re-read a
 * thousand generated lines. So ts-morph builds the file's structure once, with one placeholder tool and a
 * placeholder header (`toolNamesSkeleton`), and the real header and one line per tool are written in their
 * place, as ts-morph writes them (`toolNamesSource` builds the whole file with ts-morph; the tests hold the two
 * to the same bytes).
 *
 * The skeleton does not depend on the API, so `npm run build` builds it once with ts-morph and ships it beside
 * this module (scripts/write-skeleton.ts; a test holds it to a fresh build). A generation reads it rather than
 * loading the TypeScript compiler, which costs most of a second. Without it (running from the TypeScript
 * sources), or when this module changed after the build, the helper thread (src/helper) builds it, or this
 * thread does.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ToolModel } from '../ir/types.js';
import { onHelper } from '../helper/helper.js';

/** Where the build writes the skeleton: next to the compiled module. */
export const PREBUILT_SKELETON = new URL('./tools-skeleton.txt', import.meta.url);

/** What src/tools.ts says about a tool: its name and `METHOD /path`. */
export type ToolNameEntry = [name: string, operation: string];

const PLACEHOLDER_HEADER = 'openapi-to-mcp: header of src/tools.ts';
const PLACEHOLDER_TOOL: ToolNameEntry = ['openapi-to-mcp: tool', 'openapi-to-mcp: operation'];

export async function toolNamesModule(tools: readonly ToolModel[], header: string): Promise<string> {
  const entries = tools.map((t): ToolNameEntry => [t.name, `${t.source.method.toUpperCase()} ${t.source.path}`]);
  const skeleton = prebuiltSkeleton() ?? (await onHelper<string>('toolNamesSkeleton', undefined)) ?? (await toolNamesSkeleton());
  return fillToolNames(skeleton, entries, header) ?? toolNamesSource(entries, header);
}

/**
 * The file starts with the key of the code that built it: after a change to that code without a new build,
 * the file no longer applies and the skeleton is built afresh.
 */
function prebuiltSkeleton(): string | undefined {
  let text: string;
  try {
    text = readFileSync(PREBUILT_SKELETON, 'utf8');
  } catch {
    return undefined;
  }
  const newline = text.indexOf('\n');
  return text.slice(0, newline) === skeletonKey() ? text.slice(newline + 1) : undefined;
}

/** The prebuilt skeleton file: its key line, then the skeleton. */
export async function prebuiltSkeletonFile(): Promise<string> {
  return `${skeletonKey()}\n${await toolNamesSkeleton()}`;
}

/** A hash of this module's own file: the code that builds the skeleton. */
function skeletonKey(): string {
  return createHash('sha256').update(readFileSync(new URL(import.meta.url))).digest('hex');
}

/** src/tools.ts with the placeholder header and tool. */
export function toolNamesSkeleton(): Promise<string> {
  return toolNamesSource([PLACEHOLDER_TOOL], PLACEHOLDER_HEADER);
}

/**
 * The skeleton with the real header and tools, or undefined if the placeholders are not where expected or the
 * header spans lines (a one-line header is written as is).
 */
export function fillToolNames(skeleton: string, entries: readonly ToolNameEntry[], header: string): string | undefined {
  if (/[\r\n\u2028\u2029]/.test(header)) return undefined;
  const [beforeHeader, afterHeader, ...moreHeaders] = skeleton.split(PLACEHOLDER_HEADER);
  const lines = `${beforeHeader}${header}${afterHeader}`.split('\n');
  const at = lines.findIndex((line) => line.includes(PLACEHOLDER_TOOL[0]));
  const indent = /^\s*/.exec(lines[at] ?? '')![0];
  if (afterHeader === undefined || moreHeaders.length > 0 || lines[at] !== `${indent}${toolLine(PLACEHOLDER_TOOL)}`) return undefined;
  lines.splice(at, 1, ...entries.map((entry) => `${indent}${toolLine(entry)}`));
  return lines.join('\n');
}

function toolLine([name, operation]: ToolNameEntry): string {
  return `${JSON.stringify(name)}: ${JSON.stringify(operation)},`;
}

/** The whole file, built by ts-morph. */
export async function toolNamesSource(entries: readonly ToolNameEntry[], header: string): Promise<string> {
  const { Project, VariableDeclarationKind } = await import('ts-morph');
  const project = new Project({ useInMemoryFileSystem: true });
  const file = project.createSourceFile('tools.ts', '', { overwrite: true });
  file.insertStatements(0, `// ${header}`);
  file.addVariableStatement({
    isExported: true,
    declarationKind: VariableDeclarationKind.Const,
    docs: ['Every tool of this server, with the HTTP operation it calls.'],
    declarations: [
      {
        name: 'TOOLS',
        initializer: (writer) => {
          writer.write('{').newLine();
          writer.indent(() => {
            for (const entry of entries) writer.writeLine(toolLine(entry));
          });
          writer.write('} as const');
        },
      },
    ],
  });
  file.addTypeAlias({ isExported: true, name: 'ToolName', type: 'keyof typeof TOOLS' });
  return file.getFullText();
}
