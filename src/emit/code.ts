/**
 * TypeScript that varies per API, built with ts-morph: `src/tools.ts` names every tool with its HTTP
 * operation, as a typed constant (`ToolName`) for hooks and custom code. ts-morph (and the TypeScript compiler
 * it loads) is imported on first use: it is the heaviest module here, and `--help` should not pay for it.
 */
import type { ToolModel } from '../ir/types.js';

export async function toolNamesModule(tools: readonly ToolModel[], header: string): Promise<string> {
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
            for (const t of tools) {
              writer.writeLine(`${JSON.stringify(t.name)}: ${JSON.stringify(`${t.source.method.toUpperCase()} ${t.source.path}`)},`);
            }
          });
          writer.write('} as const');
        },
      },
    ],
  });
  file.addTypeAlias({ isExported: true, name: 'ToolName', type: 'keyof typeof TOOLS' });
  return file.getFullText();
}
