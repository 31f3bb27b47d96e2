/**
 * Finds and reads the user's config: `--config <file>`, else `openapi-to-mcp.config.{json,mjs,js}` in the
 * output folder, else in the current directory. JSON is parsed; `.mjs`/`.js` are imported (ESM, default
 * export: a `.js` file must sit in a `"type": "module"` package, which a generated project is). The shape is
 * checked strictly against the config's schema (src/config/schema.ts), so a misspelt key is an error rather
 * than a silently ignored setting.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { CONFIG_FILE_NAMES, type LoadedConfig, type ProjectConfig } from './types.js';
import { configProblems } from './validate.js';

export interface ConfigLookup {
  /** `--config`: a file path, relative to the current directory. */
  explicit?: string;
  /** The output folder (`--out`, else the default derived from `--name` or the API title). */
  outDir: string;
  cwd?: string;
}

/** The output folder the pipeline uses: `--out`, else `./<package name>` (src/emit/project-name.ts). */
export function expectedOutDir(out: string | undefined, packageName: string): string {
  return resolve(out ?? packageName);
}

export async function loadProjectConfig(lookup: ConfigLookup, diags: Diagnostics): Promise<LoadedConfig | undefined> {
  const cwd = lookup.cwd ?? process.cwd();
  let path: string | undefined;
  if (lookup.explicit !== undefined) {
    path = resolve(cwd, lookup.explicit);
    if (!existsSync(path)) {
      diags.error('OTM_CONFIG_INVALID', '#', `--config ${lookup.explicit}: no such file`);
      return undefined;
    }
  } else {
    const dirs = [...new Set([resolve(lookup.outDir), resolve(cwd)])];
    path = dirs
      .flatMap((dir) => CONFIG_FILE_NAMES.map((name) => resolve(dir, name)))
      .find((candidate) => existsSync(candidate));
    if (!path) return undefined;
  }
  const label = basename(path);
  let raw: unknown;
  try {
    raw = await readConfigFile(path);
  } catch (error) {
    diags.error(
      'OTM_CONFIG_INVALID',
      `${label}#`,
      `cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return undefined;
  }
  const problems = configProblems(raw);
  for (const p of problems) diags.error('OTM_CONFIG_INVALID', `${label}#${p.pointer}`, p.message);
  if (problems.length > 0) return undefined;
  return { path, label, config: raw as ProjectConfig };
}

async function readConfigFile(path: string): Promise<unknown> {
  const text = readFileSync(path, 'utf8');
  if (path.endsWith('.json')) return JSON.parse(text) as unknown;
  // The content hash in the URL keeps a long-lived process (tests, watch scripts) from reusing a stale module.
  const version = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const module = (await import(`${pathToFileURL(path).href}?v=${version}`)) as { default?: unknown };
  if (module.default === undefined)
    throw new Error('an ES module config needs a default export (export default { … })');
  return typeof module.default === 'function' ? await (module.default as () => unknown)() : module.default;
}
