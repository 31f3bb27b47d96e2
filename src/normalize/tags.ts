/** The root `tags` list: names with their display names and descriptions, which search and browsing show. */
import type { TagModel } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';
import { asString } from './context.js';

export function normalizeTags(raw: unknown): TagModel[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry): TagModel[] => {
    if (!isPlainObject(entry)) return [];
    const name = asString(entry['name']);
    if (!name) return [];
    const displayName = asString(entry['x-displayName']);
    const description = asString(entry['description']);
    return [{ kind: 'tag', name, ...(displayName ? { displayName } : {}), ...(description ? { description } : {}) }];
  });
}
