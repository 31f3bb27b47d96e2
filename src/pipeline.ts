/**
 * The only place that knows the stage order: load → normalize → map to tools → emit → format → write, with
 * the spec validated as loaded. Diagnostics are collected from every stage; the project is written only when none is
 * an error.
 */
import { Diagnostics, type Diagnostic } from './diagnostics/diagnostics.js';
import { UserError } from './diagnostics/errors.js';
import { generationFile } from './emit/regeneration/generation.js';
import { GENERATION_FILE } from '../templates/runtime/contract/generation.js';
import { lockFile } from './emit/regeneration/lock.js';
import { planProject, type EmittedFile } from './emit/plan.js';
import type { ToolModeChoice } from './emit/search/tool-modes.js';
import { formatFiles } from './format/format-files.js';
import { loadSpec } from './load/load-spec.js';
import { normalizeSpec } from './normalize/index.js';
import { resolveOptions, type UserOptions } from './options.js';
import { mapTools } from './tools/index.js';
import { toolNameBudget } from './tools/host-limits.js';
import { projectNames } from './emit/project-name.js';
import { generatorVersion } from './util/package-root.js';
import { warnStaleOwnerCode } from './write/owner-files.js';
import { writeProject } from './write/write-files.js';
import { surfaceReport, type SurfaceReport } from './report/surface.js';
import { profileListingJson, profileReports } from './report/profiles.js';
import type { ProfileLoweringReport } from '../templates/runtime/contract/profiles/profile-listing.js';
import { applyConfig } from './config/apply.js';
import { resolveConfirmPolicy } from './config/confirm.js';
import { resolvePrimitives } from './config/primitives.js';
import { expectedOutDir, loadProjectConfig } from './config/load.js';
import { compareWithOutput, type Regeneration } from './diff/index.js';
import { USER_OWNED_FILES, userOwnedFiles } from './emit/deploy/publish.js';
import { warnUnknownCallerSchemes } from './emit/caller-credentials.js';

export interface GenerateSummary {
  operations: number;
  tools: number;
  skipped: Array<{ operation: string; reason: string }>;
  errors: number;
  warnings: number;
  /** The tool mode of the generated server, and why (see src/emit/search/tool-modes.ts). */
  toolMode: ToolModeChoice;
  surface: SurfaceReport;
  /** Per client profile: what its clients are listed, how many tools needed lowering and which rules fired. */
  profiles: ProfileLoweringReport[];
}

export interface GenerateResult {
  outDir: string;
  packageName: string;
  /** The key the generated README registers the server under (tool names are sized for it). */
  serverKey: string;
  files: EmittedFile[];
  diagnostics: readonly Diagnostic[];
  summary: GenerateSummary;
  /** What this generation changes in the output folder (computed before writing; see src/diff). */
  regeneration: Regeneration;
  /** The config file applied, if any. */
  configFile?: string;
  /** With `clientProfile`: that profile's tools/list, as JSON text (`{ profile, mode, tools }`). */
  profileListing?: string;
}

/** Generates the project in memory; `write: false` skips writing (tests, dry runs). */
export async function generate(userOptions: UserOptions & { write?: boolean }): Promise<GenerateResult> {
  const options = resolveOptions(userOptions);
  const write = userOptions.write !== false;
  const timer = stageTimer();
  const loadDiags = new Diagnostics();
  const loaded = await loadSpec(options.spec, loadDiags, { validate: options.validate });
  timer('load');
  const stageDiags = new Diagnostics();
  const api = normalizeSpec(loaded, stageDiags, { resultShapes: options.toolMode === 'code' });
  warnUnknownCallerSchemes(api, options.callerCredentials, stageDiags);
  timer('normalize');
  // The server key decides how long tool names may be, so the names come before the tools.
  const names = projectNames(options, api.title);
  const mapped = mapTools(api, stageDiags, {
    outputSchemas: options.outputSchemas,
    maxNameLength: toolNameBudget(names.serverKey),
    codeMode: options.toolMode === 'code',
  });
  timer('tools');
  const config = await loadProjectConfig(
    {
      ...(options.config !== undefined ? { explicit: options.config } : {}),
      outDir: expectedOutDir(options.out, names.packageName),
    },
    stageDiags,
  );
  const { tools, skipped } = applyConfig(api, mapped, config, stageDiags);
  const configFile = config?.label ?? 'config';
  const confirm = resolveConfirmPolicy(config?.config.confirm, mapped, tools, configFile, stageDiags);
  const primitives = resolvePrimitives(config?.config ?? {}, tools, configFile, stageDiags);
  timer('config');
  const planned = await planProject(api, tools, options, names, config?.config.publish, config?.config.codeMode, {
    ...(confirm ? { confirm } : {}),
    resolved: primitives,
    documentJson: loaded.json(),
  });
  timer('emit');
  if (!planned.catalog.baseUrl) {
    stageDiags.warn(
      'OTM_NO_SERVER',
      api.dialect === 'swagger-2.0' ? '#/host' : '#/servers',
      `no default base URL: ${planned.catalog.baseUrlNote ?? 'none given'}; the server requires API_BASE_URL`,
    );
  }
  const outDir = expectedOutDir(options.out, names.packageName);
  await warnStaleOwnerCode(outDir, tools, stageDiags);
  timer('owner code');
  const formatted = formatFiles(planned.files);
  timer('format');
  const lock = lockFile(
    [...formatted.map((file) => file.path), GENERATION_FILE],
    planned.catalog,
    planned.toolJson,
    generatorVersion(),
  );
  // generation.json hashes the files as written (test/src/emit/regeneration/generation.test.ts).
  const files = [...formatted, generationFile(formatted), lock, ...userOwnedFiles()].sort((a, b) =>
    a.path < b.path ? -1 : 1,
  );
  timer('lock and generation');
  const diags = joinDiagnostics(loadDiags.all, stageDiags.all);
  if (diags.hasErrors())
    throw new UserError(
      `The ${diags.all.some((d) => d.severity === 'error' && d.code.startsWith('OTM_CONFIG')) ? 'config' : 'spec'} has errors; nothing was written`,
      diags.all,
    );
  const surfaceReported = await surfaceReport(planned.catalog, planned.listedInModeAll, names.serverKey);
  timer('report');
  const regeneration = compareWithOutput(outDir, files, USER_OWNED_FILES);
  if (write) writeProject(outDir, files, { force: options.force, userOwned: USER_OWNED_FILES });
  timer('write');
  return {
    outDir,
    packageName: names.packageName,
    serverKey: names.serverKey,
    files,
    diagnostics: diags.all,
    summary: {
      operations: api.operations.length,
      tools: tools.length,
      skipped,
      errors: diags.all.filter((d) => d.severity === 'error').length,
      warnings: diags.all.filter((d) => d.severity === 'warning').length,
      toolMode: planned.toolMode,
      surface: surfaceReported,
      profiles: profileReports(planned.catalog),
    },
    regeneration,
    ...(config ? { configFile: config.path } : {}),
    ...(options.clientProfile ? { profileListing: profileListingJson(planned.catalog, options.clientProfile) } : {}),
  };
}

/** One list in the given order; a repeated diagnostic is kept once, where it first appears. */
function joinDiagnostics(...lists: ReadonlyArray<readonly Diagnostic[]>): Diagnostics {
  const joined = new Diagnostics();
  for (const list of lists) for (const d of list) joined.add(d);
  return joined;
}

/** With OTM_DEBUG set, prints how long each stage took (stderr). */
function stageTimer(): (stage: string) => void {
  let last = performance.now();
  return (stage) => {
    const now = performance.now();
    if (process.env['OTM_DEBUG'])
      process.stderr.write(
        `[openapi-to-mcp] ${stage} ${(now - last).toFixed(0)} ms, done at ${(process.uptime() * 1000).toFixed(0)} ms\n`,
      );
    last = now;
  };
}
