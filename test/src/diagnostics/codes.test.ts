/** The README's diagnostics table is codes.ts's, as `npm run readme:update` writes it (each code's fixture: diagnostic-fixtures.test.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../../src/diagnostics/codes.js';
import { diagnosticsTable, withDiagnosticsTable } from '../../../scripts/diagnostics-table.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');

it('holds the table codes.ts gives (run npm run readme:update when this fails)', () => {
  expect(readme).toBe(withDiagnosticsTable(readme));
});

it('gives one row per code, with its meaning and fix', () => {
  const rows = diagnosticsTable().split('\n').slice(2);
  expect(rows).toHaveLength(Object.keys(DIAGNOSTIC_CODES).length);
  expect(rows).toContain(
    `| \`OTM_NO_SERVER\` | ${DIAGNOSTIC_CODES.OTM_NO_SERVER.title} | ${DIAGNOSTIC_CODES.OTM_NO_SERVER.fix} |`,
  );
});

it('notices a stale table', () => {
  const stale = readme.replace(DIAGNOSTIC_CODES.OTM_NO_SERVER.fix, 'Something else.');
  expect(stale).not.toBe(readme);
  expect(withDiagnosticsTable(stale)).toBe(readme);
});
