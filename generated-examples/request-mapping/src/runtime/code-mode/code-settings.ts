/**
 * The settings code mode runs under, read at start: apart from code-mode.ts, so that reading them loads
 * neither the sandbox nor the type stripper (a server loads those on its first `execute`).
 */
import type { CatalogHeader, CodeModeConfig } from '../contract/catalog.js';
import { CODE_MODE_DEFAULTS, type CodeSettings } from '../contract/code-limits.js';
import { ENV, type EnvName } from '../contract/environment.js';

/** MCP_CODE_* when set and usable, else the generator config's `codeMode`, else the defaults. */
export function readCodeSettings(env: NodeJS.ProcessEnv, catalog: Pick<CatalogHeader, 'codeMode'>): CodeSettings {
  const own: CodeModeConfig = catalog.codeMode ?? {};
  const pick = <K extends keyof CodeSettings>(key: K, name: EnvName): CodeSettings[K] =>
    ((ENV[name].parse(env[name]) as CodeSettings[K] | undefined) ??
      own[key] ??
      CODE_MODE_DEFAULTS[key]) as CodeSettings[K];
  return {
    allow: pick('allow', 'MCP_CODE_ALLOW'),
    timeoutMs: pick('timeoutMs', 'MCP_CODE_TIMEOUT_MS'),
    memoryMb: pick('memoryMb', 'MCP_CODE_MEMORY_MB'),
    maxCalls: pick('maxCalls', 'MCP_CODE_MAX_CALLS'),
    maxResultBytes: pick('maxResultBytes', 'MCP_CODE_MAX_RESULT_BYTES'),
    maxProgramBytes: pick('maxProgramBytes', 'MCP_CODE_MAX_PROGRAM_BYTES'),
    maxPrograms: pick('maxPrograms', 'MCP_CODE_MAX_PROGRAMS'),
  };
}
