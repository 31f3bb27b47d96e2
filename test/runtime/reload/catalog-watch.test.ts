import { createHash } from 'node:crypto';
/**
 * The catalog watch (templates/runtime/reload/catalog-watch.ts) on a real folder with fs.watch: it reloads a complete
 * regeneration once, refuses a half-written one until it is complete, refuses new runtime code with a warning,
 * keeps the current catalog when the new one cannot be served, and follows the folder when a regeneration
 * replaces it (write-files.ts renames a staged folder into place).
 */
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogChanges } from '../../../templates/runtime/reload/catalog-changes.js';
import { watchCatalog, watchesCatalog, type CatalogWatch } from '../../../templates/runtime/reload/catalog-watch.js';
import {
  GENERATION_FILE,
  GENERATION_HASH,
  type GenerationManifest,
} from '../../../templates/runtime/contract/generation.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import type { ServerData } from '../../../templates/runtime/server/server-core.js';

const DEBOUNCE_MS = 20;
/** fs.watch events, the debounce and the check, on a busy machine. */
const SETTLE_MS = 600;

type Files = Record<string, string>;

/** A file's hash as generation.json records it. */
const fileHash = (text: string) => createHash(GENERATION_HASH).update(text).digest('hex');

function generation(files: Files, runtime = 'runtime-1'): Files {
  const data: GenerationManifest['data'] = {};
  for (const [path, text] of Object.entries(files)) data[path as keyof GenerationManifest['data']] = fileHash(text);
  return { ...files, [GENERATION_FILE]: JSON.stringify({ generator: 'openapi-to-mcp', runtime, data }) };
}

const V1 = generation({ 'catalog.json': '{"v":1}', 'search-index.json': '{"s":1}', 'openapi.json': '{"o":1}' });
const V2 = generation({ 'catalog.json': '{"v":2}', 'search-index.json': '{"s":2}', 'openapi.json': '{"o":1}' });

let root: string;
let folder: string;
let watch: CatalogWatch | undefined;
let reloads: ServerData[];
let changes: CatalogChanges[];
let lines: Array<{ level: string; msg: string }>;
let reloadFails: boolean;

const log: Logger = {
  debug: (msg) => lines.push({ level: 'debug', msg }),
  info: (msg) => lines.push({ level: 'info', msg }),
  warn: (msg) => lines.push({ level: 'warn', msg }),
  error: (msg) => lines.push({ level: 'error', msg }),
};

function write(files: Files, dir = folder): void {
  mkdirSync(dir, { recursive: true });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
}

/** As write-files.ts regenerates: a staged sibling folder renamed into the project's place. */
function replaceFolder(files: Files): void {
  const staging = `${folder}.staging`;
  write(files, staging);
  renameSync(folder, `${folder}.old`);
  renameSync(staging, folder);
  rmSync(`${folder}.old`, { recursive: true, force: true });
}

async function start(): Promise<CatalogWatch | undefined> {
  watch = await watchCatalog({
    catalogUrl: pathToFileURL(join(folder, 'catalog.json')),
    reload: async (data) => {
      if (reloadFails) throw new Error('extension tool listPets: a generated tool already has this name');
      reloads.push(data);
      return { resources: false, prompts: false };
    },
    changed: (c) => changes.push(c),
    log,
    debounceMs: DEBOUNCE_MS,
  });
  return watch;
}

const settle = async () => {
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  await watch?.settled();
};

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'otm-watch-'));
  folder = join(root, 'project');
  reloads = [];
  changes = [];
  lines = [];
  reloadFails = false;
  write(V1);
});

afterEach(() => {
  watch?.close();
  watch = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('watchCatalog', () => {
  it('is off, with a log line, when the project has no generation.json', async () => {
    rmSync(join(folder, GENERATION_FILE));
    expect(await start()).toBeUndefined();
    expect(lines).toEqual([{ level: 'info', msg: expect.stringContaining('catalog watch off') }]);
  });

  it('reloads a complete regeneration once, from the bytes it verified', async () => {
    await start();
    write(V2);
    await settle();
    expect(reloads).toHaveLength(1);
    expect(reloads[0]!.catalog.toString()).toBe('{"v":2}');
    expect(await reloads[0]!.searchIndex()).toEqual({ s: 2 });
    expect(await reloads[0]!.projectFile!('openapi.json')).toBe('{"o":1}');
    await expect(reloads[0]!.projectFile!('operations.md')).rejects.toThrow('not part of this generation');
    expect(changes).toEqual([{ tools: true, resources: false, prompts: false }]);
    // Events without a new generation (the same files written again) reload nothing.
    write(V2);
    await settle();
    expect(reloads).toHaveLength(1);
  });

  it('does not reload a half-written regeneration, and does once it is complete', async () => {
    await start();
    write({ [GENERATION_FILE]: V2[GENERATION_FILE]!, 'catalog.json': V2['catalog.json']! });
    await settle();
    expect(reloads).toHaveLength(0);
    expect(lines).toContainEqual({ level: 'debug', msg: expect.stringContaining('regeneration incomplete') });
    write({ 'search-index.json': V2['search-index.json']! });
    await settle();
    expect(reloads).toHaveLength(1);
    expect(reloads[0]!.catalog.toString()).toBe('{"v":2}');
  });

  it('refuses new runtime code: a warning that a restart is needed, once, and the catalog is kept', async () => {
    await start();
    write(generation({ 'catalog.json': '{"v":3}' }, 'runtime-2'));
    await settle();
    write({ 'search-index.json': '{"s":3}' });
    await settle();
    expect(reloads).toHaveLength(0);
    const warnings = lines.filter((l) => l.level === 'warn');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain('restart the server');
  });

  it('keeps the current catalog when the new one cannot be served', async () => {
    await start();
    reloadFails = true;
    write(V2);
    await settle();
    expect(changes).toEqual([]);
    expect(lines).toContainEqual({ level: 'error', msg: expect.stringContaining('cannot be served') });
  });

  it('follows the folder when regenerations replace it, one after another', async () => {
    await start();
    replaceFolder(V2);
    await settle();
    expect(reloads.map((r) => r.catalog.toString())).toEqual(['{"v":2}']);
    replaceFolder(V1);
    await settle();
    expect(reloads.map((r) => r.catalog.toString())).toEqual(['{"v":2}', '{"v":1}']);
  });

  it('says the tools did not change when only another file did', async () => {
    await start();
    write(generation({ 'catalog.json': '{"v":1}', 'search-index.json': '{"s":1}', 'openapi.json': '{"o":2}' }));
    await settle();
    expect(changes).toEqual([{ tools: false, resources: false, prompts: false }]);
  });
});

describe('watchesCatalog', () => {
  it('is on over stdio and off over HTTP unless MCP_WATCH_CATALOG says otherwise', () => {
    expect(watchesCatalog({}, 'stdio')).toBe(true);
    expect(watchesCatalog({}, 'http')).toBe(false);
    expect(watchesCatalog({ MCP_WATCH_CATALOG: 'off' }, 'stdio')).toBe(false);
    expect(watchesCatalog({ MCP_WATCH_CATALOG: 'on' }, 'http')).toBe(true);
    expect(watchesCatalog({ MCP_WATCH_CATALOG: 'yes' }, 'http')).toBe(false);
  });
});
