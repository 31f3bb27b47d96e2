/**
 * What a regeneration does to the owner's own code. The owner's files (src/hooks.ts, src/extensions.ts, …) are
 * never overwritten, but they name generated tools: per-tool hooks are keyed by tool name, and an owner's tool
 * calls generated ones with `ctx.callTool('name', …)`. When the API changes, a tool can be renamed or removed
 * under them; the hooks then stop compiling and a `callTool` fails at run time. This reads the owner's files
 * with ts-morph (as syntax: no type-check, so it needs neither the project's dependencies nor a build), finds
 * the tool names they use, and says which ones the regenerated project no longer has, and what each became
 * when its operation is still there under a new name.
 *
 * A hand-written scan would do for the common spellings, but the owner writes TypeScript in any layout (quoted
 * or bare keys, methods, nested calls, comments that mention names): a parser tells code from comments.
 * ts-morph loads the TypeScript compiler, so the pipeline imports this module only when an owned file was
 * changed by its owner (changedOwnedFiles).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Node, Project, SyntaxKind, type ObjectLiteralExpression, type SourceFile } from 'ts-morph';

/** A tool name the owner's code uses that the regenerated project does not have. */
export interface StaleToolReference {
  file: string;
  line: number;
  name: string;
  /** `METHOD /path` the name called before this regeneration, when the old src/tools.ts says. */
  operation?: string;
  /** The regenerated tool for that operation, when the API still has it. */
  renamedTo?: string;
}

/** A generated tool as this check needs it. */
export interface GeneratedTool {
  name: string;
  /** `METHOD /path`. */
  operation: string;
}

/** Tool names used in the owner's changed files under `outDir` that the regenerated `tools` lack. */
export function staleToolReferences(
  outDir: string,
  changedFiles: readonly string[],
  tools: readonly GeneratedTool[],
): StaleToolReference[] {
  const project = new Project({
    useInMemoryFileSystem: true,
    skipFileDependencyResolution: true,
    compilerOptions: { noLib: true },
  });
  const current = new Set(tools.map((t) => t.name));
  const byOperation = new Map(tools.map((t) => [t.operation, t.name]));
  const previous = previousOperations(project, outDir);
  const stale: StaleToolReference[] = [];
  for (const path of changedFiles) {
    const source = project.createSourceFile(path, readFileSync(join(outDir, path), 'utf8'), { overwrite: true });
    for (const use of toolNameUses(source)) {
      if (current.has(use.name)) continue;
      const operation = previous.get(use.name);
      const renamedTo = operation === undefined ? undefined : byOperation.get(operation);
      stale.push({
        file: path,
        line: use.line,
        name: use.name,
        ...(operation ? { operation } : {}),
        ...(renamedTo ? { renamedTo } : {}),
      });
    }
  }
  return stale;
}

/** The old src/tools.ts (`TOOLS = { name: 'METHOD /path', … }`): what each name called before this regeneration. */
function previousOperations(project: Project, outDir: string): Map<string, string> {
  const path = join(outDir, 'src/tools.ts');
  const operations = new Map<string, string>();
  if (!existsSync(path)) return operations;
  const source = project.createSourceFile('previous-tools.ts', readFileSync(path, 'utf8'), { overwrite: true });
  const tools = objectLiteralOf(source, 'TOOLS');
  if (!tools) return operations;
  for (const property of tools.getProperties()) {
    const assignment = property.asKind(SyntaxKind.PropertyAssignment);
    const value = assignment?.getInitializer()?.asKind(SyntaxKind.StringLiteral)?.getLiteralValue();
    const name = assignment ? propertyName(assignment) : undefined;
    if (name !== undefined && value !== undefined) operations.set(name, value);
  }
  return operations;
}

interface ToolNameUse {
  name: string;
  line: number;
}

/**
 * The tool names a file uses: the keys of its exported per-tool hooks (`export const tools = { name: … }`)
 * and the first argument of every `callTool('name', …)`.
 */
function toolNameUses(source: SourceFile): ToolNameUse[] {
  const uses: ToolNameUse[] = [];
  const hooks = objectLiteralOf(source, 'tools');
  for (const property of hooks?.getProperties() ?? []) {
    const name = propertyName(property);
    if (name !== undefined) uses.push({ name, line: property.getStartLineNumber() });
  }
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    const calleeName =
      callee.asKind(SyntaxKind.PropertyAccessExpression)?.getName() ?? callee.asKind(SyntaxKind.Identifier)?.getText();
    if (calleeName !== 'callTool') continue;
    const first = call.getArguments()[0];
    const name =
      first?.asKind(SyntaxKind.StringLiteral)?.getLiteralValue() ??
      first?.asKind(SyntaxKind.NoSubstitutionTemplateLiteral)?.getLiteralValue();
    if (name !== undefined) uses.push({ name, line: call.getStartLineNumber() });
  }
  return uses;
}

/** The object literal a top-level `const <name> = { … }` is initialized with (through `as`/`satisfies`). */
function objectLiteralOf(source: SourceFile, name: string): ObjectLiteralExpression | undefined {
  let init: Node | undefined = source.getVariableDeclaration(name)?.getInitializer();
  while (
    init &&
    (Node.isAsExpression(init) || Node.isSatisfiesExpression(init) || Node.isParenthesizedExpression(init))
  )
    init = init.getExpression();
  return init?.asKind(SyntaxKind.ObjectLiteralExpression);
}

/** A property's name as written, quoted or not; undefined for computed names and spreads. */
function propertyName(property: Node): string | undefined {
  const named =
    property.asKind(SyntaxKind.PropertyAssignment) ??
    property.asKind(SyntaxKind.MethodDeclaration) ??
    property.asKind(SyntaxKind.ShorthandPropertyAssignment);
  const nameNode = named?.getNameNode();
  if (!nameNode) return undefined;
  return (
    nameNode.asKind(SyntaxKind.StringLiteral)?.getLiteralValue() ??
    nameNode.asKind(SyntaxKind.Identifier)?.getText() ??
    nameNode.asKind(SyntaxKind.NumericLiteral)?.getText()
  );
}
