/**
 * The upstream credentials of one tool call: the caller's mapped headers (HTTP), the environment, and
 * client-credentials tokens, combined per the operation's security requirements (auth.ts). The state that
 * outlives a call (the header mapping and the token cache) is built once per server.
 */
import { missingCredentialsMessage, resolveCredentials, type AppliedCredentials } from './schemes.js';
import {
  callerCredentialsConfig,
  callerCredentialValues,
  callerHeaderMap,
  type CallerHeaderMap,
} from '../contract/caller-credentials.js';
import type { CatalogHeader, CatalogTool } from '../contract/catalog.js';
import type { UpstreamTls } from '../upstream/http-client.js';
import type { Logger } from '../server/log.js';
import { ClientCredentialsTokens, type SharedTokenCache } from './oauth-client.js';

export interface UpstreamAuth {
  /** Scheme → header of the incoming MCP request that carries the caller's credential. */
  callerHeaders: CallerHeaderMap;
  tokens: ClientCredentialsTokens;
}

export interface UpstreamAuthSettings {
  catalog: CatalogHeader;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Client certificate and extra CAs for the token endpoint too (upstream-tls.ts). */
  tls?: UpstreamTls;
  /** The token cache the replicas share (MCP_STATE_URL). */
  sharedTokens?: SharedTokenCache;
}

/** Throws CallerCredentialsError when MCP_CALLER_CREDENTIALS cannot be parsed. */
export function createUpstreamAuth(settings: UpstreamAuthSettings): UpstreamAuth {
  const config = callerCredentialsConfig(settings.catalog.callerCredentials, settings.env);
  return {
    callerHeaders: callerHeaderMap(config, settings.catalog.securitySchemes),
    tokens: new ClientCredentialsTokens({
      timeoutMs: settings.timeoutMs,
      ...(settings.fetch ? { fetch: settings.fetch } : {}),
      ...(settings.tls ? { tls: settings.tls } : {}),
      ...(settings.sharedTokens ? { shared: settings.sharedTokens } : {}),
    }),
  };
}

const built = new WeakMap<object, UpstreamAuth>();

/** The server's UpstreamAuth when it passed one, else one built on first use for this set of dependencies. */
export function upstreamAuthOf(
  owner: object,
  given: UpstreamAuth | undefined,
  settings: () => UpstreamAuthSettings,
): UpstreamAuth {
  if (given) return given;
  let auth = built.get(owner);
  if (!auth) {
    auth = createUpstreamAuth(settings());
    built.set(owner, auth);
  }
  return auth;
}

export type CallCredentials = { ok: true; applied: AppliedCredentials } | { ok: false; message: string };

export interface CallContext {
  catalog: CatalogHeader;
  env: NodeJS.ProcessEnv;
  baseUrl: string;
  log: Logger;
  /** Headers of the MCP request (HTTP); undefined over stdio. */
  requestHeaders?: Headers;
}

export async function credentialsForCall(
  auth: UpstreamAuth,
  tool: CatalogTool,
  call: CallContext,
): Promise<CallCredentials> {
  const resolution = await resolveCredentials(tool.security, call.catalog.securitySchemes, {
    env: call.env,
    caller: callerCredentialValues(auth.callerHeaders, call.requestHeaders),
    callerHeaders: auth.callerHeaders,
    baseUrl: call.baseUrl,
    fetchToken: (request) => auth.tokens.token(request),
  });
  if (resolution.ok) return resolution;
  if ('missing' in resolution) return { ok: false, message: missingCredentialsMessage(tool.name, resolution.missing) };
  call.log.warn('upstream token request failed', { tool: tool.name, reason: resolution.failed });
  return { ok: false, message: `Cannot get an OAuth 2 access token for ${tool.name}: ${resolution.failed}.` };
}
