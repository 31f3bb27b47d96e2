/** Rewrites the generated sections of README.md (npm run readme:update): the diagnostics table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/util/package-root.js';
import { withDiagnosticsTable } from './diagnostics-table.js';

const path = join(packageRoot(), 'README.md');
const readme = readFileSync(path, 'utf8');
const updated = withDiagnosticsTable(readme);
if (updated !== readme) writeFileSync(path, updated);
process.stderr.write(`README.md: diagnostics table ${updated === readme ? 'already up to date' : 'rewritten'}\n`);
