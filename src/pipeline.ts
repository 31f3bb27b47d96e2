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
import { surfaceReport, type SurfaceReport } from './report/surface.js';
import { applyConfig } from './config/apply.js';
import { expectedOutDir, loadProjectConfig } from './config/load.js';
import { compareWithOutput, type Regeneration } from './diff/index.js';
import { USER_OWNED_FILES, userOwnedFiles } from './emit/publish.js';
import { warnUnknownCallerSchemes } from './emit/caller-credentials.js';

export interface GenerateSummary {
  operations: number;
  tools: number;
  skipped: Array<{ operation: string; reason: string }>;
  errors: number;
  warnings: number;
  surface: SurfaceReport;
}

export interface GenerateResult {
  outDir: string;
  packageName: string;
  files: EmittedFile[];
  diagnostics: readonly Diagnostic[];
  summary: GenerateSummary;
  /** What this generation changes in the output folder (computed before writing; see src/diff). */
  regeneration: Regeneration;
  /** The config file applied, if any. */
  configFile?: string;
}

/** Generates the project in memory; `write: false` skips writing (tests, dry runs). */
export async function generate(userOptions: UserOptions & { write?: boolean }): Promise<GenerateResult> {
  const options = resolveOptions(userOptions);
  const diags = new Diagnostics();
  const timer = stageTimer();
  const loaded = await loadSpec(options.spec, diags, { validate: options.validate });
  timer('load');
  const api = normalizeSpec(loaded, diags);
  warnUnknownCallerSchemes(api, options.callerCredentials, diags);
  timer('normalize');
  const mapped = mapTools(api, diags, { outputSchemas: options.outputSchemas });
  timer('tools');
  const config = await loadProjectConfig({ ...(options.config !== undefined ? { explicit: options.config } : {}), outDir: expectedOutDir(options.out, options.name, api.title) }, diags);
  const { tools, skipped } = applyConfig(api, mapped, config, diags);
  timer('config');
  const planned = await planProject(api, tools, options, config?.config.publish);
  timer('emit');
  if (!planned.catalog.baseUrl) {
    diags.warn('OTM_NO_SERVER', api.dialect === 'swagger-2.0' ? '#/host' : '#/servers', `no default base URL: ${planned.catalog.baseUrlNote ?? 'none given'}; the server requires API_BASE_URL`);
  }
  const formatted = await formatFiles(planned.files);
  timer('format');
  const files = [...formatted, lockFile(formatted, planned.catalog, generatorVersion()), ...userOwnedFiles()].sort((a, b) => (a.path < b.path ? -1 : 1));
  const outDir = resolve(options.out ?? planned.packageName);
  if (diags.hasErrors()) throw new UserError(`The ${diags.all.some((d) => d.severity === 'error' && d.code.startsWith('OTM_CONFIG')) ? 'config' : 'spec'} has errors; nothing was written`, diags.all);
  const regeneration = compareWithOutput(outDir, files, USER_OWNED_FILES);
  if (userOptions.write !== false) writeProject(outDir, files, { force: options.force, userOwned: USER_OWNED_FILES });
  timer('write');
  const surface = await surfaceReport(planned.catalog);
  timer('report');
  return {
    outDir,
    packageName: planned.packageName,
    files,
    diagnostics: diags.all,
    summary: {
      operations: api.operations.length,
      tools: tools.length,
      skipped,
      errors: diags.all.filter((d) => d.severity === 'error').length,
      warnings: diags.all.filter((d) => d.severity === 'warning').length,
      surface,
    },
    regeneration,
    ...(config ? { configFile: config.path } : {}),
  };
}

/** With OTM_DEBUG set, prints how long each stage took (stderr). */
function stageTimer(): (stage: string) => void {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    if (process.env['OTM_DEBUG']) process.stderr.write(`[openapi-to-mcp] ${stage} ${(now - last).toFixed(0)} ms\n`);
    last = now;
  };
}
