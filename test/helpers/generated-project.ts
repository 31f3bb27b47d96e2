/**
 * Generates a project from a spec into a temporary folder and builds it against this repo's node_modules
 * (linked, not installed: the one real `npm install` is in test/e2e/deploy/install.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { generate, type GenerateResult } from '../../src/pipeline.js';
import type { UserOptions } from '../../src/options.js';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');

export interface BuiltProject {
  dir: string;
  result: GenerateResult;
  entry: string;
  cleanup: () => void;
}

/** `beforeBuild` may add files to the generated project (the owner's own) before it is compiled. */
export async function generateAndBuild(
  spec: string,
  options: Partial<UserOptions> = {},
  beforeBuild?: (dir: string) => void,
): Promise<BuiltProject> {
  const root = mkdtempSync(join(tmpdir(), 'otm-e2e-'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  const dir = join(root, 'server');
  try {
    const result = await generate({ spec, out: dir, validate: false, ...options });
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    beforeBuild?.(dir);
    buildProject(dir);
    return { dir, result, entry: join(dir, 'dist', 'index.js'), cleanup };
  } catch (error) {
    // A failed build leaves nothing behind in the temporary folder.
    cleanup();
    throw error;
  }
}

/**
 * Builds a generated project as its owner does, with its own `npm run build` (tsc, then the bundle of the Node
 * entries), against this repo's node_modules.
 */
export function buildProject(dir: string): void {
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: dir, stdio: 'pipe' });
  } catch (error) {
    // tsc writes its errors to stdout, which the error's message leaves out.
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    throw new Error(`npm run build failed in ${dir}:\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}
