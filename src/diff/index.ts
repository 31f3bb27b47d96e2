/**
 * Regeneration: what a generation would change in an existing output folder, computed before anything is
 * written (and whether anything is written at all: `--check` and `--dry-run` only report). Files are compared
 * byte for byte; the tool surface is diffed against the previous lock and catalog.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../../templates/runtime/contract/catalog.js';
import type { Lock } from '../emit/regeneration/lock.js';
import { LOCK_FILE, type EmittedFile } from '../emit/plan.js';
import { CONFIG_FILE_NAMES } from '../config/types.js';
import { codePointCompare } from '../util/stable.js';
import { diffSurface, type SurfaceDiff } from './surface.js';

export type { SurfaceDiff, ToolChange } from './surface.js';

export interface FileChanges {
  /** Generated files that do not exist yet (user-owned files included, the first time). */
  added: string[];
  /** Generated files whose content changes. */
  updated: string[];
  /** Files the previous generation owned that this one no longer produces. */
  removed: string[];
}

export interface Regeneration {
  /**
   * - new: the folder does not exist or is empty (config files aside);
   * - generated: openapi-to-mcp made it (it has a lock);
   * - foreign: it holds files openapi-to-mcp did not make (writing needs --force).
   */
  folder: 'new' | 'generated' | 'foreign';
  /** Against the previous lock, when the folder was generated. */
  surface?: SurfaceDiff;
  files: FileChanges;
  /** Writing would change the folder. */
  stale: boolean;
}

export function compareWithOutput(
  outDir: string,
  files: readonly EmittedFile[],
  userOwned: readonly string[],
): Regeneration {
  const folder = folderState(outDir);
  const previous = folder === 'generated' ? readJson<Partial<Lock>>(join(outDir, LOCK_FILE)) : undefined;
  const owned = new Set(userOwned);
  const changes: FileChanges = { added: [], updated: [], removed: [] };
  for (const file of files) {
    const path = join(outDir, file.path);
    if (!existsSync(path)) changes.added.push(file.path);
    else if (!owned.has(file.path) && readFileSync(path, 'utf8') !== file.contents) changes.updated.push(file.path);
  }
  const produced = new Set(files.map((f) => f.path));
  for (const path of previous?.files ?? []) {
    if (typeof path === 'string' && !produced.has(path) && !owned.has(path) && existsSync(join(outDir, path)))
      changes.removed.push(path);
  }
  for (const list of Object.values(changes)) list.sort(codePointCompare);
  const stale = changes.added.length + changes.updated.length + changes.removed.length > 0;
  const result: Regeneration = { folder, files: changes, stale };
  if (previous && typeof previous.tools === 'object' && previous.tools !== null) {
    const newLock = files.find((f) => f.path === LOCK_FILE);
    const newCatalog = files.find((f) => f.path === 'catalog.json');
    if (newLock) {
      const oldCatalog = readJson<Catalog>(join(outDir, 'catalog.json'));
      result.surface = diffSurface(
        { lock: { tools: previous.tools }, ...(validCatalog(oldCatalog) ? { catalog: oldCatalog } : {}) },
        {
          lock: JSON.parse(newLock.contents) as Lock,
          ...(newCatalog ? { catalog: JSON.parse(newCatalog.contents) as Catalog } : {}),
        },
      );
    }
  }
  return result;
}

/** Whether the folder is new, ours (it has a readable lock listing files), or someone else's. */
export function folderState(outDir: string): Regeneration['folder'] {
  if (!existsSync(outDir)) return 'new';
  const entries = readdirSync(outDir).filter((e) => !(CONFIG_FILE_NAMES as readonly string[]).includes(e));
  if (entries.length === 0) return 'new';
  const lock = readJson<Partial<Lock>>(join(outDir, LOCK_FILE));
  return lock && Array.isArray(lock.files) ? 'generated' : 'foreign';
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

function validCatalog(catalog: Catalog | undefined): catalog is Catalog {
  return (
    catalog !== undefined && Array.isArray(catalog.tools) && typeof catalog.defs === 'object' && catalog.defs !== null
  );
}
