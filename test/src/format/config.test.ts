/** The repo's own prettier config (.prettierrc.json) is the one the generator formats generated code with (src/format/config.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { PRETTIER_CONFIG } from '../../../src/format/config.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

it('formats this repo as it formats generated projects, so the runtime it copies reads like the code around it', () => {
  expect(JSON.parse(readFileSync(join(REPO_ROOT, '.prettierrc.json'), 'utf8'))).toEqual(PRETTIER_CONFIG);
});
