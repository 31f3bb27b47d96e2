#!/usr/bin/env node
/** The command line: a thin translator from argv to `generate()`. Everything it prints goes to stderr. */
import { UserError } from './diagnostics/errors.js';
import { formatDiagnostics } from './diagnostics/format.js';
import { OptionsError } from './options.js';
import type { GenerateResult } from './pipeline.js';
import { generatorVersion } from './util/package-root.js';
import { formatPreview, formatRegeneration } from './diff/format.js';
import { formatProfileReports } from './report/profiles.js';
import { declareOptions, optionsFromArgs } from './options/cli-options.js';

// yargs and the pipeline are imported when needed (`--version` needs neither).

async function run(argv: string[]): Promise<number> {
  const { default: yargs } = await import('yargs');
  const parser = yargs(argv)
    .scriptName('openapi-to-mcp')
    .usage(
      '$0 <spec> [options]\n\nGenerate an MCP server project from an OpenAPI 3.0/3.1 or Swagger 2.0 description (file or URL).',
    )
    .command('$0 <spec>', false, (y) =>
      y.positional('spec', { type: 'string', describe: 'spec file path or http(s) URL' }),
    );
  const args = await declareOptions(parser)
    .version(generatorVersion())
    .strict()
    .help()
    .fail((message, error) => {
      throw error ?? new OptionsError([message]);
    })
    .parseAsync();
  const { generate } = await import('./pipeline.js');
  const { check = false, dryRun = false, ...options } = optionsFromArgs(args);
  const result = await generate({ spec: String(args.spec), ...options, write: !check && !dryRun });
  // stdout carries nothing else: `--client-profile cursor --dry-run > cursor.json` gives the listing alone.
  if (result.profileListing) process.stdout.write(result.profileListing);
  if (check || dryRun) {
    const lines = [
      ...formatDiagnostics(result.diagnostics.filter((d) => d.severity !== 'info')),
      ...formatPreview(result.regeneration, result.outDir, check ? 'check' : 'dry-run'),
    ];
    process.stderr.write(`${lines.join('\n')}\n`);
    return check && result.regeneration.stale ? 1 : 0;
  }
  printSummary(result);
  return 0;
}

function printSummary(result: GenerateResult): void {
  const lines = formatDiagnostics(result.diagnostics.filter((d) => d.severity !== 'info'));
  for (const line of lines) process.stderr.write(`${line}\n`);
  const s = result.summary;
  const surface = s.surface;
  const out: string[] = [
    ...formatRegeneration(result.regeneration),
    `openapi-to-mcp: ${result.regeneration.stale ? 'wrote' : 'nothing to write in'} ${result.outDir}`,
    `  operations ${s.operations}, tools ${s.tools}, skipped ${s.skipped.length}, warnings ${s.warnings}`,
    ...s.skipped.map((x) => `  skipped ${x.operation}: ${x.reason}`),
    `  tool mode ${s.toolMode.mode} (${s.toolMode.reason})`,
    `  tools/list: ${surface.tools} tools, ${surface.listBytes} bytes, ${surface.listTokens} tokens (o200k_base), ${surface.tokensPerTool} per tool; ${surface.modelTokens} tokens as a model reads them (Claude Code)`,
  ];
  if (surface.clientLimitsExceeded.length > 0)
    out.push(`  ${surface.tools} tools is more than these clients load: ${surface.clientLimitsExceeded.join(', ')}`);
  out.push(
    `  tool names: at most ${surface.toolNameBudget} characters, sized for the server key "${surface.serverKey}" (mcp__${surface.serverKey}__<tool> ≤ 64 in Claude Code and Codex, key + tool < 60 in Cursor); registering the server under a longer key can break these limits`,
  );
  const tooLong = surface.namesOverHostLimits;
  for (const { name, hosts } of tooLong.slice(0, 10))
    out.push(
      `  warning: tool name ${name} (${name.length} characters) is too long under "${surface.serverKey}" for ${hosts.join(', ')}`,
    );
  if (tooLong.length > 10)
    out.push(`  warning: … and ${tooLong.length - 10} more tool names too long under "${surface.serverKey}"`);
  out.push(
    '  client profiles (schemas lowered for the hosts that need it; unknown clients get them in full):',
    ...formatProfileReports(s.profiles, s.toolMode.mode),
  );
  out.push(`  next: cd ${result.outDir} && npm install && npm start`);
  process.stderr.write(`${out.join('\n')}\n`);
}

function reportFailure(error: unknown): number {
  if (error instanceof UserError) {
    for (const line of formatDiagnostics(error.diagnostics)) process.stderr.write(`${line}\n`);
    process.stderr.write(`openapi-to-mcp: ${error.message}\n`);
    return 1;
  }
  if (error instanceof OptionsError) {
    process.stderr.write(`openapi-to-mcp: ${error.message}\nRun openapi-to-mcp --help for usage.\n`);
    return 2;
  }
  const stack = error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`openapi-to-mcp: internal error (please report it with the spec if you can)\n${stack}\n`);
  return 70;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(reportFailure(error)),
);
