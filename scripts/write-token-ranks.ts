/**
 * Run by `npm run build` after tsc: writes gpt-tokenizer's o200k_base merge ranks as JSON beside the compiled
 * src/report/tokens.js, which builds the encoding from them instead of compiling the ranks' JavaScript module
 * on every generation (see src/report/tokens.ts).
 */
import { writeFileSync } from 'node:fs';
import { PREBUILT_RANKS, prebuiltRanksFile } from '../src/report/tokens.js';

writeFileSync(PREBUILT_RANKS, await prebuiltRanksFile());
