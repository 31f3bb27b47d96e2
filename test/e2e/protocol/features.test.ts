/**
 * End to end, one behaviour per fixture: each spec in fixtures/specs/features/ (plus the real Stripe spec when
 * ../shared/specs is present) is generated and built once, started over stdio with the SDK v2 client
 * (2026-07-28), and every tool call is checked against the exact HTTP request the local mock upstream received:
 * method, path and query string byte for byte, the headers that matter, and the body bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../../helpers/mock-upstream.js';
import { connectModernStdio } from '../../helpers/mcp-clients.js';
import { parseMultipart } from '../../helpers/multipart.js';

const FEATURES = `${REPO_ROOT}/fixtures/specs/features`;
const STRIPE_SPEC = resolve(REPO_ROOT, '..', 'shared', 'specs', 'stripe', 'spec3.yaml');

let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

beforeEach(() => {
  upstream.requests.length = 0;
  upstream.respond(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' }));
});

// ---------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean; structuredContent?: unknown };

function text(result: CallResult): string {
  return result.content.map((c) => c.text ?? '').join('');
}

function onlyRequest(): RecordedRequest {
  expect(upstream.requests).toHaveLength(1);
  return upstream.requests[0]!;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

/** Calls a tool that must succeed and returns the one request upstream received. */
async function callOk(client: Client, name: string, args: Record<string, unknown>): Promise<RecordedRequest> {
  const result = await call(client, name, args);
  expect(result.isError, text(result)).toBeFalsy();
  return onlyRequest();
}

interface Catalog {
  baseUrl?: string;
  securitySchemes: Array<{
    name: string;
    kind: string;
    in?: string;
    paramName?: string;
    env: { value?: string; username?: string; password?: string };
  }>;
  tools: Array<{ name: string; operationId?: string; security?: string[][] }>;
}

function readCatalog(project: BuiltProject): Catalog {
  return JSON.parse(readFileSync(join(project.dir, 'catalog.json'), 'utf8')) as Catalog;
}

/** The README rule: scheme names are upper snake-cased (`bearerAuth` → `BEARER_AUTH`). */
function upperSnake(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

// ---------------------------------------------------------------------------------------------------
// 1. styles.yaml: every parameter style
// ---------------------------------------------------------------------------------------------------

describe('styles.yaml: parameter styles', () => {
  let project: BuiltProject;
  let client: Client;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/styles.yaml`);
    client = await connectModernStdio(project.entry, { API_BASE_URL: `${upstream.url}/api` });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  const color = { R: 100, G: 200 };
  const colors = ['blue', 'black'];

  it('path, style simple: arrays and objects, explode false and true', async () => {
    const req = await callOk(client, 'pathSimple', { arr: colors, arrx: colors, obj: color, objx: color });
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/api/simple/blue,black/blue,black/R,100,G,200/R=100,G=200');
  });

  it('path, style label: arrays and objects, explode false and true', async () => {
    const req = await callOk(client, 'pathLabel', { arr: colors, arrx: colors, obj: color, objx: color });
    expect(req.url).toBe('/api/label/.blue,black/.blue.black/.R,100,G,200/.R=100.G=200');
  });

  it('path, style matrix: arrays and objects, explode false and true', async () => {
    const req = await callOk(client, 'pathMatrix', { arr: colors, arrx: colors, obj: color, objx: color });
    expect(req.url).toBe('/api/matrix/;arr=blue,black/;arrx=blue;arrx=black/;obj=R,100,G,200/;R=100;G=200');
  });

  it('query, style form, explode false: array and object', async () => {
    const req = await callOk(client, 'queryFormNoExplode', { arr: ['blue', 'a b'], obj: color });
    expect(req.url).toBe('/api/query/form?arr=blue,a%20b&obj=R,100,G,200');
  });

  it('query, spaceDelimited and pipeDelimited', async () => {
    const req = await callOk(client, 'queryDelimited', { sp: colors, pp: colors });
    expect(req.url).toBe('/api/query/delimited?sp=blue%20black&pp=blue|black');
  });

  it('query, deepObject', async () => {
    const req = await callOk(client, 'queryDeepObject', { filter: { status: 'open', owner: 'me' } });
    expect(req.url).toBe('/api/query/deep?filter[status]=open&filter[owner]=me');
  });

  it('query, allowReserved: reserved characters stay raw, # is still encoded', async () => {
    const req = await callOk(client, 'queryAllowReserved', { raw: 'a/b:c#frag', plain: 'a/b:c#frag' });
    expect(req.url).toBe('/api/query/reserved?raw=a/b:c%23frag&plain=a%2Fb%3Ac%23frag');
  });

  it('header: arrays and objects, explode false and true', async () => {
    const req = await callOk(client, 'headerStyles', {
      'X-Arr': colors,
      'X-Arr-Exploded': colors,
      'X-Obj': color,
      'X-Obj-Exploded': color,
    });
    expect(req.url).toBe('/api/headers');
    expect(req.headers['x-arr']).toBe('blue,black');
    expect(req.headers['x-arr-exploded']).toBe('blue,black');
    expect(req.headers['x-obj']).toBe('R,100,G,200');
    expect(req.headers['x-obj-exploded']).toBe('R=100,G=200');
  });

  it('cookie: two parameters in one Cookie header, values percent-encoded', async () => {
    const req = await callOk(client, 'cookieParams', { session: 's 1;x', lang: 'en' });
    expect(req.url).toBe('/api/cookies');
    expect(req.headers['cookie']).toBe('session=s%201%3Bx; lang=en');
  });
});

// ---------------------------------------------------------------------------------------------------
// 2. bodies.yaml: request body media types
// ---------------------------------------------------------------------------------------------------

describe('bodies.yaml: request bodies', () => {
  let project: BuiltProject;
  let client: Client;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/bodies.yaml`);
    client = await connectModernStdio(project.entry, { API_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  const multipartArgs = {
    body: {
      file: { base64: Buffer.from('hello').toString('base64'), filename: 'h.txt', contentType: 'text/plain' },
      note: 'n 1',
      meta: { tag: 'x', size: 3 },
    },
  };

  it('multipart/form-data: a file part, a scalar part and a JSON object part', async () => {
    const req = await callOk(client, 'uploadMultipart', multipartArgs);
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/upload');
    const parts = parseMultipart(req);
    expect(parts.map((p) => p.name)).toEqual(['file', 'note', 'meta']);
    const [file, note, meta] = parts;
    expect(file!.filename).toBe('h.txt');
    expect(file!.contentType).toBe('text/plain');
    expect(file!.body.equals(Buffer.from('hello'))).toBe(true);
    expect(note!.filename).toBeUndefined();
    expect(note!.contentType).toBeUndefined();
    expect(note!.body.toString('utf8')).toBe('n 1');
    expect(meta!.contentType).toBe('application/json');
    expect(meta!.body.toString('utf8')).toBe('{"tag":"x","size":3}');
  });

  // A part with a filename is a file upload to multer/Starlette/FastAPI: JSON fields must not have one.
  it('multipart/form-data: the JSON object part is a field, not a file (no filename)', async () => {
    const req = await callOk(client, 'uploadMultipart', multipartArgs);
    const meta = parseMultipart(req).find((p) => p.name === 'meta')!;
    expect(meta.headers['content-disposition']).toBe('form-data; name="meta"');
  });

  it('application/octet-stream: the exact bytes', async () => {
    const bytes = Buffer.from([0x00, 0x01, 0x02, 0x7f, 0x80, 0xfe, 0xff]);
    const req = await callOk(client, 'putOctetStream', { body: { base64: bytes.toString('base64') } });
    expect(req.method).toBe('PUT');
    expect(req.url).toBe('/blob');
    expect(req.headers['content-type']).toBe('application/octet-stream');
    expect(req.body.equals(bytes)).toBe(true);
  });

  it('text/plain: the string as UTF-8', async () => {
    const req = await callOk(client, 'postText', { body: 'hello\nwörld' });
    expect(req.url).toBe('/note');
    expect(req.headers['content-type']).toBe('text/plain');
    expect(req.body.equals(Buffer.from('hello\nwörld', 'utf8'))).toBe(true);
  });

  it('a vendor +json media type keeps its content-type', async () => {
    const req = await callOk(client, 'postVendorJson', { body: { data: { type: 'articles', id: '1' } } });
    expect(req.url).toBe('/vendor');
    expect(req.headers['content-type']).toBe('application/vnd.api+json');
    expect(req.body.toString()).toBe('{"data":{"type":"articles","id":"1"}}');
  });

  it('XML and JSON offered (XML first): JSON is chosen', async () => {
    const req = await callOk(client, 'postXmlOrJson', { body: { name: 'Rex', age: 3 } });
    expect(req.url).toBe('/either');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.toString()).toBe('{"name":"Rex","age":3}');
  });

  it('a JSON body whose root is an array', async () => {
    const req = await callOk(client, 'postArray', { body: [{ name: 'a' }, { name: 'b', age: 2 }] });
    expect(req.url).toBe('/batch');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.toString()).toBe('[{"name":"a"},{"name":"b","age":2}]');
  });
});

// ---------------------------------------------------------------------------------------------------
// 3. swagger2.json: Swagger 2.0
// ---------------------------------------------------------------------------------------------------

describe('swagger2.json: Swagger 2.0', () => {
  let project: BuiltProject;
  let client: Client;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/swagger2.json`);
    client = await connectModernStdio(project.entry, { API_BASE_URL: `${upstream.url}/v2` });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  it('builds the default base URL from host, basePath and the first scheme', () => {
    expect(readCatalog(project).baseUrl).toBe('https://swagger.example.com:8443/v2');
  });

  it('a body parameter is the body argument, sent as JSON', async () => {
    const req = await callOk(client, 'addPet', { body: { name: 'Rex', tags: ['a', 'b'] } });
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v2/pets');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.toString()).toBe('{"name":"Rex","tags":["a","b"]}');
  });

  it('query arrays: default collectionFormat csv and multi; a header parameter', async () => {
    const req = await callOk(client, 'findPets', { a: [1, 2], b: [1, 2], 'X-Request-Id': 'r-1' });
    expect(req.method).toBe('GET');
    expect(req.url).toBe('/v2/pets?a=1,2&b=1&b=2');
    expect(req.headers['x-request-id']).toBe('r-1');
  });

  it('formData, urlencoded: collectionFormat multi and csv', async () => {
    const req = await callOk(client, 'updatePetWithForm', {
      petId: 7,
      body: { name: 'Rex Jr', tags: ['a', 'b'], codes: ['x', 'y'] },
    });
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v2/pets/7/form');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.body.toString()).toBe('name=Rex%20Jr&tags=a&tags=b&codes=x,y');
  });

  it('formData, multipart: a type file parameter', async () => {
    const req = await callOk(client, 'uploadImage', {
      petId: 7,
      body: {
        caption: 'cute',
        image: { base64: Buffer.from('PNGDATA').toString('base64'), filename: 'p.png', contentType: 'image/png' },
      },
    });
    expect(req.url).toBe('/v2/pets/7/image');
    const parts = parseMultipart(req);
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['caption', undefined, undefined],
      ['image', 'p.png', 'image/png'],
    ]);
    expect(parts[0]!.body.toString()).toBe('cute');
    expect(parts[1]!.body.equals(Buffer.from('PNGDATA'))).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------------
// 4. collisions.yaml: argument names
// ---------------------------------------------------------------------------------------------------

describe('collisions.yaml: argument names', () => {
  let project: BuiltProject;
  let client: Client;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/collisions.yaml`);
    client = await connectModernStdio(project.entry, { API_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  it('lists the disambiguated argument names (path, query, header, cookie order; body → body_2; sanitized)', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['updateThing']);
    const schema = tools[0]!.inputSchema;
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(
      ['id', 'id_query', 'id_header', 'id_cookie', 'body', 'filter_name', 'body_2'].sort(),
    );
    expect([...(schema.required ?? [])].sort()).toEqual(['body_2', 'id']);
  });

  it('sends every value to its own location under the spec name', async () => {
    const req = await callOk(client, 'updateThing', {
      id: 'p 1',
      id_query: 'q1',
      id_header: 'h1',
      id_cookie: 'c1',
      body: 'qb',
      filter_name: 'fn',
      body_2: { id: 'x', body: 'y' },
    });
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/things/p%201?id=q1&body=qb&filter[name]=fn');
    expect(req.headers['id']).toBe('h1');
    expect(req.headers['cookie']).toBe('id=c1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.toString()).toBe('{"id":"x","body":"y"}');
  });
});

// ---------------------------------------------------------------------------------------------------
// 5. no-servers.yaml: API_BASE_URL required
// ---------------------------------------------------------------------------------------------------

describe('no-servers.yaml: no servers', () => {
  let project: BuiltProject;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/no-servers.yaml`);
  });
  afterAll(() => {
    project?.cleanup();
  });

  it('writes no default base URL, and the README and .env.example require API_BASE_URL', () => {
    const catalog = readCatalog(project) as Catalog & { baseUrlNote?: string };
    expect(catalog.baseUrl).toBeUndefined();
    expect(catalog.baseUrlNote).toBeTruthy();
    expect(readFileSync(join(project.dir, '.env.example'), 'utf8')).toMatch(/^API_BASE_URL=/m);
  });

  it('reports OTM_NO_SERVER', () => {
    expect(project.result.diagnostics.map((d) => d.code)).toContain('OTM_NO_SERVER');
  });

  it('without API_BASE_URL: a tool error naming API_BASE_URL, nothing sent', async () => {
    const client = await connectModernStdio(project.entry, {});
    try {
      const result = await call(client, 'ping', { q: 'x' });
      expect(result.isError).toBe(true);
      expect(text(result)).toContain('API_BASE_URL');
      expect(upstream.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });

  it('with API_BASE_URL: the request goes there', async () => {
    const client = await connectModernStdio(project.entry, { API_BASE_URL: `${upstream.url}/base` });
    try {
      const req = await callOk(client, 'ping', { q: 'x' });
      expect(req.method).toBe('GET');
      expect(req.url).toBe('/base/ping?q=x');
    } finally {
      await client.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// 6. security.yaml: credentials per operation
// ---------------------------------------------------------------------------------------------------

describe('security.yaml: credentials', () => {
  let project: BuiltProject;
  let envOf: (scheme: string) => Catalog['securitySchemes'][number]['env'];
  let full: Client;
  let basicOnly: Client;
  const secrets = { header: 'hk-1', query: 'qk-1', cookie: 'ck 1;x', bearer: 'tok-1', user: 'ann', password: 'p:w' };

  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/security.yaml`);
    const catalog = readCatalog(project);
    envOf = (scheme) => {
      const found = catalog.securitySchemes.find((s) => s.name === scheme);
      expect(found, `scheme ${scheme} in catalog.json`).toBeDefined();
      return found!.env;
    };
    full = await connectModernStdio(project.entry, {
      API_BASE_URL: upstream.url,
      [envOf('headerKey').value!]: secrets.header,
      [envOf('queryKey').value!]: secrets.query,
      [envOf('cookieKey').value!]: secrets.cookie,
      [envOf('bearerAuth').value!]: secrets.bearer,
      [envOf('basicAuth').username!]: secrets.user,
      [envOf('basicAuth').password!]: secrets.password,
    });
    basicOnly = await connectModernStdio(project.entry, {
      API_BASE_URL: upstream.url,
      [envOf('basicAuth').username!]: secrets.user,
      [envOf('basicAuth').password!]: secrets.password,
    });
  });
  afterAll(async () => {
    await full?.close();
    await basicOnly?.close();
    project?.cleanup();
  });

  const basicHeader = `Basic ${Buffer.from('ann:p:w').toString('base64')}`;

  it('names the variables by the README rule, in catalog.json and .env.example', () => {
    const expected: Record<string, Catalog['securitySchemes'][number]['env']> = {
      headerKey: { value: `${upperSnake('headerKey')}_API_KEY` },
      queryKey: { value: `${upperSnake('queryKey')}_API_KEY` },
      cookieKey: { value: `${upperSnake('cookieKey')}_API_KEY` },
      bearerAuth: { value: `${upperSnake('bearerAuth')}_TOKEN` },
      basicAuth: { username: `${upperSnake('basicAuth')}_USERNAME`, password: `${upperSnake('basicAuth')}_PASSWORD` },
    };
    expect(expected['bearerAuth']).toEqual({ value: 'BEARER_AUTH_TOKEN' });
    const envExample = readFileSync(join(project.dir, '.env.example'), 'utf8');
    for (const [scheme, env] of Object.entries(expected)) {
      expect(envOf(scheme)).toEqual(env);
      for (const name of Object.values(env)) expect(envExample).toMatch(new RegExp(`^#? ?${name}=`, 'm'));
    }
  });

  it('global bearer requirement: Authorization: Bearer <token>, nothing else', async () => {
    const req = await callOk(full, 'usesGlobalBearer', {});
    expect(req.url).toBe('/default');
    expect(req.headers['authorization']).toBe(`Bearer ${secrets.bearer}`);
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers['cookie']).toBeUndefined();
  });

  it('security: [] sends no credentials at all', async () => {
    const req = await callOk(full, 'publicOp', {});
    expect(req.url).toBe('/public');
    expect(req.headers['authorization']).toBeUndefined();
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers['cookie']).toBeUndefined();
  });

  it('alternatives: the first satisfiable one (header key) when everything is set', async () => {
    const req = await callOk(full, 'headerKeyOrBasic', {});
    expect(req.url).toBe('/either');
    expect(req.headers['x-api-key']).toBe(secrets.header);
    expect(req.headers['authorization']).toBeUndefined();
  });

  it('alternatives: basic when only basic credentials are set', async () => {
    const req = await callOk(basicOnly, 'headerKeyOrBasic', {});
    expect(req.url).toBe('/either');
    expect(req.headers['authorization']).toBe(basicHeader);
    expect(req.headers['x-api-key']).toBeUndefined();
  });

  it('AND: header key and query key together, credentials only', async () => {
    const req = await callOk(full, 'headerAndQueryKey', {});
    expect(req.url).toBe('/both?api_key=qk-1');
    expect(req.headers['x-api-key']).toBe(secrets.header);
    expect(req.headers['authorization']).toBeUndefined();
  });

  // Credentials in the query must not re-serialize the operation's own query string (`q=a%20b`, not `q=a+b`).
  it("AND: the query key is appended without re-encoding the operation's own query parameters", async () => {
    const req = await callOk(full, 'headerAndQueryKey', { q: 'a b' });
    expect(req.url).toBe('/both?q=a%20b&api_key=qk-1');
  });

  it('cookie key: appended after the cookie parameters, value percent-encoded', async () => {
    const req = await callOk(full, 'cookieKeyOp', { lang: 'en' });
    expect(req.url).toBe('/cookie');
    expect(req.headers['cookie']).toBe('lang=en; session=ck%201%3Bx');
    expect(req.headers['authorization']).toBeUndefined();
  });

  it('missing credentials: a tool error naming the variable, and no request', async () => {
    const cases: Array<[string, string[]]> = [
      ['usesGlobalBearer', [envOf('bearerAuth').value!]],
      ['headerAndQueryKey', [envOf('headerKey').value!, envOf('queryKey').value!]],
      ['cookieKeyOp', [envOf('cookieKey').value!]],
    ];
    for (const [tool, variables] of cases) {
      const result = await call(basicOnly, tool, {});
      expect(result.isError, tool).toBe(true);
      for (const variable of variables) expect(text(result)).toContain(variable);
    }
    expect(upstream.requests).toHaveLength(0);
    // The public operation still works without any credentials.
    const req = await callOk(basicOnly, 'publicOp', {});
    expect(req.headers['authorization']).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------
// 7. recursion.yaml: recursive schemas
// ---------------------------------------------------------------------------------------------------

describe('recursion.yaml: a recursive body schema', () => {
  let project: BuiltProject;
  let client: Client;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/recursion.yaml`);
    client = await connectModernStdio(project.entry, { API_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  it('lists the node once under $defs, referring to itself', async () => {
    const { tools } = await client.listTools();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the schema is read by path in assertions
    const schema = tools.find((t) => t.name === 'createTree')!.inputSchema as Record<string, any>;
    expect(schema['properties']['body']).toEqual({ $ref: '#/$defs/TreeNode' });
    const node = schema['$defs']['TreeNode'];
    expect(node).toBeDefined();
    expect(node['properties']['children']['items']).toEqual({ $ref: '#/$defs/TreeNode' });
  });

  it('sends a three-level tree intact', async () => {
    const tree = {
      name: 'root',
      children: [
        {
          name: 'a',
          children: [
            { name: 'a1', children: [{ name: 'a1x' }] },
            { name: 'a2', children: [] },
          ],
        },
        { name: 'b' },
      ],
    };
    const req = await callOk(client, 'createTree', { body: tree });
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/trees');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.toString()).toBe(JSON.stringify(tree));
  });

  it('rejects a node without its required name at depth three, without calling upstream', async () => {
    const result = await call(client, 'createTree', {
      body: { name: 'r', children: [{ name: 'a', children: [{ children: [] }] }] },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/name/);
    expect(upstream.requests).toHaveLength(0);
  });
});

// ---------------------------------------------------------------------------------------------------
// 8. Stripe (real spec, when ../shared/specs is present)
// ---------------------------------------------------------------------------------------------------

describe.skipIf(!existsSync(STRIPE_SPEC))('Stripe: POST /v1/customers', () => {
  let project: BuiltProject;
  let client: Client;
  let tokenVariable: string;
  let toolName: string;
  beforeAll(async () => {
    project = await generateAndBuild(STRIPE_SPEC, { validate: false });
    const catalog = readCatalog(project);
    const bearer = catalog.securitySchemes.find((s) => s.kind === 'http-bearer' || s.kind === 'oauth2');
    expect(bearer, 'a bearer scheme in the Stripe catalog').toBeDefined();
    tokenVariable = bearer!.env.value!;
    toolName = catalog.tools.find((t) => t.operationId === 'PostCustomers')!.name;
    client = await connectModernStdio(project.entry, { API_BASE_URL: upstream.url, [tokenVariable]: 'sk_test_123' });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });

  it('sends the form body Stripe expects, with the bearer credential', async () => {
    expect(tokenVariable).toBe(`${upperSnake('bearerAuth')}_TOKEN`);
    const req = await callOk(client, toolName, {
      body: {
        email: 'a@b.c',
        metadata: { order_id: '6735' },
        expand: ['default_source'],
        preferred_locales: ['en', 'fr'],
      },
    });
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/v1/customers');
    expect(req.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req.headers['authorization']).toBe('Bearer sk_test_123');
    const raw = req.body.toString('utf8');
    expect(decodeURIComponent(raw)).toBe(
      'email=a@b.c&metadata[order_id]=6735&expand[]=default_source&preferred_locales[]=en&preferred_locales[]=fr',
    );
    expect(raw).toBe(
      'email=a%40b.c&metadata[order_id]=6735&expand[]=default_source&preferred_locales[]=en&preferred_locales[]=fr',
    );
    // Valid application/x-www-form-urlencoded: only safe characters and %XX triplets, one `=` per pair, and
    // a standard parser reads back exactly the intended fields.
    expect(raw).toMatch(/^[A-Za-z0-9\-._~*[\]&=+]*(?:%[0-9A-F]{2}[A-Za-z0-9\-._~*[\]&=+]*)*$/);
    for (const pair of raw.split('&')) expect(pair.split('=')).toHaveLength(2);
    expect([...new URLSearchParams(raw)]).toEqual([
      ['email', 'a@b.c'],
      ['metadata[order_id]', '6735'],
      ['expand[]', 'default_source'],
      ['preferred_locales[]', 'en'],
      ['preferred_locales[]', 'fr'],
    ]);
  });
});
