/**
 * Registration snippets for the common MCP hosts, shown in the generated README: one per host, all under the same
 * short server key (src/emit/project-name.ts), for a local build and for `npx`.
 */
import type { EnvVarDoc } from './env-vars.js';

export interface ClientSnippet {
  /** The host, as the README names it. */
  host: string;
  /** The files the snippet goes in (either), when it is not a command. */
  where: string[];
  /** The fence's language. */
  lang: 'json' | 'sh' | 'toml';
  text: string;
}

interface Launch {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The variables worth setting at registration: the required ones and the upstream credentials. */
export function snippetEnv(envVars: readonly EnvVarDoc[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of envVars) if (v.required || v.role === 'credential') env[v.name] = v.example || '…';
  return env;
}

/** The local build: `node /absolute/path/to/<package>/dist/index.js`. */
export function clientSnippets(packageName: string, key: string, envVars: readonly EnvVarDoc[]): ClientSnippet[] {
  const bare = packageName.replace(/^@[^/]+\//, '');
  return registrationSnippets(key, {
    command: 'node',
    args: [`/absolute/path/to/${bare}/dist/index.js`],
    env: snippetEnv(envVars),
  });
}

/** The published package: `npx -y <package>`. */
export function npxSnippets(packageName: string, key: string, envVars: readonly EnvVarDoc[]): ClientSnippet[] {
  return registrationSnippets(key, { command: 'npx', args: ['-y', packageName], env: snippetEnv(envVars) });
}

function registrationSnippets(key: string, launch: Launch): ClientSnippet[] {
  const stdio = { command: launch.command, args: launch.args, env: launch.env };
  const json = (value: unknown) => JSON.stringify(value, null, 2);
  const envFlags = Object.keys(launch.env)
    .map((k) => ` -e ${k}=…`)
    .join('');
  return [
    {
      host: 'Claude Desktop',
      where: ['claude_desktop_config.json'],
      lang: 'json',
      text: json({ mcpServers: { [key]: stdio } }),
    },
    {
      host: 'Claude Code',
      where: [],
      lang: 'sh',
      text: `claude mcp add ${key}${envFlags} -- ${[launch.command, ...launch.args].join(' ')}`,
    },
    {
      host: 'VS Code',
      where: ['.vscode/mcp.json'],
      lang: 'json',
      text: json({ servers: { [key]: { type: 'stdio', ...stdio } } }),
    },
    {
      host: 'Cursor',
      where: ['~/.cursor/mcp.json', '.cursor/mcp.json'],
      lang: 'json',
      text: json({ mcpServers: { [key]: stdio } }),
    },
    {
      host: 'Codex',
      where: ['~/.codex/config.toml', '.codex/config.toml'],
      lang: 'toml',
      text: codexToml(key, launch),
    },
    {
      host: 'Gemini CLI',
      where: ['~/.gemini/settings.json', '.gemini/settings.json'],
      lang: 'json',
      text: json({ mcpServers: { [key]: stdio } }),
    },
  ];
}

/** Codex's `[mcp_servers.<key>]` table; JSON strings are valid TOML basic strings. */
function codexToml(key: string, launch: Launch): string {
  const lines = [
    `[mcp_servers.${key}]`,
    `command = ${JSON.stringify(launch.command)}`,
    `args = [${launch.args.map((a) => JSON.stringify(a)).join(', ')}]`,
  ];
  const env = Object.entries(launch.env);
  if (env.length > 0)
    lines.push('', `[mcp_servers.${key}.env]`, ...env.map(([name, value]) => `${name} = ${JSON.stringify(value)}`));
  return lines.join('\n');
}
