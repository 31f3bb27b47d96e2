/**
 * `npm run bundle`: packs this server as an MCP Bundle (`<name>.mcpb`), the file desktop hosts such as Claude
 * Desktop install with one click. It holds manifest.json (the host asks the user for the API's credentials,
 * secrets kept as sensitive, and hands them to the server as its environment), the built server and its
 * production dependencies. Those are installed afresh into a staging folder rather than copied from
 * node_modules, which also holds the build and test tools; the official packer (@anthropic-ai/mcpb) validates
 * the manifest and writes the archive.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packExtension } from '@anthropic-ai/mcpb';

const root = fileURLToPath(new URL('..', import.meta.url));
const stage = join(root, '.mcpb');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; files?: string[] };
const output = join(root, `${pkg.name.replace(/^@[^/]+\//, '')}.mcpb`);

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage);
for (const entry of ['manifest.json', 'package.json', 'package-lock.json', ...(pkg.files ?? [])]) {
  if (existsSync(join(root, entry))) cpSync(join(root, entry), join(stage, entry), { recursive: true });
}
installProductionDependencies(stage);
const packed = await packExtension({ extensionPath: stage, outputPath: output, silent: false });
rmSync(stage, { recursive: true, force: true });
if (!packed) {
  process.stderr.write('npm run bundle: the bundle was not packed (see above)\n');
  process.exit(1);
}
process.stdout.write(`${output}\n`);

/**
 * The locked production dependencies when there is a lockfile, else the versions package.json pins. Run through
 * the npm that runs this script (`npm_execpath`), so it works the same on Windows; scripts stay off, since the
 * project's own `prepare` (a build) needs the development tools this install leaves out.
 */
function installProductionDependencies(dir: string): void {
  const npm = process.env['npm_execpath'];
  if (!npm) throw new Error('run this as `npm run bundle`');
  const install = existsSync(join(dir, 'package-lock.json')) ? ['ci'] : ['install', '--no-package-lock'];
  const flags = ['--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'];
  execFileSync(process.execPath, [npm, ...install, ...flags], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
}
