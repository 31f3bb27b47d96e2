/** Security schemes and requirements (3.x `components.securitySchemes`, 2.0 `securityDefinitions`). */
import type { SecuritySchemeModel } from '../ir/types.js';
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { asString, derefObject, type NormalizeContext } from './context.js';

export function normalizeSecuritySchemes(ctx: NormalizeContext): SecuritySchemeModel[] {
  const is2 = ctx.dialect === 'swagger-2.0';
  const components = ctx.document['components'];
  const container = is2
    ? ctx.document['securityDefinitions']
    : isPlainObject(components)
      ? components['securitySchemes']
      : undefined;
  if (!isPlainObject(container)) return [];
  const base = is2 ? '#/securityDefinitions' : '#/components/securitySchemes';
  const result: SecuritySchemeModel[] = [];
  for (const [name, node] of Object.entries(container)) {
    const raw = derefObject(ctx, node, joinPointer(base, name));
    if (!raw) continue;
    const scheme = toScheme(name, raw);
    if (!scheme)
      ctx.diags.warn(
        'OTM_SECURITY_UNSUPPORTED',
        joinPointer(base, name),
        `security scheme type ${String(raw['type'])} is not supported`,
      );
    if (scheme) result.push(scheme);
  }
  return result;
}

function toScheme(name: string, raw: Record<string, unknown>): SecuritySchemeModel | undefined {
  const description = asString(raw['description']);
  const common = { kind: 'securityScheme' as const, name, ...(description ? { description } : {}) };
  switch (raw['type']) {
    case 'apiKey': {
      const location = raw['in'];
      if (location !== 'header' && location !== 'query' && location !== 'cookie') return undefined;
      return { ...common, type: 'apiKey', in: location, paramName: String(raw['name'] ?? name) };
    }
    case 'basic':
      return { ...common, type: 'http', scheme: 'basic' };
    case 'http':
      return { ...common, type: 'http', scheme: String(raw['scheme'] ?? 'bearer').toLowerCase() };
    case 'oauth2': {
      const clientCredentials = clientCredentialsFlow(raw);
      return { ...common, type: 'oauth2', ...(clientCredentials ? { clientCredentials } : {}) };
    }
    case 'openIdConnect':
      return { ...common, type: 'openIdConnect' };
    case 'mutualTLS':
      return { ...common, type: 'mutualTLS' };
    default:
      return undefined;
  }
}

/**
 * The flow a server can run on its own, without a user: 3.x `flows.clientCredentials`, or Swagger 2.0
 * `flow: application` (the same grant under its older name). Other flows need a person at a browser, so the
 * server can only take a token obtained elsewhere.
 */
function clientCredentialsFlow(raw: Record<string, unknown>): SecuritySchemeModel['clientCredentials'] {
  const flows = raw['flows'];
  const flow =
    isPlainObject(flows) && isPlainObject(flows['clientCredentials'])
      ? flows['clientCredentials']
      : raw['flow'] === 'application'
        ? raw
        : undefined;
  const tokenUrl = flow ? asString(flow['tokenUrl']) : undefined;
  if (!flow || !tokenUrl) return undefined;
  const scopes = isPlainObject(flow['scopes']) ? Object.keys(flow['scopes']) : [];
  return { tokenUrl, scopes };
}

/** `[{a: [], b: []}, {c: []}]` → `[['a','b'], ['c']]`: alternatives (OR) of scheme lists (AND). */
export function normalizeRequirements(
  ctx: NormalizeContext,
  security: unknown,
  pointer: string,
  known: ReadonlySet<string>,
): string[][] | undefined {
  if (!Array.isArray(security)) return undefined;
  const alternatives: string[][] = [];
  security.forEach((requirement, i) => {
    if (!isPlainObject(requirement)) return;
    const names = Object.keys(requirement);
    for (const n of names) {
      if (!known.has(n))
        ctx.diags.warn(
          'OTM_SECURITY_UNKNOWN',
          joinPointer(pointer, i, n),
          `security requirement names unknown scheme ${n}`,
        );
    }
    alternatives.push(names.filter((n) => known.has(n)));
  });
  return alternatives;
}
