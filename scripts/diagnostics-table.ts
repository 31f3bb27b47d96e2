/** The diagnostics table of docs/diagnostics.md, written from src/diagnostics/codes.ts (npm run readme:update). */
import { DIAGNOSTIC_CODES } from '../src/diagnostics/codes.js';

/** The page that holds the table, from the package root. */
export const DIAGNOSTICS_PAGE = 'docs/diagnostics.md';

export const TABLE_START = '<!-- diagnostics table: written from src/diagnostics/codes.ts by npm run readme:update -->';
export const TABLE_END = '<!-- end of the diagnostics table -->';

export function diagnosticsTable(): string {
  const rows = Object.entries(DIAGNOSTIC_CODES).map(
    ([code, { title, fix }]) => `| \`${code}\` | ${cell(title)} | ${cell(fix)} |`,
  );
  return ['| code | meaning | what to do |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The page with its table (between the two markers) as codes.ts says; throws when a marker is missing. */
export function withDiagnosticsTable(page: string): string {
  const start = page.indexOf(TABLE_START);
  const end = page.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`${DIAGNOSTICS_PAGE} needs the lines ${TABLE_START} and ${TABLE_END} around the diagnostics table`);
  return `${page.slice(0, start + TABLE_START.length)}\n${diagnosticsTable()}\n${page.slice(end)}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
