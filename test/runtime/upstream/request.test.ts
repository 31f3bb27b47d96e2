import { describe, expect, it } from 'vitest';
import type { ParamPlan, RequestPlan } from '../../../templates/runtime/contract/catalog.js';
import { RequestBuildError, assertSameOrigin, buildRequest } from '../../../templates/runtime/upstream/request.js';

const BASE = 'https://api.example.com/v1';

function param(name: string, location: ParamPlan['in'], extra: Partial<ParamPlan> = {}): ParamPlan {
  const style = location === 'path' || location === 'header' ? 'simple' : 'form';
  return { arg: name, name, in: location, style, explode: style === 'form', ...extra };
}

function plan(path: string, params: ParamPlan[] = [], extra: Partial<RequestPlan> = {}): RequestPlan {
  return { method: 'get', path, params, ...extra };
}

function buildError(fn: () => unknown): RequestBuildError {
  try {
    fn();
  } catch (error) {
    if (error instanceof RequestBuildError) return error;
    throw error;
  }
  throw new Error('expected a RequestBuildError');
}

describe('buildRequest', () => {
  it('assembles method, URL, headers and cookie', () => {
    const request = buildRequest(
      plan('/pets/{petId}/toys', [
        param('petId', 'path'),
        param('limit', 'query'),
        param('tags', 'query'),
        param('X-Request-ID', 'header', { arg: 'requestId' }),
        param('session', 'cookie'),
        param('theme', 'cookie'),
      ]),
      { petId: 42, limit: 10, tags: ['a', 'b c'], requestId: 'r-1', session: 's 1', theme: 'dark' },
      BASE,
    );
    expect(request).toEqual({
      method: 'GET',
      url: 'https://api.example.com/v1/pets/42/toys?limit=10&tags=a&tags=b%20c',
      headers: {
        accept: 'application/json, */*',
        'x-request-id': 'r-1',
        cookie: 'session=s%201; theme=dark',
      },
    });
    expect(request.body).toBeUndefined();
  });

  it('trims trailing slashes from the base URL', () => {
    expect(buildRequest(plan('/a'), {}, 'https://api.example.com/v1//').url).toBe('https://api.example.com/v1/a');
    expect(buildRequest(plan('/a'), {}, 'https://api.example.com/').url).toBe('https://api.example.com/a');
    expect(buildRequest(plan('a'), {}, 'https://api.example.com').url).toBe('https://api.example.com/a');
  });

  it('uppercases the method', () => {
    expect(buildRequest({ ...plan('/x'), method: 'patch' }, {}, BASE).method).toBe('PATCH');
  });

  it('omits missing optional arguments', () => {
    const request = buildRequest(
      plan('/x', [param('q', 'query'), param('X-Trace', 'header'), param('c', 'cookie')]),
      {},
      BASE,
    );
    expect(request.url).toBe(`${BASE}/x`);
    expect(request.headers).toEqual({ accept: 'application/json, */*' });
  });

  it('keeps a query part in the template and appends further params with &', () => {
    const p = plan('/search?type=all', [param('q', 'query')]);
    expect(buildRequest(p, { q: 'x y' }, BASE).url).toBe(`${BASE}/search?type=all&q=x%20y`);
    expect(buildRequest(p, {}, BASE).url).toBe(`${BASE}/search?type=all`);
  });

  it('serializes path styles', () => {
    const p = plan('/cars/{id}/{parts}/{color}', [
      param('id', 'path', { style: 'matrix', explode: false }),
      param('parts', 'path', { style: 'label', explode: true }),
      param('color', 'path'),
    ]);
    expect(buildRequest(p, { id: 5, parts: ['a', 'b'], color: { R: 1, G: 2 } }, BASE).url).toBe(
      `${BASE}/cars/;id=5/.a.b/R,1,G,2`,
    );
  });

  it('matches placeholders by wire name and reads the argument by arg name', () => {
    const p = plan('/users/{user-id}', [param('user-id', 'path', { arg: 'user_id' })]);
    expect(buildRequest(p, { user_id: 'u1' }, BASE).url).toBe(`${BASE}/users/u1`);
  });

  describe('path values stay in their segment', () => {
    const p = plan('/files/{name}/meta', [param('name', 'path')]);

    it.each([
      ['a/b?c#d', `${BASE}/files/a%2Fb%3Fc%23d/meta`],
      ['../x', `${BASE}/files/..%2Fx/meta`],
      ['../../admin', `${BASE}/files/..%2F..%2Fadmin/meta`],
      ['..\\admin', `${BASE}/files/..%5Cadmin/meta`],
      ['...', `${BASE}/files/.../meta`],
    ])('%j', (name, url) => {
      const built = buildRequest(p, { name }, BASE);
      expect(built.url).toBe(url);
      // What fetch will actually request: still the same endpoint.
      const parsed = new URL(built.url);
      expect(parsed.pathname.split('/')).toHaveLength(5);
      expect(parsed.pathname.startsWith('/v1/files/')).toBe(true);
      expect(parsed.pathname.endsWith('/meta')).toBe(true);
    });

    it.each(['..', '.'])('%j as a whole segment is refused (URL parsers collapse %2E%2E too)', (name) => {
      expect(new URL(`${BASE}/files/%2E%2E/meta`).pathname).toBe('/v1/meta');
      const error = buildError(() => buildRequest(p, { name }, BASE));
      expect(error.message).toBe(
        `Path argument "name" must not be "." or "..": it would change which endpoint is called.`,
      );
    });

    it('a literal "%2e%2e" value is encoded to %252e%252e and harmless', () => {
      expect(buildRequest(p, { name: '%2e%2e' }, BASE).url).toBe(`${BASE}/files/%252e%252e/meta`);
    });

    it('a label value of "." cannot form a dot-segment either', () => {
      const label = plan('/x/{v}/y', [param('v', 'path', { style: 'label', explode: false })]);
      expect(() => buildRequest(label, { v: '.' }, BASE)).toThrow(RequestBuildError);
      expect(() => buildRequest(label, { v: '' }, BASE)).toThrow(RequestBuildError);
      expect(buildRequest(label, { v: 'a' }, BASE).url).toBe(`${BASE}/x/.a/y`);
    });

    it('an empty path value is refused, as it would address another endpoint', () => {
      const error = buildError(() => buildRequest(plan('/users/{id}', [param('id', 'path')]), { id: '' }, BASE));
      expect(error.message).toBe('Path argument "id" must not be empty.');
    });

    it('two placeholders in one segment', () => {
      const twin = plan('/r/{a}.{b}', [param('a', 'path'), param('b', 'path')]);
      expect(buildRequest(twin, { a: 'x', b: 'json' }, BASE).url).toBe(`${BASE}/r/x.json`);
      expect(buildRequest(twin, { a: '.', b: '.' }, BASE).url).toBe(`${BASE}/r/%2E.%2E`);
      // `%2E.` is a double-dot segment to a URL parser.
      expect(buildError(() => buildRequest(twin, { a: '.', b: '' }, BASE)).message).toContain('"a", "b"');
    });
  });

  it('throws RequestBuildError naming a missing path argument', () => {
    const p = plan('/pets/{petId}', [param('petId', 'path', { arg: 'pet_id' })]);
    const error = buildError(() => buildRequest(p, {}, BASE));
    expect(error).toBeInstanceOf(RequestBuildError);
    expect(error.name).toBe('RequestBuildError');
    expect(error.message).toBe('Missing required path argument "pet_id".');
    expect(() => buildRequest(p, { pet_id: null }, BASE)).toThrow('Missing required path argument "pet_id".');
  });

  it('throws RequestBuildError for a placeholder without a path parameter', () => {
    const p = plan('/pets/{petId}', [param('petId', 'query')]);
    expect(() => buildRequest(p, { petId: 1 }, BASE)).toThrow(/placeholder \{petId\} without a path parameter/);
  });

  it('refuses an invalid or non-http base URL', () => {
    expect(() => buildRequest(plan('/x'), {}, 'not a url')).toThrow(RequestBuildError);
    expect(() => buildRequest(plan('/x'), {}, 'file:///etc')).toThrow(/only http and https/);
  });

  describe('origin assertion', () => {
    it('throws when a URL leaves the base origin', () => {
      expect(() => assertSameOrigin('https://evil.example/x', BASE)).toThrow(RequestBuildError);
      expect(() => assertSameOrigin('https://api.example.com@evil.example/x', BASE)).toThrow(
        /would leave the API's origin/,
      );
      expect(() => assertSameOrigin('http://api.example.com/v1/x', BASE)).toThrow(RequestBuildError);
      expect(() => assertSameOrigin('https://api.example.com:8443/v1/x', BASE)).toThrow(RequestBuildError);
      expect(() => assertSameOrigin('https://api.example.com/other', BASE)).not.toThrow();
    });

    it.each(['@evil.example/x', '//evil.example/x', '\\\\evil.example/x', '.evil.example/x', 'https://evil.example/'])(
      'a hostile template %j stays on the base origin',
      (path) => {
        const built = buildRequest(plan(path), {}, 'https://api.example.com');
        expect(new URL(built.url).origin).toBe('https://api.example.com');
      },
    );

    it('hostile values stay on the base origin', () => {
      const p = plan('{host}/x', [param('host', 'path')]);
      for (const host of ['@evil.example', '//evil.example', 'evil.example:80@x', '\\evil.example']) {
        expect(new URL(buildRequest(p, { host }, 'https://api.example.com').url).origin).toBe(
          'https://api.example.com',
        );
      }
    });
  });

  describe('headers', () => {
    it('lowercases names and serializes simple style', () => {
      const request = buildRequest(
        plan('/x', [param('X-Ids', 'header'), param('X-Obj', 'header', { explode: true })]),
        { 'X-Ids': [1, 2], 'X-Obj': { a: 1, b: 2 } },
        BASE,
      );
      expect(request.headers).toEqual({ accept: 'application/json, */*', 'x-ids': '1,2', 'x-obj': 'a=1,b=2' });
    });

    it('CRLF in a header value cannot add a header', () => {
      const request = buildRequest(plan('/x', [param('X-Note', 'header')]), { 'X-Note': 'hi\r\nX-Admin: true' }, BASE);
      expect(request.headers['x-note']).toBe('hi%0D%0AX-Admin: true');
      expect(Object.keys(request.headers)).toEqual(['accept', 'x-note']);
      expect(() => new Headers(request.headers)).not.toThrow();
    });

    it('uses plan.accept when given; a header param may override it (the plan decides)', () => {
      expect(buildRequest(plan('/x', [], { accept: 'image/png' }), {}, BASE).headers.accept).toBe('image/png');
      const overriding = plan('/x', [param('Accept', 'header')]);
      expect(buildRequest(overriding, { Accept: 'text/csv' }, BASE).headers.accept).toBe('text/csv');
    });

    it('a Cookie header parameter and cookie parameters merge into one cookie header', () => {
      const request = buildRequest(
        plan('/x', [param('Cookie', 'header'), param('b', 'cookie')]),
        { Cookie: 'a=1', b: 'x;y' },
        BASE,
      );
      expect(request.headers.cookie).toBe('a=1; b=x%3By');
    });

    it('a header named __proto__ is an ordinary header', () => {
      const request = buildRequest(
        plan('/x', [param('__proto__', 'header')]),
        { __proto__: 'v' } as Record<string, unknown>,
        BASE,
      );
      expect(Object.getPrototypeOf(request.headers)).toBe(Object.prototype);
    });
  });

  describe('bodies', () => {
    const body = (extra: Partial<NonNullable<RequestPlan['body']>> = {}): NonNullable<RequestPlan['body']> => ({
      arg: 'body',
      mediaType: 'application/json',
      kind: 'json',
      required: false,
      ...extra,
    });

    it('JSON body with content-type', () => {
      const request = buildRequest(plan('/x', [], { method: 'post', body: body() }), { body: { a: 1 } }, BASE);
      expect(request.body).toBe('{"a":1}');
      expect(request.headers['content-type']).toBe('application/json');
    });

    it('no body argument and not required: no body, no content-type', () => {
      const request = buildRequest(plan('/x', [], { method: 'post', body: body() }), {}, BASE);
      expect(request.body).toBeUndefined();
      expect(request.headers['content-type']).toBeUndefined();
      expect('body' in request).toBe(false);
    });

    it('a missing required body throws', () => {
      expect(() => buildRequest(plan('/x', [], { method: 'post', body: body({ required: true }) }), {}, BASE)).toThrow(
        'Missing required request body argument "body".',
      );
    });

    it('form body', () => {
      const request = buildRequest(
        plan('/v1/customers', [], {
          method: 'post',
          body: body({ kind: 'form', mediaType: 'application/x-www-form-urlencoded' }),
        }),
        { body: { metadata: { order_id: '6735' }, expand: ['customer', 'invoice'], items: [{ price: 'p_1' }] } },
        'https://api.stripe.com',
      );
      expect(request).toEqual({
        method: 'POST',
        url: 'https://api.stripe.com/v1/customers',
        headers: { accept: 'application/json, */*', 'content-type': 'application/x-www-form-urlencoded' },
        body: 'metadata[order_id]=6735&expand[]=customer&expand[]=invoice&items[0][price]=p_1',
      });
    });

    it('the body content-type wins over a content-type header param, multipart with its boundary', () => {
      const params = [param('Content-Type', 'header')];
      const json = buildRequest(
        plan('/x', params, { method: 'post', body: body() }),
        { body: 1, 'Content-Type': 'text/plain' },
        BASE,
      );
      expect(json.headers['content-type']).toBe('application/json');
      const multipart = buildRequest(
        plan('/x', params, { method: 'post', body: body({ kind: 'multipart', mediaType: 'multipart/form-data' }) }),
        { body: { a: 'b' }, 'Content-Type': 'multipart/form-data' },
        BASE,
      );
      expect(multipart.body).toBeInstanceOf(Uint8Array);
      expect(multipart.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    });

    it('binary body', () => {
      const request = buildRequest(
        plan('/upload', [], { method: 'put', body: body({ kind: 'binary', mediaType: 'application/octet-stream' }) }),
        { body: { base64: 'AAEC' } },
        BASE,
      );
      expect([...(request.body as Uint8Array)]).toEqual([0, 1, 2]);
      expect(request.headers['content-type']).toBe('application/octet-stream');
    });
  });
});

describe('content type required without a body', () => {
  it('sends the declared media type when the optional body is left out', () => {
    const built = buildRequest(
      {
        method: 'POST',
        path: '/a',
        params: [],
        body: { arg: 'body', mediaType: 'application/json', kind: 'json', required: false, contentTypeRequired: true },
      },
      {},
      'http://127.0.0.1:1',
    );
    expect(built.body).toBeUndefined();
    expect(built.headers['content-type']).toBe('application/json');
  });
});
