import { describe, expect, it } from 'vitest';
import { resolveCredentials } from '../../templates/runtime/auth.js';
import type { CatalogSecurityScheme } from '../../templates/runtime/catalog.js';

const schemes: CatalogSecurityScheme[] = [
  { name: 'key', kind: 'apiKey', in: 'header', paramName: 'X-Key', env: { value: 'KEY_API_KEY' } },
  { name: 'token', kind: 'oauth2', env: { value: 'TOKEN_TOKEN' } },
  { name: 'basic', kind: 'http-basic', env: { username: 'B_USERNAME', password: 'B_PASSWORD' } },
  { name: 'q', kind: 'apiKey', in: 'query', paramName: 'api_key', env: { value: 'Q_API_KEY' } },
];

describe('runtime credentials', () => {
  it('sends nothing for public operations', () => {
    expect(resolveCredentials([], schemes, { KEY_API_KEY: 'k' })).toEqual({ ok: true, applied: { headers: {}, query: [], cookies: [] } });
  });

  it('uses the first alternative whose credentials are all configured', () => {
    const result = resolveCredentials([['key', 'q'], ['token']], schemes, { TOKEN_TOKEN: 't' });
    expect(result).toEqual({ ok: true, applied: { headers: { authorization: 'Bearer t' }, query: [], cookies: [] } });
  });

  it('applies AND-combined schemes together', () => {
    const result = resolveCredentials([['key', 'q']], schemes, { KEY_API_KEY: 'k', Q_API_KEY: 'qq' });
    expect(result).toEqual({ ok: true, applied: { headers: { 'x-key': 'k' }, query: [['api_key', 'qq']], cookies: [] } });
  });

  it('names the missing variables', () => {
    expect(resolveCredentials([['basic']], schemes, {})).toEqual({ ok: false, missing: ['B_USERNAME'] });
  });

  it('encodes basic credentials', () => {
    const result = resolveCredentials([['basic']], schemes, { B_USERNAME: 'u', B_PASSWORD: 'p' });
    expect(result.ok && result.applied.headers['authorization']).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
  });
});
