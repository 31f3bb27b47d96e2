import { describe, expect, it } from 'vitest';
import { fromFetchResponse } from '../../../templates/runtime/upstream/http-client.js';
import { errorResult, responseToResult, type ResponseOptions } from '../../../templates/runtime/upstream/response.js';

/** The result logic, fed through the fetch adapter (the node:http reader is covered by upstream.test.ts). */
function toResult(res: Response, opts: ResponseOptions) {
  return responseToResult(fromFetchResponse(res), opts);
}

const OPTS = { maxBytes: 1_000, requestLabel: 'GET /pets/7' };
const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const PNG_BASE64 = Buffer.from(PNG_BYTES).toString('base64');

function response(
  body: ConstructorParameters<typeof Response>[0],
  init: { status?: number; statusText?: string; headers?: Record<string, string> } = {},
): Response {
  return new Response(body, { status: init.status ?? 200, statusText: init.statusText ?? 'OK', headers: init.headers });
}

/** A body of unknown length, delivered in chunks, that records whether it was cancelled. */
function streamed(chunks: string[]): {
  stream: ReadableStream<Uint8Array>;
  state: { cancelled: boolean; pulled: number };
} {
  const state = { cancelled: false, pulled: 0 };
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[state.pulled++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('responseToResult: success', () => {
  it('a JSON object: the text as received plus structuredContent', async () => {
    const text = '{ "id": 7,\n  "name": "Rex" }';
    const result = await toResult(response(text, { headers: { 'content-type': 'application/json' } }), OPTS);
    expect(result).toEqual({ content: [{ type: 'text', text }], structuredContent: { id: 7, name: 'Rex' } });
  });

  it('a JSON array: text only', async () => {
    const result = await toResult(
      response('[1,2]', { headers: { 'content-type': 'application/json; charset=utf-8' } }),
      OPTS,
    );
    expect(result).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
  });

  it('JSON null and scalars: text only', async () => {
    for (const text of ['null', '42', '"x"']) {
      const result = await toResult(response(text, { headers: { 'content-type': 'application/json' } }), OPTS);
      expect(result).toEqual({ content: [{ type: 'text', text }] });
    }
  });

  it('+json types are JSON', async () => {
    const result = await toResult(
      response('{"type":"about:blank"}', { headers: { 'content-type': 'application/problem+json' } }),
      OPTS,
    );
    expect(result.structuredContent).toEqual({ type: 'about:blank' });
  });

  it('invalid JSON with a JSON content type is still a successful text result', async () => {
    const result = await toResult(response('{oops', { headers: { 'content-type': 'application/json' } }), OPTS);
    expect(result).toEqual({ content: [{ type: 'text', text: '{oops' }] });
  });

  it('without a content type, a body that parses as JSON is JSON', async () => {
    const result = await toResult(new Response(new TextEncoder().encode('{"a":1}')), OPTS);
    expect(result.structuredContent).toEqual({ a: 1 });
    expect(result.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });

  it('a text/plain body that looks like JSON is just text', async () => {
    const result = await toResult(response('{"a":1}', { headers: { 'content-type': 'text/plain' } }), OPTS);
    expect(result).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
  });

  it('text/* and textual application types are text', async () => {
    for (const type of [
      'text/html',
      'text/csv',
      'application/xml',
      'application/atom+xml',
      'image/svg+xml',
      'application/yaml',
    ]) {
      const result = await toResult(response('<a>b</a>', { headers: { 'content-type': type } }), OPTS);
      expect(result).toEqual({ content: [{ type: 'text', text: '<a>b</a>' }] });
    }
  });

  it('decodes the declared charset', async () => {
    const latin1 = new Uint8Array([0x63, 0x61, 0x66, 0xe9]);
    const result = await toResult(
      response(latin1, { headers: { 'content-type': 'text/plain; charset=iso-8859-1' } }),
      OPTS,
    );
    expect(result.content).toEqual([{ type: 'text', text: 'café' }]);
  });

  it('an unknown charset falls back to UTF-8', async () => {
    const result = await toResult(
      response('é', { headers: { 'content-type': 'text/plain; charset=x-nonsense' } }),
      OPTS,
    );
    expect(result.content).toEqual([{ type: 'text', text: 'é' }]);
  });

  it('image/* → image content', async () => {
    const result = await toResult(response(PNG_BYTES, { headers: { 'content-type': 'image/png' } }), OPTS);
    expect(result).toEqual({ content: [{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }] });
  });

  it('audio/* → audio content', async () => {
    const result = await toResult(response(PNG_BYTES, { headers: { 'content-type': 'audio/mpeg' } }), OPTS);
    expect(result).toEqual({ content: [{ type: 'audio', data: PNG_BASE64, mimeType: 'audio/mpeg' }] });
  });

  it.each(['application/octet-stream', 'application/pdf', 'application/zip', 'video/mp4'])(
    '%s → embedded resource',
    async (type) => {
      const result = await toResult(response(PNG_BYTES, { headers: { 'content-type': type } }), OPTS);
      expect(result).toEqual({
        content: [{ type: 'resource', resource: { uri: 'upstream://response', mimeType: type, blob: PNG_BASE64 } }],
        // A download: the call path links to it instead where it can (response-links.ts).
        cut: { mimeType: type, binary: true, totalBytes: PNG_BYTES.byteLength },
      });
    },
  );

  it('unknown types are sniffed: text when it decodes, a resource otherwise', async () => {
    const textual = await toResult(
      response('plain words', { headers: { 'content-type': 'application/x-custom' } }),
      OPTS,
    );
    expect(textual.content).toEqual([{ type: 'text', text: 'plain words' }]);
    const binary = await toResult(response(PNG_BYTES, { headers: { 'content-type': 'application/x-custom' } }), OPTS);
    expect(binary.content[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/x-custom' } });
    const untyped = await toResult(new Response(PNG_BYTES), OPTS);
    expect(untyped.content[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'application/octet-stream' } });
  });

  it('204 and empty bodies', async () => {
    expect(await toResult(new Response(null, { status: 204, statusText: 'No Content' }), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 204 No Content (empty body)' }],
    });
    expect(await toResult(response('', { headers: { 'content-type': 'application/json' } }), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 200 OK (empty body)' }],
    });
    expect(await toResult(new Response(null, { status: 202 }), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 202 (empty body)' }],
    });
  });
});

describe('responseToResult: byte cap', () => {
  it('with a content-length, says how many bytes were not shown, and cancels the stream', async () => {
    const { stream, state } = streamed(['a '.repeat(300), 'b '.repeat(300), 'c '.repeat(300)]);
    const res = response(stream, { headers: { 'content-type': 'text/plain', 'content-length': '1800' } });
    const result = await toResult(res, OPTS);
    expect(result).toEqual({
      content: [
        { type: 'text', text: `${'a '.repeat(300)}${'b '.repeat(200)}\n…[truncated: 800 more bytes not shown]` },
      ],
      cut: { mimeType: 'text/plain', binary: false, totalBytes: 1800 },
    });
    expect(state.cancelled).toBe(true);
    expect(state.pulled).toBeLessThan(3);
  });

  it('without a content-length: "more bytes not shown"', async () => {
    const { stream } = streamed(['x '.repeat(350), 'y '.repeat(350)]);
    const result = await toResult(response(stream, { headers: { 'content-type': 'text/plain' } }), OPTS);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toBe(`${'x '.repeat(350)}${'y '.repeat(150)}\n…[truncated: more bytes not shown]`);
  });

  it('a word the cap cuts is dropped whole, whatever it is (no piece of a credential is left at the edge)', async () => {
    const body = `id 7 token ghp_${'k'.repeat(2_000)}`;
    const result = await toResult(response(body, { headers: { 'content-type': 'text/plain' } }), OPTS);
    const text = (result.content[0] as { text: string }).text;
    // The word is longer than the most a cut drops (512 characters): what is left of it is past its start.
    expect(text).toBe(
      `id 7 token ghp_${'k'.repeat(1_000 - 'id 7 token ghp_'.length - 512)}\n…[truncated: more bytes not shown]`,
    );
    const short = `id 7 token ghp_${'k'.repeat(20)} and more text after the token`;
    const cut = await toResult(response(short, { headers: { 'content-type': 'text/plain' } }), {
      ...OPTS,
      maxBytes: 20,
    });
    expect((cut.content[0] as { text: string }).text).toBe('id 7 token \n…[truncated: more bytes not shown]');
  });

  it('a content-length with content-encoding is not used as the size', async () => {
    const { stream } = streamed(['x'.repeat(1_200)]);
    const res = response(stream, {
      headers: { 'content-type': 'text/plain', 'content-length': '50', 'content-encoding': 'gzip' },
    });
    const text = (await toResult(res, OPTS)).content[0] as { text: string };
    expect(text.text.endsWith('…[truncated: more bytes not shown]')).toBe(true);
  });

  it('exactly maxBytes is not truncated', async () => {
    const body = 'z'.repeat(1_000);
    expect(await toResult(response(body, { headers: { 'content-type': 'text/plain' } }), OPTS)).toEqual({
      content: [{ type: 'text', text: body }],
    });
  });

  it('truncated JSON has no structuredContent', async () => {
    const json = JSON.stringify({ items: 'x'.repeat(2_000) });
    const result = await toResult(response(json, { headers: { 'content-type': 'application/json' } }), OPTS);
    expect(result.structuredContent).toBeUndefined();
    expect((result.content[0] as { text: string }).text).toMatch(
      /^\{"items":"x+\n…\[truncated: more bytes not shown\]$/,
    );
  });

  it('a multi-byte character cut by the cap is dropped, not mangled', async () => {
    const body = `${'a'.repeat(998)} é`; // é is 2 bytes: the cap falls inside it
    const result = await toResult(
      response(body, { headers: { 'content-type': 'text/plain', 'content-length': '1001' } }),
      OPTS,
    );
    expect((result.content[0] as { text: string }).text).toBe(
      `${'a'.repeat(998)} \n…[truncated: 2 more bytes not shown]`,
    );
  });

  it('a truncated image is described, not sent corrupt', async () => {
    const big = new Uint8Array(1_500);
    const result = await toResult(
      response(big, { headers: { 'content-type': 'image/png', 'content-length': '1500' } }),
      OPTS,
    );
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'HTTP 200 OK: the image/png body is larger than the 1000-byte limit and was not included. …[truncated: 500 more bytes not shown]',
        },
      ],
      cut: { mimeType: 'image/png', binary: true, totalBytes: 1500 },
    });
  });
});

describe('responseToResult: errors', () => {
  it('404 with a JSON body: isError, heading, body, never structuredContent', async () => {
    const result = await toResult(
      response('{"error":"not found"}', {
        status: 404,
        statusText: 'Not Found',
        headers: { 'content-type': 'application/json' },
      }),
      OPTS,
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'HTTP 404 Not Found from GET /pets/7\n\n{"error":"not found"}' }],
      isError: true,
    });
  });

  it('500 with an empty body', async () => {
    expect(await toResult(new Response(null, { status: 500, statusText: 'Internal Server Error' }), OPTS)).toEqual({
      content: [{ type: 'text', text: 'HTTP 500 Internal Server Error from GET /pets/7' }],
      isError: true,
    });
  });

  it('quotes only the first 2,000 characters', async () => {
    const body = 'e '.repeat(2_500);
    const result = await toResult(
      response(body, {
        status: 400,
        statusText: 'Bad Request',
        headers: { 'content-type': 'text/plain', 'content-length': '5000' },
      }),
      { maxBytes: 100_000, requestLabel: 'POST /x' },
    );
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toBe(
      `HTTP 400 Bad Request from POST /x\n\n${'e '.repeat(1_000)}\n…[truncated: 3000 more bytes not shown]`,
    );
  });

  it('a binary error body is described', async () => {
    const result = await toResult(
      response(PNG_BYTES, { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'image/png' } }),
      OPTS,
    );
    expect(result).toEqual({
      content: [{ type: 'text', text: 'HTTP 502 Bad Gateway from GET /pets/7\n\n[10 bytes of image/png]' }],
      isError: true,
    });
  });
});

describe('errorResult', () => {
  it('is an isError text result', () => {
    expect(errorResult('boom')).toEqual({ content: [{ type: 'text', text: 'boom' }], isError: true });
  });
});
