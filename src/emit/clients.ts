/** Registration snippets for common MCP clients, shown in the generated README. */
import type { EnvVarDoc } from './env-vars.js';

export function clientSnippets(packageName: string, envVars: readonly EnvVarDoc[]): Record<'claudeDesktop' | 'claudeCode' | 'vscode' | 'cursor', string> {
  const path = `/absolute/path/to/${packageName}/dist/index.js`;
  const env: Record<string, string> = {};
  for (const v of envVars) if (v.required || v.role === 'credential') env[v.name] = v.example || '…';
  const stdio = { command: 'node', args: [path], env };
  const envFlags = Object.keys(env).map((k) => ` -e ${k}=…`).join('');
  return {
    claudeDesktop: JSON.stringify({ mcpServers: { [packageName]: stdio } }, null, 2),
    claudeCode: `claude mcp add ${packageName}${envFlags} -- node ${path}`,
    vscode: JSON.stringify({ servers: { [packageName]: { type: 'stdio', ...stdio } } }, null, 2),
    cursor: JSON.stringify({ mcpServers: { [packageName]: stdio } }, null, 2),
  };
}
