/** Starts a generated server with --http on a free port and waits until it listens. */
import { spawn, type ChildProcess } from 'node:child_process';

export interface HttpServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  stop: () => Promise<void>;
}

export function startHttpServer(entry: string, env: Record<string, string>): Promise<HttpServerProcess> {
  const child = spawn(process.execPath, [entry, '--http', '--port', '0'], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
