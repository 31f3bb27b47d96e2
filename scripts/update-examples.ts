/** Regenerates generated-examples/ from fixtures (npm run examples:update). */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '../src/pipeline.js';
import { packageRoot } from '../src/util/package-root.js';
import { EXAMPLES } from './examples.js';

const root = packageRoot();
for (const example of EXAMPLES) {
  const out = join(root, 'generated-examples', example.dir);
  rmSync(out, { recursive: true, force: true });
  const result = await generate({ spec: join(root, example.spec), out, name: example.name, validate: false });
  process.stderr.write(
    `generated-examples/${example.dir}: ${result.files.length} files, ${result.summary.tools} tools\n`,
  );
}
