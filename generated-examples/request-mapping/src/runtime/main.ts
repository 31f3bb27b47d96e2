/** Entry point shared by every generated server: parse flags, load the catalog, start a transport. */
import { readFileSync } from 'node:fs';
import { configuredSecrets } from './auth.js';
import type { Catalog } from './catalog.js';
import { readConfig } from './config.js';
import { createLogger } from './log.js';
import { createServerFactory } from './server.js';
import { ToolRegistry } from './tools.js';
import { startHttp, startStdio } from './transports.js';

export interface MainOptions {
  catalogUrl: URL;
  argv?: string[];
  env?: NodeJS.ProcessEnv;
}

const USAGE = `usage: <server> [--http] [--port N] [--host H]
  (no flags)  serve MCP over stdio
  --http      serve Streamable HTTP (stateless) on http://127.0.0.1:$PORT/mcp (default port 3000)`;

export async function main({ catalogUrl, argv = process.argv.slice(2), env = process.env }: MainOptions): Promise<void> {
  const flags = parseFlags(argv);
  if (flags.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const config = readConfig(env);
  if (flags.port !== undefined) config.http.port = flags.port;
  if (flags.host !== undefined) config.http.host = flags.host;
  const catalog = JSON.parse(readFileSync(catalogUrl, 'utf8')) as Catalog;
  const log = createLogger(config.logLevel, () => configuredSecrets(catalog.securitySchemes, env));
  if (!config.baseUrl && !catalog.baseUrl) {
    log.warn('no upstream base URL: set API_BASE_URL, or every tool call will fail', { note: catalog.baseUrlNote });
  }
  const registry = new ToolRegistry(catalog);
  const factory = createServerFactory({ registry, config, env, log });
  if (flags.http) await startHttp(factory, config, log);
  else startStdio(factory, log);
}

interface Flags {
  http: boolean;
  help: boolean;
  port?: number;
  host?: string;
}

export function parseFlags(argv: readonly string[]): Flags {
  const flags: Flags = { http: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    if (name === '--http') flags.http = true;
    else if (name === '--help' || name === '-h') flags.help = true;
    else if (name === '--port') {
      const port = Number(value());
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port needs a number from 0 to 65535`);
      flags.port = port;
      flags.http = true;
    } else if (name === '--host') {
      flags.host = value();
      flags.http = true;
    } else throw new Error(`unknown argument ${arg}\n${USAGE}`);
  }
  return flags;
}
