/** generated-examples/ must be exactly what the generator produces today (run `npm run examples:update`). */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/pipeline.js';
import { EXAMPLES } from '../scripts/examples.js';
import { REPO_ROOT } from './helpers/generated-project.js';

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .filter((p) => !p.startsWith('node_modules/') && !p.startsWith('dist/'))
    .sort();
}

describe.each(EXAMPLES)('generated-examples/$dir', (example) => {
  const dir = join(REPO_ROOT, 'generated-examples', example.dir);

  it('matches the generator output byte for byte, with no orphaned files', async () => {
    const result = await generate({
      spec: join(REPO_ROOT, example.spec),
      out: dir,
      name: example.name,
      validate: false,
      write: false,
    });
    expect(listFiles(dir)).toEqual(result.files.map((f) => f.path).sort());
    for (const file of result.files) {
      expect(readFileSync(join(dir, file.path), 'utf8'), `${file.path} is stale: run npm run examples:update`).toBe(
        file.contents,
      );
    }
  });

  it('is what the built generator writes too', async () => {
    // npm test builds first; from dist the generator takes the paths a user's install takes.
    const built = (await import(pathToFileURL(join(REPO_ROOT, 'dist', 'src', 'index.js')).href)) as {
      generate: typeof generate;
    };
    const [source, dist] = await Promise.all([
      generate({ spec: join(REPO_ROOT, example.spec), out: dir, name: example.name, validate: false, write: false }),
      built.generate({
        spec: join(REPO_ROOT, example.spec),
        out: dir,
        name: example.name,
        validate: false,
        write: false,
      }),
    ]);
    expect(dist.files).toEqual(source.files);
  });

  it('is deterministic: generating twice gives identical bytes', async () => {
    const options = { spec: join(REPO_ROOT, example.spec), name: example.name, validate: false, write: false } as const;
    const [a, b] = await Promise.all([generate(options), generate(options)]);
    expect(b.files).toEqual(a.files);
  });
});
