/** ApiModel + ToolModel[] → the runtime's Catalog (catalog.json in the generated project). */
import type {
  CallerCredentialsConfig,
  Catalog,
  CatalogSecurityScheme,
  CatalogTool,
  ConfirmPolicy,
  ToolMode,
} from '../../templates/runtime/contract/catalog.js';
import type { ApiModel, SecuritySchemeModel, ToolModel } from '../ir/types.js';
import { dataJson, StringifiedEntries } from './data-json.js';
import { envName, envVar } from './names.js';

export interface ServerIdentity {
  name: string;
  version: string;
  title: string;
  instructions: string;
}

export interface CatalogModes {
  toolMode: ToolMode;
  core: string[];
  /** Per-caller upstream credentials over HTTP (--caller-credentials); omitted from the catalog when off. */
  callerCredentials?: CallerCredentialsConfig;
  /** The config's `confirm` policy, tool names resolved; omitted for the default (destructive). */
  confirm?: ConfirmPolicy;
}

export function buildCatalog(
  api: ApiModel,
  tools: readonly ToolModel[],
  identity: ServerIdentity,
  baseUrl: string | undefined,
  baseUrlNote: string | undefined,
  modes: CatalogModes,
): Catalog {
  const used = new Set(tools.flatMap((t) => t.defs));
  const defs: Catalog['defs'] = {};
  for (const name of Object.keys(api.schemas).sort()) if (used.has(name)) defs[name] = api.schemas[name]!;
  return {
    format: 1,
    toolMode: modes.toolMode,
    core: modes.core,
    server: identity,
    ...(baseUrl ? { baseUrl } : {}),
    ...(baseUrlNote ? { baseUrlNote } : {}),
    defs,
    tools: tools.map(catalogTool),
    securitySchemes: catalogSecuritySchemes(api.securitySchemes),
    ...(modes.callerCredentials && modes.callerCredentials.mode !== 'off'
      ? { callerCredentials: knownSchemesOnly(modes.callerCredentials, api.securitySchemes) }
      : {}),
    ...(modes.confirm ? { confirm: modes.confirm } : {}),
  };
}

/**
 * catalog.json: the tool names ahead of the shared schemas, then one line per schema and per tool.
 * `toolJson`: each tool's JSON.stringify, in catalog order (the lock hashes the same text).
 */
export function catalogFileText(catalog: Catalog, toolJson: readonly string[] = catalogToolJson(catalog)): string {
  const { defs, tools, ...head } = catalog;
  const withNames = { ...head, toolNames: tools.map((t) => t.name), defs, tools: new StringifiedEntries(toolJson) };
  return dataJson(withNames, ['defs', 'tools']);
}

export function catalogToolJson(catalog: Catalog): string[] {
  return catalog.tools.map((tool) => JSON.stringify(tool));
}

function catalogTool(tool: ToolModel): CatalogTool {
  return {
    name: tool.name,
    ...(tool.title ? { title: tool.title } : {}),
    description: tool.description,
    ...(saysMore(tool) ? { fullDescription: tool.fullDescription } : {}),
    inputSchema: tool.inputSchema,
    defs: tool.defs,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.wrapOutput ? { wrapOutput: true } : {}),
    annotations: tool.annotations,
    request: tool.request,
    ...(tool.security ? { security: tool.security } : {}),
    ...(tool.operationId ? { operationId: tool.operationId } : {}),
    ...(tool.deprecated ? { deprecated: true } : {}),
  };
}

/**
 * The whole description goes into the catalog only when the listing's lost something of it (cut, or markup
 * reduced): most listing descriptions are the summary and then the whole text, and the catalog is read at
 * every start.
 */
function saysMore(tool: ToolModel): tool is ToolModel & { fullDescription: string } {
  return tool.fullDescription !== undefined && !tool.description.endsWith(tool.fullDescription);
}

export function catalogSecuritySchemes(schemes: readonly SecuritySchemeModel[]): CatalogSecurityScheme[] {
  const result: CatalogSecurityScheme[] = [];
  for (const s of schemes) {
    const prefix = envName(s.name);
    if (s.type === 'apiKey') {
      result.push({
        name: s.name,
        kind: 'apiKey',
        in: s.in ?? 'header',
        paramName: s.paramName ?? s.name,
        env: { value: envVar(prefix, 'API_KEY') },
      });
    } else if (s.type === 'http' && s.scheme === 'basic') {
      result.push({
        name: s.name,
        kind: 'http-basic',
        scheme: 'basic',
        env: { username: envVar(prefix, 'USERNAME'), password: envVar(prefix, 'PASSWORD') },
      });
    } else if (s.type === 'http' && s.scheme !== 'bearer') {
      result.push({
        name: s.name,
        kind: 'http-raw',
        scheme: s.scheme ?? 'bearer',
        env: { value: envVar(prefix, 'AUTHORIZATION') },
      });
    } else if (s.type === 'oauth2' && s.clientCredentials) {
      const env = {
        value: envVar(prefix, 'TOKEN'),
        clientId: envVar(prefix, 'CLIENT_ID'),
        clientSecret: envVar(prefix, 'CLIENT_SECRET'),
        tokenUrl: envVar(prefix, 'TOKEN_URL'),
        scopes: envVar(prefix, 'SCOPES'),
      };
      result.push({ name: s.name, kind: 'oauth2', scheme: 'bearer', env, clientCredentials: s.clientCredentials });
    } else if (s.type === 'mutualTLS') {
      result.push({
        name: s.name,
        kind: 'mutualTLS',
        env: { certFile: 'API_TLS_CERT_FILE', privateFile: 'API_TLS_PRIVATE_FILE' },
      });
    } else if (s.type === 'http' || s.type === 'oauth2' || s.type === 'openIdConnect') {
      const kind = s.type === 'http' ? 'http-bearer' : s.type;
      result.push({ name: s.name, kind, scheme: 'bearer', env: { value: envVar(prefix, 'TOKEN') } });
    }
  }
  return result;
}

/** Mapping entries for schemes the spec does not define are dropped (the pipeline warns about them). */
function knownSchemesOnly(
  config: CallerCredentialsConfig,
  schemes: readonly SecuritySchemeModel[],
): CallerCredentialsConfig {
  if (!config.map) return { mode: config.mode };
  const known = new Set(schemes.map((s) => s.name));
  return {
    mode: config.mode,
    map: Object.fromEntries(Object.entries(config.map).filter(([scheme]) => known.has(scheme))),
  };
}
