/** docs/diagnostics.md's table is codes.ts's, as `npm run readme:update` writes it (each code's fixture: diagnostic-fixtures.test.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../../src/diagnostics/codes.js';
import { DIAGNOSTICS_PAGE, diagnosticsTable, withDiagnosticsTable } from '../../../scripts/diagnostics-table.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const page = readFileSync(join(REPO_ROOT, DIAGNOSTICS_PAGE), 'utf8');

it('holds the table codes.ts gives (run npm run readme:update when this fails)', () => {
  expect(page).toBe(withDiagnosticsTable(page));
});

it('gives one row per code, with its meaning and fix', () => {
  const rows = diagnosticsTable().split('\n').slice(2);
  expect(rows).toHaveLength(Object.keys(DIAGNOSTIC_CODES).length);
  expect(rows).toContain(
    `| \`OTM_NO_SERVER\` | ${DIAGNOSTIC_CODES.OTM_NO_SERVER.title} | ${DIAGNOSTIC_CODES.OTM_NO_SERVER.fix} |`,
  );
});

it('notices a stale table', () => {
  const stale = page.replace(DIAGNOSTIC_CODES.OTM_NO_SERVER.fix, 'Something else.');
  expect(stale).not.toBe(page);
  expect(withDiagnosticsTable(stale)).toBe(page);
});
