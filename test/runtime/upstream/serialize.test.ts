import { describe, expect, it } from 'vitest';
import type { ParamLocation, ParamPlan, ParamStyle } from '../../../templates/runtime/contract/catalog.js';
import {
  encodeAllowingReserved,
  encodePathValue,
  encodeQueryKey,
  encodeRfc3986,
  flattenBracketed,
  joinCookiePairs,
  joinPairs,
  sanitizeHeaderValue,
  serializeCookieParam,
  serializeHeaderParam,
  serializePathParam,
  serializeQueryParam,
} from '../../../templates/runtime/upstream/serialize.js';

function plan(location: ParamLocation, style: ParamStyle, explode: boolean, extra: Partial<ParamPlan> = {}): ParamPlan {
  return { arg: 'color', name: 'color', in: location, style, explode, ...extra };
}

// The values of the OpenAPI 3.1 "Style Examples" table.
const STRING = 'blue';
const ARRAY = ['blue', 'black', 'brown'];
const OBJECT = { R: 100, G: 200, B: 150 };

type Row = [style: ParamStyle, explode: boolean, primitive: string | null, array: string | null, object: string | null];

const query = (p: ParamPlan, value: unknown): string => joinPairs(serializeQueryParam(p, value));
const cookie = (p: ParamPlan, value: unknown): string => joinCookiePairs(serializeCookieParam(p, value));

describe('path parameters: OpenAPI style examples table', () => {
  const rows: Row[] = [
    ['simple', false, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    ['simple', true, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
    ['label', false, '.blue', '.blue,black,brown', '.R,100,G,200,B,150'],
    ['label', true, '.blue', '.blue.black.brown', '.R=100.G=200.B=150'],
    ['matrix', false, ';color=blue', ';color=blue,black,brown', ';color=R,100,G,200,B,150'],
    ['matrix', true, ';color=blue', ';color=blue;color=black;color=brown', ';R=100;G=200;B=150'],
  ];
  describe.each(rows)('%s explode=%s', (style, explode, primitive, array, object) => {
    const p = plan('path', style, explode);
    it('primitive', () => expect(serializePathParam(p, STRING)).toBe(primitive));
    it('array', () => expect(serializePathParam(p, ARRAY)).toBe(array));
    it('object', () => expect(serializePathParam(p, OBJECT)).toBe(object));
  });

  it.each([
    ['label', false, '.'],
    ['label', true, '.'],
    ['matrix', false, ';color'],
    ['matrix', true, ';color'],
    ['simple', false, ''],
  ] as const)('empty string with %s explode=%s is %j', (style, explode, expected) => {
    expect(serializePathParam(plan('path', style, explode), '')).toBe(expected);
  });
});

describe('query parameters: OpenAPI style examples table', () => {
  const rows: Row[] = [
    ['form', false, 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    ['form', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    ['spaceDelimited', false, 'color=blue', 'color=blue%20black%20brown', 'color=R%20100%20G%20200%20B%20150'],
    ['spaceDelimited', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    ['pipeDelimited', false, 'color=blue', 'color=blue|black|brown', 'color=R|100|G|200|B|150'],
    ['pipeDelimited', true, 'color=blue', 'color=blue&color=black&color=brown', 'R=100&G=200&B=150'],
    ['tabDelimited', false, 'color=blue', 'color=blue%09black%09brown', 'color=R%09100%09G%09200%09B%09150'],
    [
      'deepObject',
      true,
      'color=blue',
      'color[]=blue&color[]=black&color[]=brown',
      'color[R]=100&color[G]=200&color[B]=150',
    ],
  ];
  describe.each(rows)('%s explode=%s', (style, explode, primitive, array, object) => {
    const p = plan('query', style, explode);
    it('primitive', () => expect(query(p, STRING)).toBe(primitive));
    it('array', () => expect(query(p, ARRAY)).toBe(array));
    it('object', () => expect(query(p, OBJECT)).toBe(object));
  });

  it('form with an empty string is `color=`', () => {
    expect(query(plan('query', 'form', true), '')).toBe('color=');
    expect(query(plan('query', 'form', false), '')).toBe('color=');
  });

  it('spec table spelling of pipeDelimited: `a=1|2`', () => {
    expect(query({ ...plan('query', 'pipeDelimited', false), name: 'a' }, [1, 2])).toBe('a=1|2');
  });

  it('tabDelimited: `a=1%092`', () => {
    expect(query({ ...plan('query', 'tabDelimited', false), name: 'a' }, [1, 2])).toBe('a=1%092');
  });

  it('path styles used in a query fall back to form', () => {
    expect(query(plan('query', 'simple', false), ARRAY)).toBe('color=blue,black,brown');
  });
});

describe('query parameter values', () => {
  const form = plan('query', 'form', true);

  it('booleans, numbers and null', () => {
    expect(query(form, true)).toBe('color=true');
    expect(query(form, false)).toBe('color=false');
    expect(query(form, 0)).toBe('color=0');
    expect(query(form, 1.5)).toBe('color=1.5');
    expect(query(form, -2e21)).toBe('color=-2000000000000000000000');
    expect(query(form, null)).toBe('color=');
  });

  it('undefined omits the parameter', () => {
    expect(serializeQueryParam(form, undefined)).toEqual([]);
  });

  it('empty arrays and objects are omitted (RFC 6570: undefined)', () => {
    expect(serializeQueryParam(form, [])).toEqual([]);
    expect(serializeQueryParam(plan('query', 'form', false), [])).toEqual([]);
    expect(serializeQueryParam(form, {})).toEqual([]);
    expect(serializeQueryParam(plan('query', 'deepObject', true), {})).toEqual([]);
  });

  it('percent-encodes values with RFC 3986 unreserved-only output', () => {
    expect(query(form, "a b&c=d#e+f/g?h!'()*é")).toBe('color=a%20b%26c%3Dd%23e%2Bf%2Fg%3Fh%21%27%28%29%2A%C3%A9');
  });

  it('delimiters inside items are encoded, the delimiters themselves are not', () => {
    expect(query(plan('query', 'form', false), ['a,b', 'c'])).toBe('color=a%2Cb,c');
    expect(query(plan('query', 'pipeDelimited', false), ['a|b', 'c'])).toBe('color=a%7Cb|c');
  });

  it('percent-encodes keys, keeping brackets literal', () => {
    expect(query({ ...form, name: 'filter[status]' }, 'open')).toBe('filter[status]=open');
    expect(query({ ...form, name: 'a b&c' }, 'x')).toBe('a%20b%26c=x');
    expect(query(form, { 'k y': 'v' })).toBe('k%20y=v');
  });

  it('nested values inside form arrays are sent as JSON', () => {
    expect(query(form, [{ a: 1 }])).toBe('color=%7B%22a%22%3A1%7D');
  });

  it('deepObject: nested objects, arrays of scalars with [], arrays of objects indexed, null, undefined', () => {
    const deep = { ...plan('query', 'deepObject', true), name: 'filter' };
    expect(
      query(deep, {
        status: 'open',
        owner: { id: 7, team: { name: 'core' } },
        tags: ['a', 'b c'],
        lines: [{ sku: 'x' }, { sku: 'y' }],
        archived: null,
        skipped: undefined,
      }),
    ).toBe(
      'filter[status]=open&filter[owner][id]=7&filter[owner][team][name]=core&filter[tags][]=a&filter[tags][]=b%20c' +
        '&filter[lines][0][sku]=x&filter[lines][1][sku]=y&filter[archived]=',
    );
  });

  it('deepObject encodes brackets inside keys so they cannot fake nesting', () => {
    expect(query(plan('query', 'deepObject', true), { 'a][b': 1 })).toBe('color[a%5D%5Bb]=1');
  });

  describe('allowReserved', () => {
    const reserved = plan('query', 'form', true, { allowReserved: true });

    it('leaves reserved characters unencoded', () => {
      expect(query(reserved, "https://x.example/a?b=c&d=e;f,g+h@i!$'()*[]")).toBe(
        "color=https://x.example/a?b=c&d=e;f,g+h@i!$'()*[]",
      );
    });

    it('still encodes what may not appear in a URL, and `#`', () => {
      expect(query(reserved, 'a b"<>\\^`{|}é\u0001#x')).toBe('color=a%20b%22%3C%3E%5C%5E%60%7B%7C%7D%C3%A9%01%23x');
    });

    it('keeps existing percent-encoded triplets, encodes a stray %', () => {
      expect(query(reserved, '%41%2f 100% %zz')).toBe('color=%41%2f%20100%25%20%25zz');
    });

    it('does not apply to keys', () => {
      expect(query({ ...reserved, name: 'a/b' }, 'c/d')).toBe('a%2Fb=c/d');
    });
  });

  it('a content (JSON) parameter is JSON.stringify-ed then encoded like a string', () => {
    const content = plan('query', 'form', true, { name: 'filter', contentType: 'application/json' });
    expect(query(content, { a: 1, b: ['x y'] })).toBe('filter=%7B%22a%22%3A1%2C%22b%22%3A%5B%22x%20y%22%5D%7D');
  });
});

describe('numbers are written in plain decimal digits, never in exponent form', () => {
  it('an integer of 1e21 or more goes as the integer it is, in a path, a query and a header', () => {
    const id = plan('path', 'simple', false, { arg: 'id', name: 'id' });
    expect(serializePathParam(id, 1e21)).toBe('1000000000000000000000');
    expect(serializePathParam(id, 1.2345e25)).toBe('12345000000000000000000000');
    expect(query(plan('query', 'form', true), [1e21, 7])).toBe('color=1000000000000000000000&color=7');
    expect(serializeHeaderParam(plan('header', 'simple', false), -3e22)).toBe('-30000000000000000000000');
  });

  it('small fractions keep their digits, and ordinary numbers are unchanged', () => {
    expect(serializePathParam(plan('path', 'simple', false), 1.5e-7)).toBe('0.00000015');
    expect(serializePathParam(plan('path', 'simple', false), 123.25)).toBe('123.25');
    expect(serializePathParam(plan('path', 'simple', false), 2 ** 53)).toBe('9007199254740992');
  });
});

describe('path parameter values stay one segment', () => {
  const simple = plan('path', 'simple', false);

  it.each([
    ['a/b?c#d', 'a%2Fb%3Fc%23d'],
    ['..', '%2E%2E'],
    ['.', '%2E'],
    ['../x', '..%2Fx'],
    ['..\\x', '..%5Cx'],
    ['a b;c=d', 'a%20b%3Bc%3Dd'],
    ["!'()*", '%21%27%28%29%2A'],
    ['v1.2-x_y~z', 'v1.2-x_y~z'],
    ['日本', '%E6%97%A5%E6%9C%AC'],
  ])('%j → %j', (value, expected) => {
    expect(serializePathParam(simple, value)).toBe(expected);
  });

  it('array items and object keys are encoded the same way', () => {
    expect(serializePathParam(simple, ['a/b', '..'])).toBe('a%2Fb,%2E%2E');
    expect(serializePathParam(plan('path', 'matrix', true), { '../k': 'v/w' })).toBe(';..%2Fk=v%2Fw');
    expect(serializePathParam(plan('path', 'label', false), 'a.b/c')).toBe('.a.b%2Fc');
  });

  it('numbers and booleans', () => {
    expect(serializePathParam(simple, 5)).toBe('5');
    expect(serializePathParam(simple, false)).toBe('false');
    expect(serializePathParam(plan('path', 'matrix', false, { name: 'id' }), 5)).toBe(';id=5');
  });

  it('a content (JSON) path parameter', () => {
    expect(serializePathParam(plan('path', 'simple', false, { contentType: 'application/json' }), { a: '/' })).toBe(
      '%7B%22a%22%3A%22%2F%22%7D',
    );
  });

  it('lone surrogates do not throw', () => {
    expect(serializePathParam(simple, 'a\uD800b')).toBe('a%EF%BF%BDb');
  });
});

describe('header parameters: simple style', () => {
  it.each([
    [false, 'blue', 'blue,black,brown', 'R,100,G,200,B,150'],
    [true, 'blue', 'blue,black,brown', 'R=100,G=200,B=150'],
  ] as const)('explode=%s', (explode, primitive, array, object) => {
    const p = plan('header', 'simple', explode);
    expect(serializeHeaderParam(p, STRING)).toBe(primitive);
    expect(serializeHeaderParam(p, ARRAY)).toBe(array);
    expect(serializeHeaderParam(p, OBJECT)).toBe(object);
  });

  it('values are not percent-encoded otherwise', () => {
    expect(serializeHeaderParam(plan('header', 'simple', false), 'a b/c;d=e%41')).toBe('a b/c;d=e%41');
  });

  it('CR, LF and NUL are percent-encoded so a value cannot add a header', () => {
    const p = plan('header', 'simple', false);
    expect(serializeHeaderParam(p, 'x\r\nSet-Cookie: a=b')).toBe('x%0D%0ASet-Cookie: a=b');
    expect(serializeHeaderParam(p, 'a\nb\rc\0d')).toBe('a%0Ab%0Dc%00d');
    expect(serializeHeaderParam(p, ['ok', 'evil\r\nX-Admin: 1'])).toBe('ok,evil%0D%0AX-Admin: 1');
  });

  it('other characters fetch would refuse are encoded too; tab and Latin-1 pass', () => {
    expect(sanitizeHeaderValue('a\u0001b\u007fc\td\u00e9e\u2603')).toBe('a%01b%7Fc\td\u00e9e%E2%98%83');
  });

  it('undefined, empty arrays and empty objects mean no header; null is an empty value', () => {
    const p = plan('header', 'simple', false);
    expect(serializeHeaderParam(p, undefined)).toBeUndefined();
    expect(serializeHeaderParam(p, [])).toBeUndefined();
    expect(serializeHeaderParam(p, {})).toBeUndefined();
    expect(serializeHeaderParam(p, null)).toBe('');
    expect(serializeHeaderParam(p, true)).toBe('true');
  });

  it('a content (JSON) header', () => {
    const p = plan('header', 'simple', false, { contentType: 'application/json' });
    expect(serializeHeaderParam(p, { a: 'x\ny' })).toBe('{"a":"x\\ny"}');
  });
});

describe('cookie parameters: form style', () => {
  it.each([
    [false, 'color=blue', 'color=blue,black,brown', 'color=R,100,G,200,B,150'],
    [true, 'color=blue', 'color=blue; color=black; color=brown', 'R=100; G=200; B=150'],
  ] as const)('explode=%s', (explode, primitive, array, object) => {
    const p = plan('cookie', 'form', explode);
    expect(cookie(p, STRING)).toBe(primitive);
    expect(cookie(p, ARRAY)).toBe(array);
    expect(cookie(p, OBJECT)).toBe(object);
  });

  it('several cookie parameters join into one header value', () => {
    const pairs = [
      ...serializeCookieParam({ ...plan('cookie', 'form', true), name: 'a' }, 1),
      ...serializeCookieParam({ ...plan('cookie', 'form', true), name: 'b' }, 2),
    ];
    expect(joinCookiePairs(pairs)).toBe('a=1; b=2');
  });

  it('`;`, `,`, `=`, spaces and CRLF cannot break out of a value', () => {
    expect(cookie(plan('cookie', 'form', true), 'x; admin=1, y\r\n')).toBe('color=x%3B%20admin%3D1%2C%20y%0D%0A');
  });

  it('null is empty, undefined is omitted', () => {
    expect(cookie(plan('cookie', 'form', true), null)).toBe('color=');
    expect(serializeCookieParam(plan('cookie', 'form', true), undefined)).toEqual([]);
  });

  it('a content (JSON) cookie', () => {
    expect(cookie(plan('cookie', 'form', true, { contentType: 'application/json' }), { a: 1 })).toBe(
      'color=%7B%22a%22%3A1%7D',
    );
  });
});

describe('encoders', () => {
  it("encodeRfc3986 encodes !'()* on top of encodeURIComponent", () => {
    expect(encodeRfc3986("a-b_c.d~e!f'g(h)i*j")).toBe('a-b_c.d~e%21f%27g%28h%29i%2Aj');
  });

  it('encodePathValue only special-cases whole dot values', () => {
    expect(encodePathValue('...')).toBe('...');
    expect(encodePathValue('a..')).toBe('a..');
  });

  it('encodeQueryKey', () => {
    expect(encodeQueryKey('page[size]')).toBe('page[size]');
    expect(encodeQueryKey('a=b')).toBe('a%3Db');
  });

  it('encodeAllowingReserved', () => {
    expect(encodeAllowingReserved(':/?#[]@')).toBe(':/?%23[]@');
  });

  it('flattenBracketed: arrays of arrays are indexed, undefined and empty containers vanish', () => {
    expect(joinPairs(flattenBracketed('m', { a: [[1, 2], [3]], b: undefined, c: [], d: {} }, encodeRfc3986))).toBe(
      'm[a][0][]=1&m[a][0][]=2&m[a][1][]=3',
    );
  });
});
