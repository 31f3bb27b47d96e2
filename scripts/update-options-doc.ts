/** Writes docs/options.md from the option tables (npm run docs:options). */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { optionsDoc } from '../src/options/options-doc.js';
import { packageRoot } from '../src/util/package-root.js';

const path = join(packageRoot(), 'docs', 'options.md');
const page = optionsDoc();
const stale = !existsSync(path) || readFileSync(path, 'utf8') !== page;
if (stale) writeFileSync(path, page);
process.stderr.write(`docs/options.md: ${stale ? 'rewritten' : 'already up to date'}\n`);
