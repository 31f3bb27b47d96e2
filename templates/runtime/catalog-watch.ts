/**
 * Reloads the catalog when the project is regenerated in place (Node only: the web targets have no file
 * system and never load this module). It watches the project folder (`fs.watch`, not recursive: the data
 * files are at its top) and, a moment after the last event, reads generation.json, the manifest the generator
 * writes with a SHA-256 of every data file. It swaps only a complete set: every file the manifest lists must
 * hash to what it says, so a regeneration still being written, or one that stopped half-way, is not served;
 * the next event checks again. New runtime code (src/runtime, the entry, dependencies) cannot be swapped into
 * a running process: the server says a restart is needed and keeps its catalog.
 *
 * The generator replaces the whole folder (write-files.ts: staged beside it, then renamed into place), so the
 * folder watched may be a deleted one after a regeneration: each check watches the path again when the
 * folder at it is another.
 */
import type { Buffer } from 'node:buffer';
import { watch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { CatalogChanges } from './catalog-changes.js';
import { decodeData } from './data-text.js';
import { readEnv } from './environment.js';
import {
  changedDataFiles,
  GENERATION_FILE,
  parseGenerationManifest,
  sha256Hex,
  type DataFile,
  type GenerationManifest,
} from './generation.js';
import type { Logger } from './log.js';
import type { ServerData } from './server-core.js';

/** Events of one regeneration come in a burst; the check runs once it is over. */
export const WATCH_DEBOUNCE_MS = 150;
/** While the folder is missing (between the two renames of a regeneration), the check is tried again. */
const MISSING_FOLDER_RETRY_MS = 500;

/** MCP_WATCH_CATALOG, else on over stdio (one local client, a project being worked on) and off over HTTP. */
export function watchesCatalog(env: NodeJS.ProcessEnv, transport: 'stdio' | 'http'): boolean {
  const setting = readEnv(env, 'MCP_WATCH_CATALOG');
  return setting === undefined ? transport === 'stdio' : setting === 'on';
}

export interface CatalogWatchOptions {
  /** The project's catalog.json; the other data files and generation.json are beside it. */
  catalogUrl: URL;
  /** Builds and swaps in the new catalog (ServerCore.reload). */
  reload: (data: ServerData) => Promise<Omit<CatalogChanges, 'tools'>>;
  /** After a swap: what changed, for the transport to tell its clients. */
  changed: (changes: CatalogChanges) => void;
  log: Logger;
  debounceMs?: number;
}

export interface CatalogWatch {
  close(): void;
  /** Resolves once no check is pending or running (tests). */
  settled(): Promise<void>;
}

/**
 * Starts watching; undefined (and a log line) when the project has no usable generation.json, which a
 * project generated before it existed, or installed from npm, does not: such a server does not declare
 * listChanged.
 */
export async function watchCatalog(options: CatalogWatchOptions): Promise<CatalogWatch | undefined> {
  const { log } = options;
  const folderUrl = new URL('.', options.catalogUrl);
  const folder = fileURLToPath(folderUrl);
  const started = await readManifest(folderUrl);
  if (!started) {
    log.info(`catalog watch off: no ${GENERATION_FILE} in the project (regenerate it to have one)`);
    return undefined;
  }
  const debounceMs = options.debounceMs ?? WATCH_DEBOUNCE_MS;
  let served = started.manifest;
  let seen: string | undefined = started.text;
  let watcher: { handle: FSWatcher; ino: number } | undefined;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const schedule = (delayMs = debounceMs) => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(run, delayMs);
    timer.unref(); // neither the timer nor the watch keeps the process alive once stdin closed
  };
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = check()
      .catch((error: unknown) => log.error('catalog watch: check failed', { error: messageOf(error) }))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          schedule();
        }
      });
  };
  /** Watches the folder now at the path; false when there is none (mid-swap). */
  const arm = async (): Promise<boolean> => {
    const ino = await stat(folder).then(
      (s) => s.ino,
      () => undefined,
    );
    if (ino === undefined) return false;
    if (watcher?.ino === ino) return true;
    watcher?.handle.close();
    const handle = watch(folder, { persistent: false }, () => schedule());
    handle.on('error', () => schedule(MISSING_FOLDER_RETRY_MS));
    watcher = { handle, ino };
    return true;
  };

  const check = async () => {
    if (!(await arm())) return schedule(MISSING_FOLDER_RETRY_MS);
    const found = await readManifest(folderUrl);
    if (!found || found.text === seen) return;
    seen = found.text;
    const next = found.manifest;
    if (next.runtime !== started.manifest.runtime) {
      log.warn(
        'catalog watch: the project was regenerated with different runtime code; build it and restart the server to serve the new catalog (it keeps serving the one it started with)',
      );
      return;
    }
    const changed = changedDataFiles(served, next);
    if (changed.length === 0) return;
    const files = await readVerified(folderUrl, next);
    if ('incomplete' in files) {
      // The writer is not done (or stopped): its next write is an event, and the manifest is read again then.
      seen = undefined;
      log.debug('catalog watch: regeneration incomplete, not reloading yet', { file: files.incomplete });
      return;
    }
    const changes = await options.reload(serverDataOf(files.bytes)).catch((error: unknown) => {
      log.error('catalog watch: the regenerated catalog cannot be served; keeping the current one', {
        error: messageOf(error),
      });
      return undefined;
    });
    if (!changes) return;
    served = next;
    log.info('catalog reloaded', { changed });
    options.changed({ tools: changed.includes('catalog.json'), ...changes });
  };

  await arm();
  return {
    close: () => {
      closed = true;
      clearTimeout(timer);
      watcher?.handle.close();
    },
    settled: async () => {
      while (running) await running;
    },
  };
}

async function readManifest(folder: URL): Promise<{ manifest: GenerationManifest; text: string } | undefined> {
  const text = await readFile(new URL(GENERATION_FILE, folder), 'utf8').catch(() => undefined);
  const manifest = text === undefined ? undefined : parseGenerationManifest(text);
  return manifest && text !== undefined ? { manifest, text } : undefined;
}

/** Every data file the manifest lists, each as it hashed; or the first one missing or not matching. */
async function readVerified(
  folder: URL,
  manifest: GenerationManifest,
): Promise<{ bytes: Map<DataFile, Buffer> } | { incomplete: DataFile }> {
  const bytes = new Map<DataFile, Buffer>();
  for (const [file, hash] of Object.entries(manifest.data) as Array<[DataFile, string]>) {
    const content = await readFile(new URL(file, folder)).catch(() => undefined);
    if (!content || sha256Hex(content) !== hash) return { incomplete: file };
    bytes.set(file, content);
  }
  return { bytes };
}

/** The verified bytes, served as the start serves the files: the same shape buildServerCore takes. */
function serverDataOf(bytes: ReadonlyMap<DataFile, Buffer>): ServerData {
  const json = <T>(file: DataFile) => JSON.parse(decodeData(bytes.get(file)!)) as T;
  return {
    catalog: bytes.get('catalog.json')!,
    searchIndex: () => json('search-index.json'),
    ...(bytes.has('code-declarations.json') ? { declarations: () => json('code-declarations.json') } : {}),
    projectFile: async (file) => {
      const content = bytes.get(file as DataFile);
      if (!content) throw new Error(`${file} is not part of this generation`);
      return content.toString('utf8');
    },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
