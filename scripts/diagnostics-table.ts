/** The README's diagnostics table, written from src/diagnostics/codes.ts (npm run readme:update). */
import { DIAGNOSTIC_CODES } from '../src/diagnostics/codes.js';

export const TABLE_START = '<!-- diagnostics table: written from src/diagnostics/codes.ts by npm run readme:update -->';
export const TABLE_END = '<!-- end of the diagnostics table -->';

export function diagnosticsTable(): string {
  const rows = Object.entries(DIAGNOSTIC_CODES).map(
    ([code, { title, fix }]) => `| \`${code}\` | ${cell(title)} | ${cell(fix)} |`,
  );
  return ['| code | meaning | what to do |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The README with its table (between the two markers) as codes.ts says; throws when a marker is missing. */
export function withDiagnosticsTable(readme: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`README.md needs the lines ${TABLE_START} and ${TABLE_END} around the diagnostics table`);
  return `${readme.slice(0, start + TABLE_START.length)}\n${diagnosticsTable()}\n${readme.slice(end)}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
