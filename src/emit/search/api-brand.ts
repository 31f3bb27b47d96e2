/**
 * The words that name the API itself ("Zoom" in "remove Mark from our Zoom account", "Gmail" in "my Gmail
 * inbox"): every operation of the API is the API's, so the word says nothing about which one is meant, yet it
 * matches the few operations that repeat it (`updateZoomRoomAccSettings`) and outranks the right one. A brand
 * is a word of the API's title that is also a label of its server's host name (api.zoom.us, gmail.googleapis.com),
 * which tells a brand from a title's other words ("Data", "Platform", "Web").
 */
import type { ApiModel } from '../../ir/types.js';

/** Host labels and title words that name no product. */
const GENERIC = new Set(['api', 'apis', 'www', 'rest', 'web', 'http', 'https', 'app', 'com', 'org', 'net', 'io']);

export function apiBrandWords(api: ApiModel): string[] {
  const labels = new Set(api.servers.flatMap((server) => hostLabels(server.url)));
  const brand = new Set<string>();
  // As written: the search reads "DigitalOcean" as digital, ocean and digitalocean.
  for (const word of api.title.split(/[^A-Za-z0-9]+/)) {
    const label = word.toLowerCase();
    if (label.length >= 3 && !GENERIC.has(label) && labels.has(label)) brand.add(word);
  }
  return [...brand].sort();
}

/** The labels of an absolute URL's host, each whole and split at hyphens (just-eat.co.uk → just-eat, just, eat). */
function hostLabels(url: string): string[] {
  const host = /^[a-z][a-z0-9+.-]*:\/\/([^/:?#]+)/i.exec(url)?.[1]?.toLowerCase();
  if (!host) return [];
  return host.split('.').flatMap((label) => [label, ...label.split('-')]);
}
