/**
 * The tool-surface diff between two generations: added, removed and renamed tools (a rename is the same
 * operation, `METHOD /path`, under a new name), and tools whose input or definition changed. The locks say
 * what changed (their hashes); the catalogs (the previous one read from the output folder) say how, so the
 * input schemas can be compared for breaking changes. Without a readable previous catalog the diff still
 * lists every changed tool, only without the details.
 */
import type { Catalog, CatalogTool } from '../../templates/runtime/contract/catalog.js';
import type { Lock, LockedTool } from '../emit/regeneration/lock.js';
import { codePointCompare } from '../util/stable.js';
import { compareInputs, flattenInput } from './schema.js';

export interface ToolChange {
  kind: 'added' | 'removed' | 'renamed' | 'changed';
  /** The tool's name now (for removed tools, its last name). */
  name: string;
  /** Renamed tools: the name before. */
  previousName?: string;
  operation: string;
  /** What a client relying on the previous surface will trip over. */
  breaking: string[];
  /** Compatible details. */
  notes: string[];
  /** Short summary for changed tools: `input changed`, `description changed`, … */
  summary?: string;
}

export interface SurfaceDiff {
  changes: ToolChange[];
  added: number;
  removed: number;
  renamed: number;
  changed: number;
  breaking: number;
}

export interface Generation {
  lock: Pick<Lock, 'tools'>;
  /** Absent when the previous catalog cannot be read. */
  catalog?: Catalog;
}

const DEFINITION_FIELDS = [
  'title',
  'description',
  'fullDescription',
  'annotations',
  'compactInputSchema',
  'outputSchema',
  'wrapOutput',
  'request',
  'security',
  'deprecated',
] as const;

/** Fields reported under another's name: the whole description is the description a model reads, at length. */
const PART_OF_FIELD: Partial<Record<(typeof DEFINITION_FIELDS)[number], string>> = {
  wrapOutput: 'outputSchema',
  fullDescription: 'description',
  // What a hybrid listing shows of the input: the tool joined or left the core, or its schema changed.
  compactInputSchema: 'listed input',
};

export function diffSurface(before: Generation, after: Generation): SurfaceDiff {
  const old = before.lock.tools;
  const now = after.lock.tools;
  const changes: ToolChange[] = [];
  const onlyOld = Object.keys(old).filter((n) => !(n in now));
  const onlyNew = Object.keys(now).filter((n) => !(n in old));
  const newByOperation = new Map(onlyNew.map((n) => [now[n]!.operation, n]));
  const renamedTo = new Map<string, string>();
  for (const name of onlyOld) {
    const successor = newByOperation.get(old[name]!.operation);
    if (successor !== undefined && !renamedTo.has(name)) {
      renamedTo.set(name, successor);
      newByOperation.delete(old[name]!.operation);
    }
  }
  const renamedNew = new Set(renamedTo.values());
  for (const name of onlyNew.filter((n) => !renamedNew.has(n)).sort(codePointCompare)) {
    changes.push({ kind: 'added', name, operation: now[name]!.operation, breaking: [], notes: [] });
  }
  for (const name of onlyOld.filter((n) => !renamedTo.has(n)).sort(codePointCompare)) {
    changes.push({ kind: 'removed', name, operation: old[name]!.operation, breaking: ['tool removed'], notes: [] });
  }
  for (const [from, to] of [...renamedTo].sort((a, b) => codePointCompare(a[1], b[1]))) {
    const detail = compareTool(from, old[from]!, to, now[to]!, before.catalog, after.catalog);
    changes.push({
      kind: 'renamed',
      name: to,
      previousName: from,
      operation: now[to]!.operation,
      breaking: ['tool renamed', ...detail.breaking],
      notes: detail.notes,
      ...(detail.summary ? { summary: detail.summary } : {}),
    });
  }
  for (const name of Object.keys(now)
    .filter((n) => n in old)
    .sort(codePointCompare)) {
    if (old[name]!.hash === now[name]!.hash) continue;
    const detail = compareTool(name, old[name]!, name, now[name]!, before.catalog, after.catalog);
    changes.push({
      kind: 'changed',
      name,
      operation: now[name]!.operation,
      breaking: detail.breaking,
      notes: detail.notes,
      summary: detail.summary ?? 'changed',
    });
  }
  const count = (kind: ToolChange['kind']) => changes.filter((c) => c.kind === kind).length;
  return {
    changes,
    added: count('added'),
    removed: count('removed'),
    renamed: count('renamed'),
    changed: count('changed'),
    breaking: changes.reduce((n, c) => n + c.breaking.length, 0),
  };
}

interface ToolDetail {
  breaking: string[];
  notes: string[];
  summary?: string;
}

function compareTool(
  oldName: string,
  oldLock: LockedTool,
  newName: string,
  newLock: LockedTool,
  oldCatalog: Catalog | undefined,
  newCatalog: Catalog | undefined,
): ToolDetail {
  const before = oldCatalog?.tools.find((t) => t.name === oldName);
  const after = newCatalog?.tools.find((t) => t.name === newName);
  const parts: string[] = [];
  const breaking: string[] = [];
  const notes: string[] = [];
  if (oldLock.operation !== newLock.operation) notes.push(`operation ${oldLock.operation} → ${newLock.operation}`);
  if (before && after && oldCatalog && newCatalog) {
    const [oldDefs, newDefs] = [defsOf(before, oldCatalog), defsOf(after, newCatalog)];
    if (JSON.stringify([before.inputSchema, oldDefs]) !== JSON.stringify([after.inputSchema, newDefs])) {
      parts.push('input');
      const changes = compareInputs(
        flattenInput(before.inputSchema, oldDefs),
        flattenInput(after.inputSchema, newDefs),
      );
      breaking.push(...changes.breaking);
      notes.push(...changes.compatible);
      if (changes.breaking.length === 0 && changes.compatible.length === 0)
        notes.push('argument descriptions or other details changed');
    }
    for (const field of DEFINITION_FIELDS)
      if (JSON.stringify(before[field]) !== JSON.stringify(after[field])) {
        const part = PART_OF_FIELD[field] ?? field;
        if (!parts.includes(part)) parts.push(part);
      }
  } else if (oldLock.inputHash !== newLock.inputHash) {
    parts.push('input');
  }
  // New or removed arguments always change the request plan too: only a plan change on its own is news.
  const unique = [...new Set(parts)].filter((p) => p !== 'request' || !parts.includes('input'));
  return { breaking, notes, ...(unique.length > 0 ? { summary: `${unique.join(', ')} changed` } : {}) };
}

function defsOf(tool: CatalogTool, catalog: Catalog): Record<string, Catalog['defs'][string]> {
  const defs: Record<string, Catalog['defs'][string]> = {};
  for (const name of tool.defs) if (catalog.defs[name]) defs[name] = catalog.defs[name];
  return defs;
}
