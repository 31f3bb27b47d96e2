/**
 * Run by `npm run build` after tsc: writes the skeleton of a generated src/tools.ts, built with ts-morph,
 * beside the compiled src/emit/code.js, which reads it instead of loading ts-morph on every generation.
 */
import { writeFileSync } from 'node:fs';
import { PREBUILT_SKELETON, prebuiltSkeletonFile } from '../src/emit/code.js';

writeFileSync(PREBUILT_SKELETON, await prebuiltSkeletonFile());
