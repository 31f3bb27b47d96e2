import { describe, expect, it } from 'vitest';
import {
  callerCredentialsConfig,
  callerCredentialValues,
  callerHeaderMap,
  CallerCredentialsError,
  defaultCallerHeader,
  parseCallerCredentials,
  unknownCallerSchemes,
} from '../../../templates/runtime/contract/caller-credentials.js';
import type { CatalogSecurityScheme } from '../../../templates/runtime/contract/catalog.js';

const schemes: CatalogSecurityScheme[] = [
  { name: 'bearerAuth', kind: 'http-bearer', env: { value: 'BEARER_AUTH_TOKEN' } },
  { name: 'petstore_auth', kind: 'oauth2', env: { value: 'PETSTORE_AUTH_TOKEN' } },
  { name: 'api_key', kind: 'apiKey', in: 'header', paramName: 'api_key', env: { value: 'API_KEY' } },
];

describe('caller credentials mapping', () => {
  it('parses off, headers and an explicit list (header names lower-cased)', () => {
    expect(parseCallerCredentials('off')).toEqual({ mode: 'off' });
    expect(parseCallerCredentials('  ')).toEqual({ mode: 'off' });
    expect(parseCallerCredentials('headers')).toEqual({ mode: 'headers' });
    expect(parseCallerCredentials('api_key=X-Upstream-Key, bearerAuth=Authorization')).toEqual({
      mode: 'headers',
      map: { api_key: 'x-upstream-key', bearerAuth: 'authorization' },
    });
  });

  it('rejects malformed lists', () => {
    for (const bad of ['api_key', '=X-Key', 'api_key=', 'api_key=X Key', 'on'])
      expect(() => parseCallerCredentials(bad), bad).toThrow(CallerCredentialsError);
  });

  it('derives default header names from scheme names', () => {
    expect(defaultCallerHeader('bearerAuth')).toBe('x-upstream-bearer-auth');
    expect(defaultCallerHeader('petstore_auth')).toBe('x-upstream-petstore-auth');
    expect(defaultCallerHeader('__')).toBe('x-upstream-credential');
  });

  it('headers mode without a list covers every scheme; a list covers only the schemes it names that exist', () => {
    expect([...callerHeaderMap({ mode: 'headers' }, schemes)]).toEqual([
      ['bearerAuth', 'x-upstream-bearer-auth'],
      ['petstore_auth', 'x-upstream-petstore-auth'],
      ['api_key', 'x-upstream-api-key'],
    ]);
    const config = parseCallerCredentials('api_key=X-Key,nope=X-Nope');
    expect([...callerHeaderMap(config, schemes)]).toEqual([['api_key', 'x-key']]);
    expect(unknownCallerSchemes(config, schemes)).toEqual(['nope']);
    expect(callerHeaderMap({ mode: 'off' }, schemes).size).toBe(0);
    expect(callerHeaderMap(undefined, schemes).size).toBe(0);
  });

  it('MCP_CALLER_CREDENTIALS overrides the generated choice, including turning it off', () => {
    const generated = { mode: 'headers' as const, map: { api_key: 'x-key' } };
    expect(callerCredentialsConfig(generated, {})).toBe(generated);
    expect(callerCredentialsConfig(generated, { MCP_CALLER_CREDENTIALS: 'off' })).toEqual({ mode: 'off' });
    expect(callerCredentialsConfig(undefined, { MCP_CALLER_CREDENTIALS: 'bearerAuth=authorization' })).toEqual({
      mode: 'headers',
      map: { bearerAuth: 'authorization' },
    });
  });

  it('reads only the mapped headers: the caller Authorization header is ignored unless mapped', () => {
    const headers = new Headers({ authorization: 'Bearer mcp-token', 'x-key': ' k1 ', 'x-other': 'o' });
    expect([
      ...callerCredentialValues(callerHeaderMap(parseCallerCredentials('api_key=X-Key'), schemes), headers),
    ]).toEqual([['api_key', 'k1']]);
    expect([
      ...callerCredentialValues(callerHeaderMap(parseCallerCredentials('bearerAuth=authorization'), schemes), headers),
    ]).toEqual([['bearerAuth', 'Bearer mcp-token']]);
    expect(callerCredentialValues(callerHeaderMap({ mode: 'headers' }, schemes), undefined).size).toBe(0);
  });
});
