/** Base URLs: 3.x `servers` with variables at their defaults; Swagger 2.0 `schemes` + `host` + `basePath`. */
import { createServer } from '../ir/factory.js';
import type { ServerModel } from '../ir/types.js';
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import type { NormalizeContext } from './context.js';

export function normalizeServers(ctx: NormalizeContext, servers: unknown, pointer: string): ServerModel[] {
  if (!Array.isArray(servers)) return [];
  const result: ServerModel[] = [];
  servers.forEach((server, i) => {
    if (!isPlainObject(server) || typeof server['url'] !== 'string') return;
    const url = substituteVariables(ctx, server['url'], server['variables'], joinPointer(pointer, i));
    const description = typeof server['description'] === 'string' ? server['description'] : undefined;
    result.push(createServer(resolveAgainstSource(url, ctx.sourceUrl), description));
  });
  return result;
}

export function swagger2Servers(ctx: NormalizeContext): ServerModel[] {
  const doc = ctx.document;
  const basePath = typeof doc['basePath'] === 'string' ? doc['basePath'] : '';
  const host = typeof doc['host'] === 'string' ? doc['host'] : undefined;
  if (!host) return basePath ? [createServer(resolveAgainstSource(basePath, ctx.sourceUrl))] : [];
  const schemes = Array.isArray(doc['schemes']) ? doc['schemes'].filter((s): s is string => typeof s === 'string') : [];
  // Prefer https when offered: it is what a deployment should use.
  const scheme = schemes.includes('https') ? 'https' : (schemes[0] ?? 'https');
  return [createServer(`${scheme}://${host}${basePath}`)];
}

function substituteVariables(ctx: NormalizeContext, url: string, variables: unknown, pointer: string): string {
  return url.replace(/\{([^}]+)\}/g, (match, name: string) => {
    const variable = isPlainObject(variables) ? variables[name] : undefined;
    const value = isPlainObject(variable) ? variable['default'] : undefined;
    if (value === undefined || value === null) {
      ctx.diags.warn(
        'OTM_SERVER_VARIABLE',
        joinPointer(pointer, 'variables', name),
        `server variable {${name}} has no default`,
      );
      return match;
    }
    return String(value);
  });
}

/** A relative server URL is relative to where the spec was served from, when we know that. */
function resolveAgainstSource(url: string, sourceUrl: string | undefined): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || !sourceUrl) return url;
  try {
    return new URL(url, sourceUrl).toString();
  } catch {
    return url;
  }
}
