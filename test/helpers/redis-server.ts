/**
 * A throwaway redis-server (Debian's package; `.ci/run` installs it) on a free port of 127.0.0.1, keeping
 * nothing on disk. It can be stopped and started again on the same port, as an outage and a recovery.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './spawn-http.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Stops the server (its data goes with it); `start` brings it back on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
}

/** The redis-server binary, or an error saying how to install it. */
function redisBinary(): string {
  for (const candidate of ['redis-server', '/usr/bin/redis-server']) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  throw new Error('redis-server is not installed: apt-get update && apt-get install -y redis-server');
}

export async function startRedis(): Promise<RedisServer> {
  const binary = redisBinary();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    const started = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      };
      started.stdout!.on('data', onData);
      started.stderr!.on('data', onData);
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
    await untilAccepting(port);
  };
  const stop = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start };
}

function untilAccepting(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.end();
      resolve();
    });
    socket.once('error', reject);
  });
}
