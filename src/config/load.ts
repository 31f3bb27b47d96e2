/**
 * Finds and reads the user's config: `--config <file>`, else `openapi-to-mcp.config.{json,mjs,js}` in the
 * output folder, else in the current directory. JSON is parsed; `.mjs`/`.js` are imported (ESM, default
 * export: a `.js` file must sit in a `"type": "module"` package, which a generated project is). The shape is
 * checked strictly, so a misspelt key is an error rather than a silently ignored setting.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import { escapeToken } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { promptsProblems, resourcesProblems } from './primitives-shape.js';
import { CONFIG_FILE_NAMES, type LoadedConfig, type ProjectConfig } from './types.js';

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
  const problems = checkShape(raw);
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

interface ShapeProblem {
  pointer: string;
  message: string;
}

const SELECTOR_FIELDS = ['tags', 'operationIds', 'paths', 'methods'] as const;
const OVERRIDE_FIELDS = ['name', 'title', 'description', 'annotations'] as const;
const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function checkShape(raw: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  const problem = (pointer: string, message: string) => problems.push({ pointer, message });
  if (!isPlainObject(raw)) return [{ pointer: '', message: 'the config must be an object' }];
  for (const [key, value] of Object.entries(raw)) {
    if (key === '$schema') continue;
    if (key === 'include' || key === 'exclude') {
      const list = Array.isArray(value) ? value : [value];
      list.forEach((selector, i) =>
        checkSelector(selector, Array.isArray(value) ? `/${key}/${i}` : `/${key}`, problem),
      );
    } else if (key === 'tools') {
      if (!isPlainObject(value)) {
        problem('/tools', 'tools must be an object keyed by operationId or "METHOD /path"');
        continue;
      }
      for (const [id, override] of Object.entries(value)) checkOverride(override, `/tools/${escapeToken(id)}`, problem);
    } else if (key === 'publish') {
      checkPublish(value, problem);
    } else if (key === 'codeMode') {
      checkCodeMode(value, problem);
    } else if (key === 'confirm') {
      checkConfirm(value, problem);
    } else if (key === 'resources' || key === 'prompts') {
      problems.push(...(key === 'resources' ? resourcesProblems(value) : promptsProblems(value)));
    } else {
      problem(
        `/${escapeToken(key)}`,
        `unknown key ${key} (expected include, exclude, tools, confirm, resources, prompts, publish, codeMode)`,
      );
    }
  }
  return problems;
}

const CODE_LIMITS = ['timeoutMs', 'memoryMb', 'maxCalls', 'maxResultBytes', 'maxProgramBytes', 'maxPrograms'] as const;
const CODE_ALLOW = ['read', 'write', 'destructive'];

function checkCodeMode(value: unknown, problem: (pointer: string, message: string) => void): void {
  if (!isPlainObject(value)) {
    problem('/codeMode', `codeMode must be an object with any of allow, ${CODE_LIMITS.join(', ')}`);
    return;
  }
  for (const [field, v] of Object.entries(value)) {
    if (field === 'allow') {
      if (!CODE_ALLOW.includes(v as string))
        problem('/codeMode/allow', `allow must be one of ${CODE_ALLOW.join(', ')}`);
    } else if ((CODE_LIMITS as readonly string[]).includes(field)) {
      if (!Number.isInteger(v) || (v as number) < 1)
        problem(`/codeMode/${field}`, `${field} must be a positive integer`);
    } else {
      problem(
        `/codeMode/${escapeToken(field)}`,
        `unknown codeMode field ${field} (expected allow, ${CODE_LIMITS.join(', ')})`,
      );
    }
  }
}

function checkSelector(selector: unknown, at: string, problem: (pointer: string, message: string) => void): void {
  if (!isPlainObject(selector) || Object.keys(selector).length === 0) {
    problem(at, `a selector is an object with one or more of ${SELECTOR_FIELDS.join(', ')}`);
    return;
  }
  for (const [field, values] of Object.entries(selector)) {
    if (!(SELECTOR_FIELDS as readonly string[]).includes(field)) {
      problem(
        `${at}/${escapeToken(field)}`,
        `unknown selector field ${field} (expected ${SELECTOR_FIELDS.join(', ')})`,
      );
      continue;
    }
    if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string' || v === '')) {
      problem(`${at}/${field}`, `${field} must be a non-empty list of strings`);
      continue;
    }
    if (field === 'methods') {
      values.forEach((m: string, i) => {
        if (!METHODS.includes(m.toLowerCase())) problem(`${at}/methods/${i}`, `unknown HTTP method ${m}`);
      });
    }
  }
}

function checkOverride(override: unknown, at: string, problem: (pointer: string, message: string) => void): void {
  if (!isPlainObject(override)) {
    problem(at, `an override is an object with any of ${OVERRIDE_FIELDS.join(', ')}`);
    return;
  }
  for (const [field, value] of Object.entries(override)) {
    if (field === 'annotations') {
      if (!isPlainObject(value)) {
        problem(`${at}/annotations`, 'annotations must be an object of boolean hints');
        continue;
      }
      for (const [hint, flag] of Object.entries(value)) {
        if (!(HINTS as readonly string[]).includes(hint))
          problem(
            `${at}/annotations/${escapeToken(hint)}`,
            `unknown annotation ${hint} (expected ${HINTS.join(', ')})`,
          );
        else if (typeof flag !== 'boolean') problem(`${at}/annotations/${hint}`, `${hint} must be true or false`);
      }
    } else if ((OVERRIDE_FIELDS as readonly string[]).includes(field)) {
      if (typeof value !== 'string' || value.trim() === '')
        problem(`${at}/${field}`, `${field} must be a non-empty string`);
    } else {
      problem(
        `${at}/${escapeToken(field)}`,
        `unknown override field ${field} (expected ${OVERRIDE_FIELDS.join(', ')})`,
      );
    }
  }
}

const CONFIRM_WORDS = ['destructive', 'writes', 'never'];

function checkConfirm(value: unknown, problem: (pointer: string, message: string) => void): void {
  if (typeof value === 'string' && CONFIRM_WORDS.includes(value)) return;
  if (Array.isArray(value)) {
    value.forEach((entry, i) => {
      if (typeof entry !== 'string' || entry.trim() === '')
        problem(`/confirm/${i}`, 'each confirm entry is an operationId or "METHOD /path"');
    });
    return;
  }
  problem(
    '/confirm',
    `confirm must be one of ${CONFIRM_WORDS.join(', ')}, or a list of operationIds or "METHOD /path"`,
  );
}

function checkPublish(value: unknown, problem: (pointer: string, message: string) => void): void {
  if (!isPlainObject(value)) {
    problem('/publish', 'publish must be an object with any of mcpName, repository, keywords');
    return;
  }
  for (const [field, v] of Object.entries(value)) {
    if (field === 'mcpName') {
      if (typeof v !== 'string' || !/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/.test(v))
        problem('/publish/mcpName', 'mcpName must look like io.github.<owner>/<name> (one slash)');
    } else if (field === 'repository') {
      if (typeof v !== 'string' || !/^https?:\/\/\S+$/.test(v))
        problem('/publish/repository', 'repository must be an http(s) URL');
    } else if (field === 'keywords') {
      if (!Array.isArray(v) || v.some((k) => typeof k !== 'string' || k === ''))
        problem('/publish/keywords', 'keywords must be a list of strings');
    } else {
      problem(
        `/publish/${escapeToken(field)}`,
        `unknown publish field ${field} (expected mcpName, repository, keywords)`,
      );
    }
  }
}
