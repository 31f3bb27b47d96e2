/**
 * Run by `npm run build` after tsc: precompiles the project templates (templates/project/**\/*.hbs) into
 * dist/src/emit/templates.precompiled.cjs, which src/emit/templates.ts renders with Handlebars' runtime (see there
 * for the figure it holds).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import Handlebars from 'handlebars';
import { COMPILE_OPTIONS, PRECOMPILED_TEMPLATES } from '../src/emit/templates.js';
import { packageRoot } from '../src/util/package-root.js';
import { codePointCompare } from '../src/util/stable.js';

const dir = join(packageRoot(), 'templates', 'project');
const templates = readdirSync(dir, { recursive: true, encoding: 'utf8' })
  .filter((path) => path.endsWith('.hbs'))
  .map((path) => relative(dir, join(dir, path)).split(sep).join('/'))
  .sort(codePointCompare);
const entries = templates.map((path) => {
  const source = readFileSync(join(dir, path), 'utf8');
  // The source goes along, so a template edited after the build is noticed (and refused, saying to build).
  return `  ${JSON.stringify(path)}: { source: ${JSON.stringify(source)}, spec: ${Handlebars.precompile(source, COMPILE_OPTIONS)} },`;
});
writeFileSync(
  PRECOMPILED_TEMPLATES,
  `// Written by npm run build (scripts/precompile-templates.ts) from templates/project. Do not edit.\nmodule.exports = {\n${entries.join('\n')}\n};\n`,
);
