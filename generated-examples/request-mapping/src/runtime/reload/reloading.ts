/**
 * Reloading a regenerated catalog, per transport: the catalog watch (when MCP_WATCH_CATALOG says so) and how
 * the transport's clients hear of a swap. Over stdio each connection's server instance sends the
 * notifications; over HTTP the SDK handler publishes them to the `subscriptions/listen` streams of this
 * process. Without a watch the server declares no listChanged.
 */
import { ConnectedServers, type CatalogChangeListener, type OnCatalogChange } from './catalog-changes.js';
import { watchCatalog, watchesCatalog } from './catalog-watch.js';
import type { ServerCore } from '../server/server-core.js';
import type { ServerFactoryOptions } from '../server/mcp-server.js';

export async function stdioReloading(
  core: ServerCore,
  catalogUrl: URL,
  env: NodeJS.ProcessEnv,
): Promise<ServerFactoryOptions> {
  if (!watchesCatalog(env, 'stdio')) return {};
  const connected = new ConnectedServers();
  const watch = await watchCatalog({
    catalogUrl,
    reload: core.reload,
    log: core.log,
    changed: (changes) => connected.notify(changes, (error) => notifyFailed(core, error)),
  });
  return watch ? { listChanged: true, onServer: (server) => connected.add(server) } : {};
}

export interface HttpReloading {
  factoryOptions: ServerFactoryOptions;
  /** For the SDK handler to publish each swap on its event bus. */
  onCatalogChange?: OnCatalogChange;
}

export async function httpReloading(core: ServerCore, catalogUrl: URL, env: NodeJS.ProcessEnv): Promise<HttpReloading> {
  if (!watchesCatalog(env, 'http')) return { factoryOptions: {} };
  const listeners = new Set<CatalogChangeListener>();
  const watch = await watchCatalog({
    catalogUrl,
    reload: core.reload,
    log: core.log,
    changed: (changes) => {
      for (const listener of listeners) listener(changes);
    },
  });
  if (!watch) return { factoryOptions: {} };
  return {
    factoryOptions: { listChanged: true },
    onCatalogChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

function notifyFailed(core: ServerCore, error: unknown): void {
  core.log.warn('list_changed could not be sent', { error: error instanceof Error ? error.message : String(error) });
}
