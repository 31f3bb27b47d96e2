/** docs/options.md is what the option tables give, as `npm run docs:options` writes it. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { CONFIG_KEYS } from '../../../src/config/schema.js';
import { GENERATE_OPTIONS } from '../../../src/options/generate-options.js';
import { flagOf } from '../../../src/options/option-spec.js';
import { optionsDoc } from '../../../src/options/options-doc.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

const page = readFileSync(join(REPO_ROOT, 'docs', 'options.md'), 'utf8');

it('is what the tables give (run npm run docs:options when this fails)', () => {
  expect(page).toBe(optionsDoc());
});

it('has a row for every flag and every config key, with its default', () => {
  for (const spec of GENERATE_OPTIONS) expect(page).toContain(`| \`--${flagOf(spec)}\``);
  for (const key of Object.keys(CONFIG_KEYS)) expect(page).toContain(`| \`${key}\` |`);
  expect(page).toMatch(/\| `--validate` \| `validate` \| boolean \(`--no-validate`\) \| `true` \|/);
  expect(page).toMatch(/\| `timeoutMs` \| positive integer \| `60000` \|/);
});
