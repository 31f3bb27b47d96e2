/**
 * The only place that knows the stage order: load → normalize → map to tools → emit → format → write.
 * Diagnostics are collected from every stage; the project is written only when none is an error.
 */
import { resolve } from 'node:path';
import { Diagnostics, type Diagnostic } from './diagnostics/diagnostics.js';
import { UserError } from './diagnostics/errors.js';
import { lockFile } from './emit/lock.js';
import { planProject, type EmittedFile } from './emit/plan.js';
import { formatFiles } from './format/prettier.js';
import { loadSpec } from './load/load-spec.js';
import { normalizeSpec } from './normalize/index.js';
import { resolveOptions, type UserOptions } from './options.js';
import { mapTools } from './tools/index.js';
import { generatorVersion } from './util/package-root.js';
import { writeProject } from './write/write-files.js';

export interface GenerateSummary {
  operations: number;
  tools: number;
  skipped: Array<{ operation: string; reason: string }>;
  errors: number;
  warnings: number;
  toolsListBytes: number;
}

export interface GenerateResult {
  outDir: string;
  packageName: string;
  files: EmittedFile[];
  diagnostics: readonly Diagnostic[];
  summary: GenerateSummary;
}

/** Generates the project in memory; `write: false` skips writing (tests, dry runs). */
export async function generate(userOptions: UserOptions & { write?: boolean }): Promise<GenerateResult> {
  const options = resolveOptions(userOptions);
  const diags = new Diagnostics();
  const loaded = await loadSpec(options.spec, diags, { validate: options.validate });
  const api = normalizeSpec(loaded, diags);
  const tools = mapTools(api, diags);
  const planned = planProject(api, tools, options);
  const formatted = await formatFiles(planned.files);
  const files = [...formatted, lockFile(formatted, planned.catalog, generatorVersion())].sort((a, b) => (a.path < b.path ? -1 : 1));
  const outDir = resolve(options.out ?? planned.packageName);
  if (diags.hasErrors()) throw new UserError('The spec has errors; nothing was written', diags.all);
  if (userOptions.write !== false) writeProject(outDir, files, { force: options.force });
  const listBytes = JSON.stringify({ tools: planned.catalog.tools.map((t) => ({ name: t.name, title: t.title, description: t.description, inputSchema: t.inputSchema, annotations: t.annotations })) }).length;
  return {
    outDir,
    packageName: planned.packageName,
    files,
    diagnostics: diags.all,
    summary: {
      operations: api.operations.length,
      tools: tools.length,
      skipped: [],
      errors: diags.all.filter((d) => d.severity === 'error').length,
      warnings: diags.all.filter((d) => d.severity === 'warning').length,
      toolsListBytes: listBytes,
    },
  };
}
