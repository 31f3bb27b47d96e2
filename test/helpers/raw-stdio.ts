/**
 * A generated server over stdio, spoken to line by line: what a client that does not use the SDK (or an
 * attacker) writes. Answers are collected by id; waiting for one fails, with the server's stderr, when the
 * server exits first.
 */
import { spawn } from 'node:child_process';

export interface RawAnswer {
  id: string | number | null;
  result?: { content?: Array<{ type: string; text?: string }>; isError?: boolean; tools?: Array<{ name: string }> };
  error?: { code: number; message: string };
}

export interface RawStdio {
  /** Writes `line` and a newline, waiting for the pipe to take it. */
  write(line: string | Buffer): Promise<void>;
  /** The answer with this id (the first one not taken yet). */
  answer(id: string | number | null): Promise<RawAnswer>;
  /** Whether the server process is still running. */
  running(): boolean;
  stderr(): string;
  stop(): Promise<void>;
}

export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw-stdio-test', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** A 2026-07-28 request line, its members in the order the SDK's client writes them (the id last). */
export function requestLine(id: number, method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ method, params: { ...params, _meta: MODERN_META }, jsonrpc: '2.0', id });
}

export function startRawStdio(entry: string, env: Record<string, string>): RawStdio {
  const child = spawn(process.execPath, [entry], { env: { PATH: process.env['PATH'] ?? '', ...env } });
  const answers: RawAnswer[] = [];
  const waiters = new Set<() => void>();
  let stdout = '';
  let stderr = '';
  let exited = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = stdout.split('\n');
    stdout = lines.pop()!;
    for (const line of lines.filter(Boolean)) answers.push(JSON.parse(line) as RawAnswer);
    for (const wake of waiters) wake();
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // A server that exited cannot take more input: the write fails, and the answer awaited says why.
  child.stdin.on('error', () => undefined);
  const exit = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      for (const wake of waiters) wake();
      resolve();
    }),
  );
  const take = (id: string | number | null) => {
    const index = answers.findIndex((a) => a.id === id && ('result' in a || 'error' in a));
    return index < 0 ? undefined : answers.splice(index, 1)[0];
  };
  return {
    write: (line) =>
      new Promise((resolve) => {
        if (exited || !child.stdin.write(Buffer.concat([Buffer.from(line), Buffer.from('\n')]))) {
          child.stdin.once('drain', resolve);
          void exit.then(() => resolve());
        } else resolve();
      }),
    answer: (id) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = take(id);
          if (found) {
            waiters.delete(check);
            resolve(found);
          } else if (exited) {
            waiters.delete(check);
            reject(new Error(`the server exited without answering id ${JSON.stringify(id)}; stderr:\n${stderr}`));
          }
        };
        waiters.add(check);
        check();
      }),
    running: () => !exited,
    stderr: () => stderr,
    stop: async () => {
      if (!exited) child.kill('SIGTERM');
      await exit;
    },
  };
}

/** JSON text of a value nested `levels` deep (`{"a":{"a":…1…}}`), written directly: JSON.stringify would overflow. */
export function deeplyNested(levels: number): string {
  return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
}
