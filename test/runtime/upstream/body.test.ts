import { describe, expect, it } from 'vitest';
import type { BodyPlan } from '../../../templates/runtime/contract/catalog.js';
import { asFileInput, encodeBody, type EncodedBody } from '../../../templates/runtime/upstream/body.js';
import { RequestBuildError } from '../../../templates/runtime/upstream/serialize.js';

function plan(kind: BodyPlan['kind'], mediaType: string, extra: Partial<BodyPlan> = {}): BodyPlan {
  return { arg: 'body', kind, mediaType, required: true, ...extra };
}

const PNG_BYTES = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff];
const PNG_BASE64 = Buffer.from(PNG_BYTES).toString('base64');

/** Parses an encoded multipart body back, as a server would see it. */
async function roundTrip(encoded: EncodedBody): Promise<FormData> {
  return new Request('http://localhost/', {
    method: 'POST',
    body: encoded.body,
    headers: { 'content-type': encoded.contentType ?? '' },
  }).formData();
}

async function blobBytes(value: unknown): Promise<number[]> {
  if (!(value instanceof Blob)) throw new Error(`expected a Blob, got ${String(value)}`);
  return [...new Uint8Array(await value.arrayBuffer())];
}

describe('json bodies', () => {
  it('JSON.stringify with the declared media type', () => {
    expect(encodeBody(plan('json', 'application/json'), { a: 1, b: [true, null] })).toEqual({
      body: '{"a":1,"b":[true,null]}',
      contentType: 'application/json',
    });
  });

  it('keeps vendor +json types and parameters as given', () => {
    expect(encodeBody(plan('json', 'application/vnd.api+json'), {}).contentType).toBe('application/vnd.api+json');
    expect(encodeBody(plan('json', 'application/merge-patch+json; charset=utf-8'), {}).contentType).toBe(
      'application/merge-patch+json; charset=utf-8',
    );
  });

  it('wildcards become application/json', () => {
    expect(encodeBody(plan('json', '*/*'), 1).contentType).toBe('application/json');
    expect(encodeBody(plan('json', 'application/*'), 1).contentType).toBe('application/json');
  });

  it('scalars, arrays and null', () => {
    expect(encodeBody(plan('json', 'application/json'), 'x').body).toBe('"x"');
    expect(encodeBody(plan('json', 'application/json'), [1]).body).toBe('[1]');
    expect(encodeBody(plan('json', 'application/json'), null).body).toBe('null');
  });
});

describe('form bodies (application/x-www-form-urlencoded)', () => {
  const form = plan('form', 'application/x-www-form-urlencoded');

  it("Stripe's convention", () => {
    const encoded = encodeBody(form, {
      metadata: { order_id: '6735' },
      expand: ['customer', 'invoice'],
      items: [{ price: 'p_1' }],
    });
    expect(encoded).toEqual({
      body: 'metadata[order_id]=6735&expand[]=customer&expand[]=invoice&items[0][price]=p_1',
      contentType: 'application/x-www-form-urlencoded',
    });
  });

  it('deeper nesting, booleans, numbers, null, undefined', () => {
    const body = encodeBody(form, {
      a: { b: { c: 'v' } },
      items: [{ price: 'p_1', quantity: 2, tax_rates: ['t1', 't2'] }, { price: 'p_2' }],
      live: true,
      off: false,
      description: null,
      skipped: undefined,
      nested: { gone: undefined, kept: 0 },
    }).body;
    expect(body).toBe(
      'a[b][c]=v&items[0][price]=p_1&items[0][quantity]=2&items[0][tax_rates][]=t1&items[0][tax_rates][]=t2' +
        '&items[1][price]=p_2&live=true&off=false&description=&nested[kept]=0',
    );
  });

  it('spaces are %20, reserved characters are encoded', () => {
    expect(encodeBody(form, { name: 'Jane Doe & co', 'k y': 'a=b+c' }).body).toBe(
      'name=Jane%20Doe%20%26%20co&k%20y=a%3Db%2Bc',
    );
  });

  it('encoding: style form with explode true / false for a top-level array', () => {
    const exploded = plan('form', 'application/x-www-form-urlencoded', {
      encoding: { ids: { style: 'form', explode: true } },
    });
    expect(encodeBody(exploded, { ids: [1, 2], other: ['x'] }).body).toBe('ids=1&ids=2&other[]=x');
    const joined = plan('form', 'application/x-www-form-urlencoded', { encoding: { ids: { explode: false } } });
    expect(encodeBody(joined, { ids: [1, 2] }).body).toBe('ids=1,2');
    const piped = plan('form', 'application/x-www-form-urlencoded', {
      encoding: { ids: { style: 'pipeDelimited', explode: false } },
    });
    expect(encodeBody(piped, { ids: [1, 2] }).body).toBe('ids=1|2');
  });

  it('encoding: contentType application/json JSON-encodes that property', () => {
    const withJson = plan('form', 'application/x-www-form-urlencoded', {
      encoding: { meta: { contentType: 'application/json' } },
    });
    expect(encodeBody(withJson, { meta: { a: [1, 'b c'] }, name: 'x' }).body).toBe(
      'meta=%7B%22a%22%3A%5B1%2C%22b%20c%22%5D%7D&name=x',
    );
  });

  it('a string is taken as an already-encoded body', () => {
    expect(encodeBody(form, 'a=1&b=2').body).toBe('a=1&b=2');
  });

  it('rejects arrays and scalars', () => {
    expect(() => encodeBody(form, [1])).toThrow(RequestBuildError);
    expect(() => encodeBody(form, 5)).toThrow(/form body must be an object/);
  });

  it('a wildcard media type becomes application/x-www-form-urlencoded; a charset is kept', () => {
    expect(encodeBody(plan('form', '*/*'), {}).contentType).toBe('application/x-www-form-urlencoded');
    expect(encodeBody(plan('form', 'application/x-www-form-urlencoded; charset=utf-8'), {}).contentType).toBe(
      'application/x-www-form-urlencoded; charset=utf-8',
    );
  });
});

describe('multipart bodies', () => {
  const multipart = plan('multipart', 'multipart/form-data', { fileFields: ['file'] });

  it('returns bytes and a Content-Type carrying the boundary', () => {
    const encoded = encodeBody(multipart, { name: 'x' });
    expect(encoded.body).toBeInstanceOf(Uint8Array);
    expect(encoded.contentType).toMatch(/^multipart\/form-data; boundary=----openapi-to-mcp-[0-9a-f]{24}$/);
  });

  it('a JSON part is a field, not a file: no filename', () => {
    const encoded = encodeBody(multipart, { meta: { tag: 'x' } });
    const text = Buffer.from(encoded.body as Uint8Array).toString('utf8');
    expect(text).toContain(
      'Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"tag":"x"}',
    );
    expect(text).not.toContain('filename');
  });

  it('a base64 file becomes a Blob with its bytes, filename and type, surviving the wire', async () => {
    const encoded = encodeBody(multipart, {
      file: { base64: PNG_BASE64, filename: 'pixel.png', contentType: 'image/png' },
      purpose: 'avatar',
    });
    const parsed = await roundTrip(encoded);
    const file = parsed.get('file');
    expect(file).toBeInstanceOf(File);
    expect((file as File).name).toBe('pixel.png');
    expect((file as File).type).toBe('image/png');
    expect(await blobBytes(file)).toEqual(PNG_BYTES);
    expect(parsed.get('purpose')).toBe('avatar');
  });

  it('file defaults: filename `file`, type application/octet-stream', async () => {
    const parsed = await roundTrip(encodeBody(multipart, { file: { base64: PNG_BASE64 } }));
    const file = parsed.get('file') as File;
    expect(file.name).toBe('file');
    expect(file.type).toBe('application/octet-stream');
  });

  it('a file field takes its default type from encoding.contentType when concrete', async () => {
    const withType = plan('multipart', 'multipart/form-data', {
      fileFields: ['img', 'any'],
      encoding: { img: { contentType: 'image/png' }, any: { contentType: 'image/*' } },
    });
    const parsed = await roundTrip(encodeBody(withType, { img: { base64: PNG_BASE64 }, any: { base64: PNG_BASE64 } }));
    expect((parsed.get('img') as File).type).toBe('image/png');
    expect((parsed.get('any') as File).type).toBe('application/octet-stream');
  });

  it('a scalar part carries the encoding contentType when concrete, none (text/plain) otherwise', () => {
    const typed = plan('multipart', 'multipart/form-data', {
      encoding: { footer: { contentType: 'text/markdown' }, note: { contentType: 'text/*' } },
    });
    const raw = Buffer.from(encodeBody(typed, { footer: '**bye**', note: 'n', plain: 1 }).body).toString('utf8');
    expect(raw).toContain('name="footer"\r\nContent-Type: text/markdown\r\n\r\n**bye**\r\n');
    expect(raw).toContain('name="note"\r\n\r\nn\r\n');
    expect(raw).toContain('name="plain"\r\n\r\n1\r\n');
  });

  it('file-shaped values are files even outside fileFields; { text } is UTF-8', async () => {
    const parsed = await roundTrip(
      encodeBody(plan('multipart', 'multipart/form-data'), {
        notes: { text: 'héllo', filename: 'notes.txt', contentType: 'text/plain' },
      }),
    );
    const notes = parsed.get('notes') as File;
    expect(notes.name).toBe('notes.txt');
    expect(notes.type).toBe('text/plain');
    expect(await notes.text()).toBe('héllo');
  });

  it('a plain string in a file field is the file text', async () => {
    const parsed = await roundTrip(encodeBody(multipart, { file: 'a,b\n1,2' }));
    expect(await (parsed.get('file') as File).text()).toBe('a,b\n1,2');
  });

  it('data URL base64 is accepted and gives the type', async () => {
    const parsed = await roundTrip(encodeBody(multipart, { file: { base64: `data:image/png;base64,${PNG_BASE64}` } }));
    const file = parsed.get('file') as File;
    expect(file.type).toBe('image/png');
    expect(await blobBytes(file)).toEqual(PNG_BYTES);
  });

  it('scalars are strings; objects are JSON parts; arrays are one part per element', async () => {
    const form = encodeBody(plan('multipart', 'multipart/form-data', { fileFields: ['attachments'] }), {
      count: 3,
      flag: false,
      empty: null,
      skipped: undefined,
      meta: { a: [1, 2] },
      tags: ['x', 'y'],
      attachments: [
        { base64: PNG_BASE64, filename: 'a.png' },
        { text: 'b', filename: 'b.txt' },
      ],
    });
    const parsed = await roundTrip(form);
    expect(parsed.get('count')).toBe('3');
    expect(parsed.get('flag')).toBe('false');
    expect(parsed.get('empty')).toBe('');
    expect(parsed.has('skipped')).toBe(false);
    // A JSON part has no filename, so a server reads it as a field (its Content-Type says JSON).
    expect(JSON.parse(parsed.get('meta') as string)).toEqual({ a: [1, 2] });
    expect(parsed.getAll('tags')).toEqual(['x', 'y']);
    const attachments = parsed.getAll('attachments') as File[];
    expect(attachments.map((file) => file.name)).toEqual(['a.png', 'b.txt']);
    expect(await blobBytes(attachments[0] ?? null)).toEqual(PNG_BYTES);
  });

  it('encoding.contentType application/json sends a whole array as one JSON part', async () => {
    const withJson = plan('multipart', 'multipart/form-data', {
      encoding: { ids: { contentType: 'application/json' } },
    });
    const parsed = await roundTrip(encodeBody(withJson, { ids: [1, 2] }));
    const ids = parsed.getAll('ids');
    expect(ids).toHaveLength(1);
    expect(ids[0]).toBe('[1,2]');
  });

  it('invalid base64 is refused', () => {
    expect(() => encodeBody(multipart, { file: { base64: 'not base64!!' } })).toThrow(/"file" is not valid base64/);
  });

  it('rejects a non-object body', () => {
    expect(() => encodeBody(multipart, 'x')).toThrow(RequestBuildError);
  });
});

describe('binary bodies', () => {
  const binary = plan('binary', 'image/png');

  it('{ base64 } → bytes', () => {
    const encoded = encodeBody(binary, { base64: PNG_BASE64 });
    expect(encoded.body).toBeInstanceOf(Uint8Array);
    expect([...(encoded.body as Uint8Array)]).toEqual(PNG_BYTES);
    expect(encoded.contentType).toBe('image/png');
  });

  it('url-safe base64 and whitespace are accepted', () => {
    const bytes = [0xfb, 0xff, 0xfe];
    const urlSafe = Buffer.from(bytes).toString('base64url');
    expect([...(encodeBody(binary, { base64: ` ${urlSafe}\n` }).body as Uint8Array)]).toEqual(bytes);
  });

  it('{ text } and plain strings → UTF-8 bytes', () => {
    expect([...(encodeBody(binary, { text: 'é' }).body as Uint8Array)]).toEqual([0xc3, 0xa9]);
    expect([...(encodeBody(binary, 'hi').body as Uint8Array)]).toEqual([0x68, 0x69]);
  });

  it('bytes pass through', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(encodeBody(binary, bytes).body).toBe(bytes);
  });

  it('*/* becomes application/octet-stream, unless the file names its type', () => {
    expect(encodeBody(plan('binary', '*/*'), { base64: PNG_BASE64 }).contentType).toBe('application/octet-stream');
    expect(encodeBody(plan('binary', '*/*'), { base64: PNG_BASE64, contentType: 'image/png' }).contentType).toBe(
      'image/png',
    );
    expect(encodeBody(plan('binary', 'application/octet-stream'), 'x').contentType).toBe('application/octet-stream');
  });

  it('anything else is refused', () => {
    expect(() => encodeBody(binary, { data: 'x' })).toThrow(RequestBuildError);
    expect(() => encodeBody(binary, 42)).toThrow(/binary body must be/);
  });
});

describe('base64 text bodies (format: byte)', () => {
  const octets = plan('text', 'application/octet-stream', { base64: 'base64' });

  it('are refused unless they are padded RFC 4648 base64, with what to do in the message', () => {
    for (const value of ['string', 'aGVsbG8', 'aGVsbG9=', 'AAEC/v8_', 'data:image/png;base64,iVBORw==', ' aGk=', 42]) {
      expect(() => encodeBody(octets, value), String(value)).toThrow(
        '"body" must be base64 (RFC 4648, standard or URL-safe alphabet, padded with "=" to a multiple of 4 characters, no data: prefix): encode the file\'s bytes',
      );
    }
  });

  it('are sent as the text, in the alphabet the spec names', () => {
    expect(encodeBody(octets, 'AAEC_v8=')).toEqual({ body: 'AAEC/v8=', contentType: 'application/octet-stream' });
    expect(encodeBody(plan('text', 'text/plain', { base64: 'base64url' }), 'AAEC/v8=').body).toBe('AAEC_v8=');
    expect(encodeBody(plan('json', 'application/json', { base64: 'base64' }), 'aGk=').body).toBe('"aGk="');
    expect(encodeBody(octets, '').body).toBe('');
  });
});

describe('text bodies', () => {
  it('strings as is, other values as text', () => {
    expect(encodeBody(plan('text', 'text/plain'), 'a\nb')).toEqual({ body: 'a\nb', contentType: 'text/plain' });
    expect(encodeBody(plan('text', 'text/csv'), 42)).toEqual({ body: '42', contentType: 'text/csv' });
    expect(encodeBody(plan('text', 'application/xml'), { a: 1 }).body).toBe('{"a":1}');
    expect(encodeBody(plan('text', 'text/*'), 'x').contentType).toBe('text/plain');
  });
});

describe('asFileInput', () => {
  it('recognizes only FileInput-shaped objects', () => {
    expect(asFileInput({ base64: 'AA==' })).toEqual({ base64: 'AA==' });
    expect(asFileInput({ text: 'x', filename: 'a' })).toEqual({ text: 'x', filename: 'a' });
    expect(asFileInput({ text: 'x', other: 1 })).toBeUndefined();
    expect(asFileInput({ filename: 'a' })).toBeUndefined();
    expect(asFileInput({ base64: 1 })).toBeUndefined();
    expect(asFileInput('x')).toBeUndefined();
  });
});
