/**
 * What a reload of the catalog changed, and how each transport tells its clients: over stdio the connection's
 * own server instance sends the notifications (either protocol revision); over HTTP the SDK handler publishes
 * them on its event bus to the `subscriptions/listen` streams open on this process (2026-07-28 only).
 */
import type { Server } from '@modelcontextprotocol/server';
import type { ServedExtensions } from '../extend/extensions.js';

export interface CatalogChanges {
  tools: boolean;
  resources: boolean;
  prompts: boolean;
}

export type CatalogChangeListener = (changes: CatalogChanges) => void;

/** Subscribes to the reloads of this process's catalog; returns the unsubscribe. */
export type OnCatalogChange = (listener: CatalogChangeListener) => () => void;

export function anyChange(changes: CatalogChanges): boolean {
  return changes.tools || changes.resources || changes.prompts;
}

/** The resource and prompt lists as a client sees them, to compare two catalogs' without listing them twice. */
export function primitiveListings(served: ServedExtensions): { resources: string; prompts: string } {
  const resources = [...served.resources.values()].map((r) => [r.uri, r.name, r.title, r.description, r.mimeType]);
  const templates = (served.resourceTemplates ?? []).map(({ template: t }) => [
    t.uriTemplate,
    t.name,
    t.title,
    t.description,
    t.mimeType,
  ]);
  const prompts = [...served.prompts.values()].map((p) => [p.name, p.title, p.description, p.arguments]);
  return { resources: JSON.stringify([resources, templates]), prompts: JSON.stringify(prompts) };
}

/**
 * The notifications of `changes` this server declared it sends. A server whose connection is gone (a probe
 * instance, a closed connection) sends nothing.
 */
export async function notifyServer(server: Server, changes: CatalogChanges): Promise<void> {
  const declared = server.getCapabilities();
  const sends: Array<Promise<void>> = [];
  if (changes.tools && declared.tools?.listChanged) sends.push(server.sendToolListChanged());
  if (changes.resources && declared.resources?.listChanged) sends.push(server.sendResourceListChanged());
  if (changes.prompts && declared.prompts?.listChanged) sends.push(server.sendPromptListChanged());
  await Promise.all(sends);
}

/** The SDK HTTP handler's notifier (createMcpHandler's `notify`). */
export interface ChangeNotifier {
  toolsChanged(): void;
  resourcesChanged(): void;
  promptsChanged(): void;
}

export function publishChanges(notify: ChangeNotifier, changes: CatalogChanges): void {
  if (changes.tools) notify.toolsChanged();
  if (changes.resources) notify.resourcesChanged();
  if (changes.prompts) notify.promptsChanged();
}

/** The stdio servers still connected, each told of every reload. */
export class ConnectedServers {
  private readonly servers = new Set<Server>();

  add(server: Server): void {
    this.servers.add(server);
    const previous = server.onclose;
    server.onclose = () => {
      this.servers.delete(server);
      previous?.();
    };
  }

  notify(changes: CatalogChanges, onError: (error: unknown) => void): void {
    for (const server of this.servers) notifyServer(server, changes).catch(onError);
  }
}
