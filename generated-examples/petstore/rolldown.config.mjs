// The second half of `npm run build`, after tsc has type-checked and compiled src/ to dist/: the two entries that
// start a fresh process on every use, the command an MCP host spawns (dist/index.js) and the AWS Lambda handler
// (dist/lambda.js), are rewritten as bundles of the project's own code. Node's loader resolves, reads and links
// each module on its own, and the project's ~45 compiled modules cost a cold start about 25 ms; one module graph
// does not. Packages stay imports, loaded from node_modules as published. The chunks the two entries share, and
// the parts loaded on first use (HTTP, search), sit beside them as dist/chunk-*.js, so that
// `import.meta.url` names the same folder in every module of the project, bundled or not.
import { isAbsolute } from 'node:path';

/** Not a file of this project: a package or a Node builtin. */
const isPackage = (id) => !id.startsWith('.') && !id.startsWith('\0') && !isAbsolute(id);

export default {
  input: { index: 'src/index.ts', lambda: 'src/lambda.ts' },
  platform: 'node',
  external: (id, _importer, isResolved) => !isResolved && isPackage(id),
  output: { dir: 'dist', format: 'esm', entryFileNames: '[name].js', chunkFileNames: 'chunk-[name].js' },
};
