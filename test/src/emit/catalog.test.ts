import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../../helpers/generated-project.js';
import { describe, expect, it } from 'vitest';
import { buildCatalog, catalogSecuritySchemes } from '../../../src/emit/catalog.js';
import { Diagnostics } from '../../../src/diagnostics/diagnostics.js';
import { createOperation } from '../../../src/ir/factory.js';
import type { ApiModel, OperationModel } from '../../../src/ir/types.js';
import { mapOperation } from '../../../src/tools/map-operation.js';
import { envName, envVar, slugWords, toSemver } from '../../../src/emit/names.js';

describe('emit names', () => {
  it.each([
    ['Swagger Petstore - OpenAPI 3.0', ['swagger', 'petstore', 'openapi', '3', '0']],
    ['Ünïcode API!', ['unicode', 'api']],
    ['', []],
  ])('slugWords(%j) = %j', (input, expected) => expect(slugWords(input)).toEqual(expected));

  it.each([
    ['1.0.27-SNAPSHOT', '1.0.27-SNAPSHOT'],
    ['v1', '1.0.0'],
    ['1.2', '1.2.0'],
    ['2022-11-28', '0.1.0'],
  ])('toSemver(%j) = %j', (input, expected) => expect(toSemver(input)).toBe(expected));

  it('derives environment variable names from scheme names without stutter', () => {
    expect(envName('petstore_auth')).toBe('PETSTORE_AUTH');
    expect(envName('bearerAuth')).toBe('BEARER_AUTH');
    expect(envVar('API_KEY', 'API_KEY')).toBe('API_KEY');
    expect(envVar('BEARER_AUTH', 'TOKEN')).toBe('BEARER_AUTH_TOKEN');
  });

  it('maps every scheme type to its credential variables', () => {
    const schemes = catalogSecuritySchemes([
      { kind: 'securityScheme', name: 'api_key', type: 'apiKey', in: 'query', paramName: 'key' },
      { kind: 'securityScheme', name: 'basic', type: 'http', scheme: 'basic' },
      { kind: 'securityScheme', name: 'oauth', type: 'oauth2' },
    ]);
    expect(schemes).toEqual([
      { name: 'api_key', kind: 'apiKey', in: 'query', paramName: 'key', env: { value: 'API_KEY' } },
      {
        name: 'basic',
        kind: 'http-basic',
        scheme: 'basic',
        env: { username: 'BASIC_USERNAME', password: 'BASIC_PASSWORD' },
      },
      { name: 'oauth', kind: 'oauth2', scheme: 'bearer', env: { value: 'OAUTH_TOKEN' } },
    ]);
  });
});

describe('generated dependencies', () => {
  it('pin the search libraries at the versions the generator builds the index with', async () => {
    const { GENERATED_DEPENDENCIES } = await import('../../../src/emit/versions.js');
    const own = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(GENERATED_DEPENDENCIES.minisearch).toBe(own.dependencies['minisearch']);
    expect(GENERATED_DEPENDENCIES.stemmer).toBe(own.dependencies['wink-porter2-stemmer']);
  });

  it('pin the validation libraries at the versions the runtime is tested with here', async () => {
    const { GENERATED_DEPENDENCIES } = await import('../../../src/emit/versions.js');
    const own = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    // re2js also matches patterns at generation (samples, value kinds): the generator depends on it.
    expect(GENERATED_DEPENDENCIES.re2js).toBe(own.dependencies['re2js']);
    expect(GENERATED_DEPENDENCIES.ajv).toBe(own.dependencies['ajv']);
    expect(GENERATED_DEPENDENCIES.ajvFormats).toBe(own.devDependencies['ajv-formats']);
  });
});

describe('catalog tools', () => {
  const api: ApiModel = {
    kind: 'api',
    dialect: 'openapi-3.1',
    title: 'T',
    version: '1',
    servers: [],
    operations: [],
    schemas: {},
    securitySchemes: [],
    tags: [],
  };
  const identity = { name: 't', version: '1', title: 'T', instructions: '' };
  const tool = (fields: Partial<OperationModel>) =>
    mapOperation(createOperation({ method: 'get', path: '/x', ...fields }), 'x', {
      defs: {},
      globalSecurity: undefined,
      securitySchemes: [],
      diags: new Diagnostics(),
      outputSchemas: false,
    });
  const catalogTool = (fields: Partial<OperationModel>) =>
    buildCatalog(api, [tool(fields)], identity, undefined, undefined, { toolMode: 'all', core: [] }).tools[0]!;

  it('keeps the whole description only when the listing left some of it out', () => {
    expect(catalogTool({ summary: 'Get x', description: 'Returns one x.' })).not.toHaveProperty('fullDescription');
    const linked = catalogTool({ summary: 'Get x', description: 'Returns one [x](https://example.com/x).' });
    expect(linked.description).toBe('Get x.\n\nReturns one x.');
    expect(linked.fullDescription).toBe('Returns one [x](https://example.com/x).');
    const long = `Returns one x. ${'Then more. '.repeat(100)}`.trim();
    expect(catalogTool({ summary: 'Get x', description: long }).fullDescription).toBe(long);
  });
});
