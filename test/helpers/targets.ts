/**
 * Starts a generated project on one of its deployment targets: Node (the bin with --http), Deno and Bun
 * (their entries, on the binaries the `deno` and `bun` npm packages ship) and Cloudflare Workers (`wrangler
 * dev`, which runs the Worker on workerd). Each listens on 127.0.0.1 and is ready once /health answers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './generated-project.js';
import { freePort } from './spawn-http.js';

export const TARGETS = ['node', 'deno', 'bun', 'workerd'] as const;
export type Target = (typeof TARGETS)[number];

export interface RunningTarget {
  url: string;
  child: ChildProcess;
  /** Everything the target wrote on stdout and stderr so far. */
  output: () => string;
  /** SIGTERM, then the process group is ended if it has not exited after `graceMs`. */
  stop: (graceMs?: number) => Promise<number | null>;
}

const bin = (name: string) => join(REPO_ROOT, 'node_modules', '.bin', name);

/** The runtime binaries the npm packages ship (missing ones fail the test: they come with `npm ci`). */
export function targetBinary(target: Exclude<Target, 'node'>): string {
  const path = bin(target === 'workerd' ? 'wrangler' : target);
  if (!existsSync(path)) throw new Error(`${path} is missing: run npm ci (it is a devDependency)`);
  return path;
}

/** The `.dev.vars` lines the generated docs/deploy.md gives for running the Worker locally, its `…` placeholders left out. */
function docsDevVars(projectDir: string): string[] {
  const page = readFileSync(join(projectDir, 'docs', 'deploy.md'), 'utf8');
  const block = /Create `\.dev\.vars`[\s\S]*?```sh\n([\s\S]*?)```/.exec(page)?.[1];
  if (block === undefined) throw new Error('the generated docs/deploy.md does not say what goes in .dev.vars');
  return block
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.endsWith('="…"'));
}

/**
 * `env` and `secrets` reach the server as its environment: process variables on Node, Deno and Bun; on workerd,
 * the Worker's bindings from `.dev.vars`, written as the generated docs/deploy.md's Workers section says (its lines,
 * then the values), and run with `wrangler dev` as it says: no `--var` the page does not mention.
 */
export async function startTarget(
  target: Target,
  projectDir: string,
  env: Record<string, string>,
  secrets: Record<string, string> = {},
): Promise<RunningTarget> {
  const port = await freePort();
  const base = { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/tmp' };
  const all = { ...env, ...secrets };
  let command: string;
  let args: string[];
  let childEnv: Record<string, string> = { ...base, ...all, PORT: String(port), HOST: '127.0.0.1' };
  switch (target) {
    case 'node':
      [command, args] = [process.execPath, ['dist/index.js', '--http']];
      break;
    case 'deno':
      [command, args] = [targetBinary('deno'), ['run', '--allow-net', '--allow-read', '--allow-env', 'dist/deno.js']];
      childEnv = { ...childEnv, DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(projectDir, '.deno') };
      break;
    case 'bun':
      [command, args] = [targetBinary('bun'), ['dist/bun.js']];
      break;
    case 'workerd': {
      const values = Object.entries(all).map(([name, value]) => `${name}=${JSON.stringify(value)}`);
      writeFileSync(join(projectDir, '.dev.vars'), [...docsDevVars(projectDir), ...values, ''].join('\n'));
      const inspector = await freePort();
      [command, args] = [
        process.execPath,
        [
          targetBinary('workerd'),
          'dev',
          '--ip',
          '127.0.0.1',
          '--port',
          String(port),
          '--inspector-port',
          String(inspector),
          '--show-interactive-dev-session=false',
          '--log-level',
          'warn',
        ],
      ];
      childEnv = { ...base, WRANGLER_SEND_METRICS: 'false', CI: 'true', XDG_CONFIG_HOME: join(projectDir, '.config') };
      break;
    }
  }
  const child = spawn(command, args, {
    cwd: projectDir,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async (graceMs = 5_000): Promise<number | null> => {
    if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
    process.kill(child.pid!, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child), graceMs);
    const code = await exited;
    clearTimeout(timer);
    killGroup(child); // wrangler's workerd, if it outlived wrangler
    return code;
  };
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (target === 'workerd' ? 60_000 : 20_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${target} exited with ${child.exitCode}: ${output}`);
    const ready = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, child, output: () => output, stop };
    if (Date.now() > deadline) {
      await stop(0);
      throw new Error(`${target} did not start: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
}
