/** Every diagnostic code is documented in the README and emitted somewhere: no dead or undocumented codes. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { REPO_ROOT } from '../helpers/generated-project.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const sources = readdirSync(join(REPO_ROOT, 'src'), { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts') && e.name !== 'codes.ts')
  .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
  .join('\n');

describe.each(Object.keys(DIAGNOSTIC_CODES))('%s', (code) => {
  it('is in the README diagnostics table', () => expect(readme).toContain(`| \`${code}\` |`));
  it('is emitted by the generator', () => expect(sources).toContain(`'${code}'`));
});
