import { describe, expect, it } from 'vitest';
import {
  redactCallResult,
  redactResult,
  secretForms,
  serverSecrets,
} from '../../../templates/runtime/redaction/redact.js';
import type { CatalogSecurityScheme } from '../../../templates/runtime/contract/catalog.js';

describe('redaction of results', () => {
  it('replaces secrets in text content and in every string of structured content, keys included', () => {
    const result = redactResult(
      {
        content: [
          { type: 'text', text: '{"auth":"Bearer tok-123456","echo":{"key":"k-abcdef"}}' },
          { type: 'image', data: 'tok-123456', mimeType: 'image/png' },
        ],
        structuredContent: {
          auth: 'Bearer tok-123456',
          nested: [{ 'k-abcdef': 1, note: 'uses k-abcdef twice: k-abcdef' }],
          n: 3,
          ok: true,
        },
        isError: true,
      },
      ['tok-123456', 'k-abcdef'],
    );
    expect(result.content[0]).toEqual({
      type: 'text',
      text: '{"auth":"Bearer [redacted]","echo":{"key":"[redacted]"}}',
    });
    // Binary content is not text: it is left as is.
    expect(result.content[1]).toEqual({ type: 'image', data: 'tok-123456', mimeType: 'image/png' });
    expect(result.structuredContent).toEqual({
      auth: 'Bearer [redacted]',
      nested: [{ '[redacted]': 1, note: 'uses [redacted] twice: [redacted]' }],
      n: 3,
      ok: true,
    });
    expect(result.isError).toBe(true);
  });

  it('also catches percent-encoded and JSON-escaped forms', () => {
    expect(secretForms(['a b/"c'])).toEqual(expect.arrayContaining(['a b/"c', 'a%20b%2F%22c', 'a b/\\"c']));
    const text = 'url: /x?key=a%20b%2F%22c body: {"k":"a b/\\"c"}';
    expect(redactResult({ content: [{ type: 'text', text }] }, ['a b/"c']).content[0]).toEqual({
      type: 'text',
      text: 'url: /x?key=[redacted] body: {"k":"[redacted]"}',
    });
  });

  it('replaces the longest secret first and ignores values under 4 characters', () => {
    const result = redactResult({ content: [{ type: 'text', text: 'abcdefgh and abc' }] }, ['abcd', 'abcdefgh', 'abc']);
    expect(result.content[0]).toEqual({ type: 'text', text: '[redacted] and abc' });
  });

  it('server secrets: upstream credentials, the endpoint tokens and client secret, the TLS key passphrase', () => {
    const schemes: CatalogSecurityScheme[] = [
      { name: 'k', kind: 'apiKey', in: 'header', paramName: 'X-Key', env: { value: 'K_API_KEY' } },
    ];
    const env = {
      K_API_KEY: 'key-1',
      MCP_AUTH_TOKENS: 'static-1, static-2',
      MCP_OAUTH_CLIENT_SECRET: 'intro-secret',
      API_TLS_PASSPHRASE: 'tls-pass-1',
    };
    expect(serverSecrets({ securitySchemes: schemes }, env)).toEqual(
      expect.arrayContaining(['key-1', 'static-1', 'static-2', 'intro-secret', 'tls-pass-1']),
    );
  });

  it('a call result: the server secrets and the ones the call sent; a result holding none is returned as it is', () => {
    const schemes: CatalogSecurityScheme[] = [
      { name: 'k', kind: 'apiKey', in: 'header', paramName: 'X-Key', env: { value: 'K_API_KEY' } },
    ];
    const env = { K_API_KEY: 'key-12345' };
    const clean = { content: [{ type: 'text' as const, text: '{"id":1}' }], structuredContent: { id: 1 } };
    expect(redactCallResult(clean, ['key-12345'], { securitySchemes: schemes }, env)).toBe(clean);
    const echoed = {
      content: [{ type: 'text' as const, text: 'key-12345 caller-token-9' }],
      structuredContent: { seen: ['caller-token-9'] },
    };
    // The second call sends a secret of its own (a caller's token): it is redacted along with the server's.
    expect(redactCallResult(echoed, ['key-12345'], { securitySchemes: schemes }, env)).toEqual({
      content: [{ type: 'text', text: '[redacted] caller-token-9' }],
      structuredContent: { seen: ['caller-token-9'] },
    });
    expect(redactCallResult(echoed, ['caller-token-9'], { securitySchemes: schemes }, env)).toEqual({
      content: [{ type: 'text', text: '[redacted] [redacted]' }],
      structuredContent: { seen: ['[redacted]'] },
    });
  });

  it("a call result: two catalogs under one environment each redact their own schemes' secrets", () => {
    const env = { A_KEY: 'alpha-secret', B_KEY: 'bravo-secret' };
    const scheme = (name: string, variable: string): CatalogSecurityScheme => ({
      name,
      kind: 'apiKey',
      in: 'header',
      paramName: 'X-Key',
      env: { value: variable },
    });
    const echoed = { content: [{ type: 'text' as const, text: 'alpha-secret bravo-secret' }] };
    expect(redactCallResult(echoed, [], { securitySchemes: [scheme('a', 'A_KEY')] }, env).content[0]).toEqual({
      type: 'text',
      text: '[redacted] bravo-secret',
    });
    expect(redactCallResult(echoed, [], { securitySchemes: [scheme('b', 'B_KEY')] }, env).content[0]).toEqual({
      type: 'text',
      text: 'alpha-secret [redacted]',
    });
  });
});
