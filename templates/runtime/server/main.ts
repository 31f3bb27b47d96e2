/** Entry point shared by every generated server: parse flags, build the server (createServer), start a transport. */
import type { CreateServerOptions, GeneratedServer } from './create-server.js';

/** The project's createServer (src/server.ts), with the options the bin sets. */
export type CreateForMain = (options: Pick<CreateServerOptions, 'http'>) => Promise<GeneratedServer>;

const USAGE = `usage: <server> [--http] [--port N] [--host H]
  (no flags)  serve MCP over stdio
  --http      serve Streamable HTTP (stateless) on http://127.0.0.1:$PORT/mcp (default port 3000)`;

export async function main(create: CreateForMain, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  const flags = parseFlags(argv);
  if (flags.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const server = await create({
    http: {
      ...(flags.port !== undefined ? { port: flags.port } : {}),
      ...(flags.host !== undefined ? { host: flags.host } : {}),
    },
  });
  if (flags.http) await server.listen();
  else await server.serveStdio();
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
    const [name, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
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
