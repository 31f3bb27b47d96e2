/** Starts a generated server with --http on a free port and waits until it listens. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer as createNetServer } from 'node:net';

export interface HttpServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stop: () => Promise<void>;
}

export function startHttpServer(entry: string, env: Record<string, string>): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [entry, '--http', '--port', '0'], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)"/.exec(stderr);
      if (match) {
        clearTimeout(timer);
        const url = match[1]!;
        const port = Number(new URL(url).port);
        resolve({ url, port, child, stop: () => stopChild(child) });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${stderr}`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Starts a script of the project's owner that listens on PORT (an Express or Hono app mounting the MCP
 * endpoint) on a free port, and waits until `readyPath` answers 200.
 */
export async function startAppServer(
  script: string,
  env: Record<string, string>,
  readyPath: string,
): Promise<HttpServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, [script], {
    env: { PATH: process.env['PATH'] ?? '', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}${readyPath}`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, port, child, stop: () => stopChild(child) };
    if (Date.now() > deadline) {
      await stopChild(child);
      throw new Error(`${script} did not start: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A port that was free a moment ago (nothing listens on it now). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
