/** Rewrites the generated sections of the docs (npm run readme:update): the diagnostics table of docs/diagnostics.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../src/util/package-root.js';
import { DIAGNOSTICS_PAGE, withDiagnosticsTable } from './diagnostics-table.js';

const path = join(packageRoot(), DIAGNOSTICS_PAGE);
const page = readFileSync(path, 'utf8');
const updated = withDiagnosticsTable(page);
if (updated !== page) writeFileSync(path, updated);
process.stderr.write(
  `${DIAGNOSTICS_PAGE}: diagnostics table ${updated === page ? 'already up to date' : 'rewritten'}\n`,
);
