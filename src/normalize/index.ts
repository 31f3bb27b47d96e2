/** Stage 2: raw document → ApiModel. The only stage that reads the spec itself. */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ApiModel } from '../ir/types.js';
import type { LoadedSpec } from '../load/load-spec.js';
import { SchemaConverter } from '../schema/to-json-schema.js';
import { isPlainObject } from '../util/stable.js';
import { asString, type NormalizeContext } from './context.js';
import { normalizeOperations } from './operations.js';
import { normalizeRequirements, normalizeSecuritySchemes } from './security.js';
import { normalizeServers, swagger2Servers } from './servers.js';
import { normalizeTags } from './tags.js';

export interface NormalizeOptions {
  /**
   * Whether operations carry their result shape (code mode's declarations): on a large API it is a large
   * share of the normalize time (GitHub: 0.2 s), spent for nothing in the other modes.
   */
  resultShapes?: boolean;
}

export function normalizeSpec(loaded: LoadedSpec, diags: Diagnostics, options: NormalizeOptions = {}): ApiModel {
  const schemas = new SchemaConverter(loaded.document, diags, loaded.dialect);
  const ctx: NormalizeContext = {
    document: loaded.document,
    dialect: loaded.dialect,
    diags,
    schemas,
    parameters: new Map(),
    outlines: new Map(),
    returns: new Map(),
    ...(options.resultShapes ? { resultShapes: new Map() } : {}),
    samples: new Map(),
    ...(loaded.sourceUrl ? { sourceUrl: loaded.sourceUrl } : {}),
  };
  const info = isPlainObject(loaded.document['info']) ? loaded.document['info'] : {};
  const securitySchemes = normalizeSecuritySchemes(ctx);
  const known = new Set(securitySchemes.map((s) => s.name));
  const servers =
    ctx.dialect === 'swagger-2.0'
      ? swagger2Servers(ctx)
      : normalizeServers(ctx, loaded.document['servers'], '#/servers');
  const operations = normalizeOperations(ctx, known);
  if (operations.length === 0) diags.warn('OTM_NO_OPERATIONS', '#/paths', 'the spec defines no operations');
  const security = normalizeRequirements(ctx, loaded.document['security'], '#/security', known);
  const description = asString(info['description']);
  return {
    kind: 'api',
    dialect: loaded.dialect,
    title: asString(info['title']) ?? 'API',
    version: asString(info['version']) ?? String(info['version'] ?? '0.0.0'),
    servers,
    operations,
    schemas: schemas.defs,
    securitySchemes,
    tags: normalizeTags(loaded.document['tags']),
    ...(description ? { description } : {}),
    ...(security ? { security } : {}),
  };
}
