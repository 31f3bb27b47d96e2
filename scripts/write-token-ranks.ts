/**
 * Run by `npm run build` after tsc: writes gpt-tokenizer's o200k_base merge ranks as a binary table beside the
 * compiled src/report/tokens.js, which counts with it instead of building gpt-tokenizer's encoding from the ranks
 * on every generation (see src/report/rank-table.ts).
 */
import { writeFileSync } from 'node:fs';
import { PREBUILT_TABLE, prebuiltTableFile } from '../src/report/tokens.js';

writeFileSync(PREBUILT_TABLE, await prebuiltTableFile());
