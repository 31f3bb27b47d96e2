import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The generator's own package folder, found from this module whether it runs from src/ or dist/src/; found once
 * (every template and runtime file read asks for it, 0.1 ms a time).
 */
export function packageRoot(): string {
  return (root ??= findPackageRoot());
}

function findPackageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'templates', 'runtime'))) return dir;
    dir = dirname(dir);
  }
  throw new Error('openapi-to-mcp: cannot find its templates folder');
}

export function generatorVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
