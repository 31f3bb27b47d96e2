/**
 * Run by `npm run build` after tsc and the precompile steps: rewrites the generator's three entries as bundles
 * of its own code — dist/src/cli.js (the command), dist/src/index.js (the library) and dist/src/helper-worker.js
 * (the helper thread, found beside the bundled helper code) — with rolldown; every package and builtin stays an
 * import. Node 20's loader reads, compiles and links each module on its own: the generator's hundred-odd
 * modules took about 0.1 s of every generation to load. What is loaded on first use stays a chunk beside the
 * entries (dist/src/chunk-*.js), loaded when first needed. The rest of tsc's output stays as it is, for deep
 * imports (the tests, these scripts).
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { rolldown } from 'rolldown';
import { packageRoot } from '../src/util/package-root.js';

const dist = join(packageRoot(), 'dist', 'src');
const bundle = await rolldown({
  input: {
    cli: join(dist, 'cli.js'),
    index: join(dist, 'index.js'),
    'helper-worker': join(dist, 'helper', 'helper-worker.js'),
  },
  // Packages and builtins are imports, as published; only the generator's own files are bundled.
  external: (id, _importer, isResolved) => !isResolved && !id.startsWith('.') && !id.startsWith('/'),
  platform: 'node',
});
await bundle.write({ dir: dist, format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name].js' });
await bundle.close();
chmodSync(join(dist, 'cli.js'), 0o755);
