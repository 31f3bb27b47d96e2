// `npm test` on a fresh clone: install the locked dependencies first if they are not there yet.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

if (!existsSync('node_modules/.package-lock.json')) {
  process.stderr.write('node_modules is missing: running npm ci first\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
