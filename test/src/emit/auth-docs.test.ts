/** The generator's side of authentication: client-credentials flows (3.x and Swagger 2.0), variables and docs. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generate, type GenerateResult } from '../../../src/pipeline.js';

const dir = mkdtempSync(join(tmpdir(), 'otm-auth-emit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PATHS = { '/things': { get: { operationId: 'getThings', responses: { '200': { description: 'ok' } } } } };

async function generateFrom(
  name: string,
  spec: Record<string, unknown>,
  callerCredentials?: string,
): Promise<GenerateResult> {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(spec));
  return generate({ spec: file, validate: false, write: false, ...(callerCredentials ? { callerCredentials } : {}) });
}

function fileOf(result: GenerateResult, path: string): string {
  return result.files.find((f) => f.path === path)!.contents;
}

interface CatalogJson {
  securitySchemes: Array<{ name: string; env: Record<string, string>; clientCredentials?: unknown }>;
  callerCredentials?: unknown;
}

describe('client-credentials flows', () => {
  it('OpenAPI 3: flows.clientCredentials keeps its tokenUrl and scopes; other flows take a ready token only', async () => {
    const result = await generateFrom('oas3', {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      security: [{ machine: ['a'] }],
      paths: PATHS,
      components: {
        securitySchemes: {
          machine: {
            type: 'oauth2',
            flows: { clientCredentials: { tokenUrl: 'https://login.example.com/token', scopes: { a: 'A', b: 'B' } } },
          },
          user: {
            type: 'oauth2',
            flows: {
              authorizationCode: {
                authorizationUrl: 'https://login.example.com/a',
                tokenUrl: 'https://login.example.com/token',
                scopes: {},
              },
            },
          },
        },
      },
    });
    const catalog = JSON.parse(fileOf(result, 'catalog.json')) as CatalogJson;
    expect(catalog.securitySchemes).toEqual([
      {
        name: 'machine',
        kind: 'oauth2',
        scheme: 'bearer',
        env: {
          value: 'MACHINE_TOKEN',
          clientId: 'MACHINE_CLIENT_ID',
          clientSecret: 'MACHINE_CLIENT_SECRET',
          tokenUrl: 'MACHINE_TOKEN_URL',
          scopes: 'MACHINE_SCOPES',
        },
        clientCredentials: { tokenUrl: 'https://login.example.com/token', scopes: ['a', 'b'] },
      },
      { name: 'user', kind: 'oauth2', scheme: 'bearer', env: { value: 'USER_TOKEN' } },
    ]);
    expect(catalog.callerCredentials).toBeUndefined();
  });

  it('Swagger 2.0: flow application is the client-credentials flow', async () => {
    const result = await generateFrom('swagger2', {
      swagger: '2.0',
      info: { title: 'T', version: '1' },
      host: 'api.example.com',
      paths: PATHS,
      securityDefinitions: {
        app: { type: 'oauth2', flow: 'application', tokenUrl: 'https://login.example.com/token', scopes: { x: 'X' } },
        implicit: { type: 'oauth2', flow: 'implicit', authorizationUrl: 'https://login.example.com/a', scopes: {} },
      },
    });
    const catalog = JSON.parse(fileOf(result, 'catalog.json')) as CatalogJson;
    expect(catalog.securitySchemes.map((s) => [s.name, s.clientCredentials])).toEqual([
      ['app', { tokenUrl: 'https://login.example.com/token', scopes: ['x'] }],
      ['implicit', undefined],
    ]);
  });

  it('client id and secret are credentials in the client snippets and server.json; endpoint settings stay out of the stdio entry', async () => {
    const result = await generateFrom('snippets', {
      openapi: '3.0.3',
      info: { title: 'T', version: '1' },
      servers: [{ url: 'https://api.example.com' }],
      paths: PATHS,
      components: {
        securitySchemes: {
          machine: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: {} } } },
        },
      },
    });
    const readme = fileOf(result, 'README.md');
    const desktop = /"mcpServers": \{[\s\S]*?\n```/.exec(readme)![0];
    expect(desktop).toContain('"MACHINE_CLIENT_ID"');
    expect(desktop).toContain('"MACHINE_CLIENT_SECRET"');
    expect(desktop).not.toContain('MACHINE_TOKEN_URL');
    expect(desktop).not.toContain('MCP_AUTH_TOKENS');
    const serverJson = JSON.parse(fileOf(result, 'server.json')) as {
      packages: Array<{ environmentVariables: Array<{ name: string; isSecret: boolean }> }>;
    };
    const vars = new Map(serverJson.packages[0]!.environmentVariables.map((v) => [v.name, v.isSecret]));
    expect(vars.get('MACHINE_CLIENT_SECRET')).toBe(true);
    expect(vars.get('MACHINE_CLIENT_ID')).toBe(false);
    expect(vars.get('MACHINE_TOKEN_URL')).toBe(false);
    expect(vars.has('MCP_AUTH_TOKENS')).toBe(false);
    expect(vars.has('MCP_CALLER_CREDENTIALS')).toBe(false);
    expect(fileOf(result, '.env.example')).toMatch(/^# MACHINE_TOKEN_URL=\/token$/m);
  });
});

describe('--caller-credentials', () => {
  const spec = {
    openapi: '3.0.3',
    info: { title: 'T', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    security: [{ key: [] }],
    paths: PATHS,
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
  };

  it('headers: stored without a map; docs/authentication.md lists the default header of each scheme', async () => {
    const result = await generateFrom('caller-headers', spec, 'headers');
    expect((JSON.parse(fileOf(result, 'catalog.json')) as CatalogJson).callerCredentials).toEqual({ mode: 'headers' });
    expect(fileOf(result, 'docs/authentication.md')).toContain('| `key` | `x-upstream-key` |');
  });

  it('off: nothing stored, and docs/authentication.md says it is off', async () => {
    const result = await generateFrom('caller-off', spec, 'off');
    expect((JSON.parse(fileOf(result, 'catalog.json')) as CatalogJson).callerCredentials).toBeUndefined();
    expect(fileOf(result, 'docs/authentication.md')).toContain(
      'It is off unless `MCP_CALLER_CREDENTIALS` turns it on.',
    );
  });
});
