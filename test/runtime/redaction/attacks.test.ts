/**
 * Redaction that no cut defeats, attacked through `callTool` as a model would: the upstream echoes the request
 * (its headers and query) back, and the caller pads a query value so that a cut (the response cap, the error
 * excerpt, a response link's page) falls at every offset across the echoed credential. No 4-character piece of
 * a credential may come back, and no result may tell a right guess of a credential from a wrong one.
 */
import { describe, expect, it } from 'vitest';
import { callTool, type CallDeps } from '../../../templates/runtime/server/call-tool.js';
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import { readConfig } from '../../../templates/runtime/server/config.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { createResponseLinker, LINK_PAGE_BYTES } from '../../../templates/runtime/primitives/response-links.js';
import type { ToolResult } from '../../../templates/runtime/upstream/response.js';
import { registryOf } from '../../helpers/registry.js';

const TOKEN = 'ghp_Zq8LmW3xT7rYc2Vb9Nk4';
const API_KEY = 'key-Hs6Pd1Qa5Uf0Jg';

const catalog = {
  format: 1,
  toolMode: 'all',
  core: [],
  server: { name: 't', version: '1.0.0', title: 't', instructions: '' },
  baseUrl: 'https://api.example.com',
  defs: {},
  securitySchemes: [
    { name: 'bearer', kind: 'http-bearer', env: { value: 'API_TOKEN' } },
    { name: 'key', kind: 'apiKey', in: 'header', paramName: 'X-Api-Key', env: { value: 'API_KEY' } },
  ],
  tools: [
    {
      name: 'echo',
      description: 'd',
      inputSchema: {
        type: 'object',
        properties: { q: { type: 'string' }, status: { type: 'integer' } },
        additionalProperties: false,
      },
      defs: [],
      annotations: { readOnlyHint: true },
      security: [['bearer', 'key']],
      request: {
        method: 'GET',
        path: '/echo',
        params: [
          { arg: 'q', name: 'q', in: 'query', style: 'form', explode: true },
          { arg: 'status', name: 'status', in: 'query', style: 'form', explode: true },
        ],
      },
    },
    {
      name: 'file',
      description: 'd',
      inputSchema: {
        type: 'object',
        properties: { dir: { type: 'string' }, name: { type: 'string' } },
        required: ['dir', 'name'],
        additionalProperties: false,
      },
      defs: [],
      annotations: { readOnlyHint: true },
      security: [['bearer']],
      request: {
        method: 'GET',
        path: '/files/{dir}{name}',
        params: [
          { arg: 'dir', name: 'dir', in: 'path', style: 'simple', explode: false },
          { arg: 'name', name: 'name', in: 'path', style: 'simple', explode: false },
        ],
      },
    },
  ],
} as unknown as Catalog;

const silent: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

interface Seen {
  url: string;
  headers: Record<string, string>;
}

/** An upstream that answers with the request's query and headers, as a debug endpoint or an error page does. */
function echoUpstream(contentType = 'text/plain') {
  const seen: Seen[] = [];
  const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
    const headers = Object.fromEntries(new Headers(init?.headers).entries());
    seen.push({ url: String(url), headers });
    const query = new URL(String(url)).searchParams;
    const status = Number(query.get('status') ?? 200);
    const path = decodeURIComponent(new URL(String(url)).pathname);
    const body = `${path}\nq=${query.get('q') ?? ''}\nauthorization: ${headers['authorization']}\nx-api-key: ${headers['x-api-key']}\nend`;
    return new Response(body, { status, headers: { 'content-type': contentType } });
  }) as typeof fetch;
  return { seen, fetch: fakeFetch };
}

function setup(env: Record<string, string> = {}, withLinks = false, contentType = 'text/plain') {
  const upstream = echoUpstream(contentType);
  const registry = registryOf(catalog);
  const fullEnv = { API_TOKEN: TOKEN, API_KEY, ...env };
  const deps: CallDeps = {
    registry,
    config: readConfig(fullEnv),
    env: fullEnv,
    log: silent,
    fetch: upstream.fetch,
    ...(withLinks ? { links: createResponseLinker('link-signing-key-for-tests') } : {}),
  };
  const tool = registry.get('echo')!;
  return {
    seen: upstream.seen,
    call: (args: Record<string, unknown>, name = 'echo') => callTool(deps, registry.get(name)!, args),
    page: (args: Record<string, unknown>, index: number) =>
      callTool(deps, tool, args, undefined, undefined, { index, size: LINK_PAGE_BYTES }),
  };
}

/** Everything a caller can read in a result: its text, its structured content, its links. */
function visible(result: ToolResult): string {
  return JSON.stringify({ content: result.content, structured: result.structuredContent ?? null });
}

/** Every piece of 4 or more characters of the credential that the text shows, if any. */
function leakedPieces(text: string, credential: string): string[] {
  const pieces: string[] = [];
  for (let i = 0; i + 4 <= credential.length; i++) {
    const piece = credential.slice(i, i + 4);
    if (text.includes(piece)) pieces.push(piece);
  }
  return pieces;
}

/** Padding made of a character no credential here contains, so the caller's own text shows no piece of one. */
const pad = (n: number) => '~'.repeat(Math.max(0, n));

/** Where the echoed token starts in the echo body, for a query value of `length` characters. */
const tokenOffset = (length: number) => `/echo\nq=${pad(length)}\nauthorization: Bearer `.length;

describe('redaction that no cut defeats', () => {
  it('a success body cut by the response cap: no piece of a credential at any cut offset', async () => {
    const cap = 400;
    const { call } = setup({ API_MAX_RESPONSE_BYTES: String(cap) });
    const failures: string[] = [];
    for (let at = -2; at <= TOKEN.length + 2; at++) {
      // The cap falls `at` characters into the echoed token.
      const length = cap - tokenOffset(0) - at;
      const text = visible(await call({ q: pad(length) }));
      for (const credential of [TOKEN, API_KEY]) {
        const pieces = leakedPieces(text, credential);
        if (pieces.length > 0) failures.push(`cut ${at} into the token: ${pieces.join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('an error body cut at the excerpt: no piece of a credential at any cut offset', async () => {
    const { call } = setup();
    const failures: string[] = [];
    for (let at = -2; at <= TOKEN.length + 2; at++) {
      const length = 2_000 - tokenOffset(0) - at;
      const result = await call({ q: pad(length), status: 400 });
      expect(result.isError).toBe(true);
      const pieces = leakedPieces(visible(result), TOKEN);
      if (pieces.length > 0) failures.push(`cut ${at} into the token: ${pieces.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('the key echoed after the token, cut anywhere across it, under a cap counted in bytes', async () => {
    const cap = 300;
    const { call } = setup({ API_MAX_RESPONSE_BYTES: String(cap) });
    const keyOffset = (length: number) => `/echo\nq=${pad(length)}\nauthorization: Bearer ${TOKEN}\nx-api-key: `.length;
    const failures: string[] = [];
    for (let at = 0; at <= API_KEY.length; at++) {
      const text = visible(await call({ q: pad(cap - keyOffset(0) - at) }));
      const pieces = leakedPieces(text, API_KEY);
      if (pieces.length > 0) failures.push(`cut ${at} into the key: ${pieces.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(['text/plain', 'text/plain; charset=iso-8859-1'])(
    'the pages of a linked body (%s): no piece of the token where a page ends inside it',
    async (contentType) => {
      const { page } = setup({ API_MAX_RESPONSE_BYTES: '1000' }, true, contentType);
      const failures: string[] = [];
      for (const at of [1, 4, 10, TOKEN.length - 4, TOKEN.length - 1]) {
        const args = { q: pad(LINK_PAGE_BYTES - tokenOffset(0) - at) };
        const text = visible(await page(args, 0)) + visible(await page(args, 1));
        const pieces = leakedPieces(text, TOKEN);
        if (pieces.length > 0) failures.push(`page cut ${at} into the token: ${pieces.join(', ')}`);
      }
      expect(failures).toEqual([]);
    },
  );

  it("the issue's attack fails: the first characters of the token cannot be read through the cut", async () => {
    const cap = 400;
    const { call } = setup({ API_MAX_RESPONSE_BYTES: String(cap) });
    // The cut 8 characters into the token: today's result ends with `ghp_Zq8L`.
    const text = visible(await call({ q: pad(cap - tokenOffset(0) - 8) }));
    expect(text).not.toContain(TOKEN.slice(0, 4));
  });

  it('a right guess of the token and a wrong one give the same result, but for the guess itself', async () => {
    const { call, seen } = setup();
    const wrong = `${TOKEN.slice(0, -1)}X`;
    const right = visible(await call({ q: TOKEN }));
    const wrongResult = visible(await call({ q: wrong }));
    expect(right.split(TOKEN).join('<guess>')).toBe(wrongResult.split(wrong).join('<guess>'));
    // The server never sends its own credential where the caller put it.
    expect(new URL(seen[0]!.url).searchParams.get('q')).not.toBe(TOKEN);
    expect(seen[0]!.url).not.toContain(TOKEN);
    expect(new URL(seen[1]!.url).searchParams.get('q')).toBe(wrong);
  });

  it('a guess inside a longer argument, or percent-encoded, tells nothing either', async () => {
    const { call, seen } = setup();
    for (const [right, wrong] of [
      [`before ${API_KEY} after`, `before ${API_KEY.slice(0, -1)}Y after`],
      [encodeURIComponent(`Bearer ${TOKEN}`), encodeURIComponent(`Bearer ${TOKEN.slice(0, -1)}Y`)],
    ] as const) {
      seen.length = 0;
      const a = visible(await call({ q: right }));
      const b = visible(await call({ q: wrong }));
      expect(a.split(right).join('<guess>')).toBe(b.split(wrong).join('<guess>'));
      expect(new URL(seen[0]!.url).searchParams.get('q')).not.toContain(right.includes(API_KEY) ? API_KEY : TOKEN);
    }
  });

  it('a guess at a cut edge is dropped as any partial word is, whether it is a piece of the token or not', async () => {
    const cap = 400;
    const { call } = setup({ API_MAX_RESPONSE_BYTES: String(cap) });
    // The cap falls right after the guess: a rule that masked only real pieces of the token would tell them apart.
    const guessAt = (guess: string) => `~${' '.repeat(cap - '/echo\nq=~'.length - guess.length)}${guess}`;
    const right = visible(await call({ q: guessAt(TOKEN.slice(0, 6)) }));
    const wrong = visible(await call({ q: guessAt('ghp_Zx') }));
    expect(right).not.toContain(TOKEN.slice(0, 6));
    expect(right.split(TOKEN.slice(0, 6)).join('<guess>')).toBe(wrong.split('ghp_Zx').join('<guess>'));
  });

  it('a guess in a key the validation message quotes tells nothing', async () => {
    const { call } = setup();
    const wrong = `${TOKEN.slice(0, -1)}X`;
    const right = await call({ [TOKEN]: 1 });
    const other = await call({ [wrong]: 1 });
    expect(right.isError).toBe(true);
    expect(visible(right).split(TOKEN).join('<guess>')).toBe(visible(other).split(wrong).join('<guess>'));
  });

  it('a guess split across two arguments that the request puts side by side tells nothing', async () => {
    const { call, seen } = setup();
    const wrong = `${TOKEN.slice(0, -1)}X`;
    const right = visible(await call({ dir: TOKEN.slice(0, 10), name: TOKEN.slice(10) }, 'file'));
    const other = visible(await call({ dir: wrong.slice(0, 10), name: wrong.slice(10) }, 'file'));
    expect(right.split(TOKEN).join('<guess>')).toBe(other.split(wrong).join('<guess>'));
    expect(seen[0]!.url).not.toContain(TOKEN);
  });

  it('an access token the server obtained itself is covered in arguments like a configured credential', async () => {
    const accessToken = 'cc-Wq3Lm8Xz2Pk7Rt5Yh1';
    const scheme = {
      name: 'cc',
      kind: 'oauth2',
      clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: [] },
      env: { clientId: 'CC_ID', clientSecret: 'CC_SECRET' },
    };
    const ccCatalog = {
      ...catalog,
      securitySchemes: [scheme],
      tools: catalog.tools.map((t) => ({ ...t, security: [['cc']] })),
    } as unknown as Catalog;
    const upstream = echoUpstream();
    const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
      if (String(url).startsWith('https://auth.example.com/'))
        return Response.json({ access_token: accessToken, token_type: 'bearer', expires_in: 3600 });
      return upstream.fetch(url, init);
    }) as typeof fetch;
    const env = { CC_ID: 'client-1', CC_SECRET: 'client-secret-9d8c' };
    const registry = registryOf(ccCatalog);
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: fakeFetch };
    const call = (q: string) => callTool(deps, registry.get('echo')!, { q });
    const wrong = `${accessToken.slice(0, -1)}X`;
    const right = visible(await call(accessToken));
    const other = visible(await call(wrong));
    expect(right.split(accessToken).join('<guess>')).toBe(other.split(wrong).join('<guess>'));
    expect(new URL(upstream.seen[0]!.url).searchParams.get('q')).not.toBe(accessToken);
  });

  it("a cancelled call still rethrows the client's cancellation as it was (an error's message is restored only when it quotes a stand-in)", async () => {
    const registry = registryOf(catalog);
    const env = { API_TOKEN: TOKEN, API_KEY };
    const controller = new AbortController();
    const hanging = ((_url: string | URL | Request, init?: RequestInit) =>
      new Promise((_resolve, reject) => {
        const signal = init!.signal!;
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error));
      })) as typeof fetch;
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: hanging };
    const call = callTool(deps, registry.get('echo')!, { q: TOKEN }, controller.signal);
    controller.abort();
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
  });
});

/**
 * Attack: a credential leaves as bytes. Binary content used to pass unredacted, and what counts as binary is, for
 * a body with no content type (or one the server does not know), decided by its bytes: a caller puts one control
 * character in an echoed argument and the echo of the Authorization header comes back as a base64 blob (or behind
 * a response link, whose pages are blobs too), which any model decodes. A download that quotes the credential
 * (a generated report, an archive of the request) was the same. The bytes of every secret form are overwritten.
 */
describe('binary bodies', () => {
  /** Every base64 payload of the result decoded, with its text: what a model that decodes base64 reads. */
  const decoded = (result: ToolResult): string =>
    result.content
      .map((c) =>
        c.type === 'resource'
          ? Buffer.from(c.resource.blob, 'base64').toString('latin1')
          : c.type === 'image' || c.type === 'audio'
            ? Buffer.from(c.data, 'base64').toString('latin1')
            : c.type === 'text'
              ? c.text
              : '',
      )
      .join('\n');
  const leaks = (text: string) => [...leakedPieces(text, TOKEN), ...leakedPieces(text, API_KEY)];

  it('a body with no content type that the caller made look binary (a control character) holds no credential', async () => {
    const { call } = setup({}, false, '');
    const result = await call({ q: '\u0001' });
    expect(result.content[0]!.type).toBe('resource');
    expect(leaks(decoded(result))).toEqual([]);
    // Only the credential's bytes changed: the rest of the echo is as the API sent it.
    expect(decoded(result)).toBe(
      `/echo\nq=\u0001\nauthorization: Bearer ${'*'.repeat(TOKEN.length)}\nx-api-key: ${'*'.repeat(API_KEY.length)}\nend`,
    );
  });

  it.each(['', 'application/octet-stream', 'application/x-custom', 'image/png', 'audio/mpeg'])(
    'nor does a binary body (%s) read through its response link',
    async (contentType) => {
      const { call, page } = setup({}, true, contentType);
      const result = await call({ q: '\u0001' });
      expect(leaks(decoded(result))).toEqual([]);
      expect(leaks(decoded(await page({ q: '\u0001' }, 0)))).toEqual([]);
    },
  );

  it('a right guess of the token echoed in a binary body and a wrong one give the same bytes, but for the guess', async () => {
    const { call } = setup({}, false, 'application/octet-stream');
    const wrong = 'ghp_Zq8LmW3xT7rYc2Vb9Nk5';
    const right = decoded(await call({ q: `\u0001${TOKEN}` }));
    const other = decoded(await call({ q: `\u0001${wrong}` }));
    expect(right).toContain(`q=\u0001${TOKEN}\n`);
    expect(right.split(TOKEN).join('<guess>')).toBe(other.split(wrong).join('<guess>'));
  });

  it('nor do the pages of a binary body where a page ends inside the token', async () => {
    const { page } = setup({ API_MAX_RESPONSE_BYTES: '1000' }, true, 'application/octet-stream');
    const failures: string[] = [];
    for (const at of [1, 4, 10, TOKEN.length - 4, TOKEN.length - 1]) {
      const args = { q: pad(LINK_PAGE_BYTES - tokenOffset(0) - at) };
      const pages = [await page(args, 0), await page(args, 1)];
      const joined = pages.map(decoded).join('');
      const pieces = leaks(joined);
      if (pieces.length > 0) failures.push(`page cut ${at} into the token: ${pieces.join(', ')}`);
      // The pages still join up to the body, byte for byte but the credential's.
      expect(Buffer.byteLength(joined, 'latin1')).toBe(
        Buffer.byteLength(`/echo\nq=${args.q}\nauthorization: Bearer ${TOKEN}\nx-api-key: ${API_KEY}\nend`),
      );
    }
    expect(failures).toEqual([]);
  });
});

/**
 * Attack: a credential echoed in JSON that escapes more than JSON.stringify does. JSON may write any character as
 * `\uXXXX` and `/` as `\/`, and real encoders do: PHP's json_encode escapes every `/` by default (Laravel,
 * Symfony), .NET's System.Text.Json escapes `+` as `\u002B`, Go's `<`, `>` and `&`. A token in standard base64
 * (AWS secret keys, Azure keys, a Basic credential) holds `/` and `+`, and the echo of it in an error body came
 * back as it was: the model reads `\/` as `/`.
 */
describe('credentials echoed in JSON, escaped as other encoders escape them', () => {
  const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCY/EXAMPLEKEY=';
  /** How each encoder writes a string in JSON text. */
  const encoders: Record<string, (text: string) => string> = {
    'PHP json_encode': (text) => JSON.stringify(text).replaceAll('/', '\\/'),
    '.NET System.Text.Json': (text) =>
      JSON.stringify(text).replace(
        /[+&<>'`]/g,
        (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
      ),
    'every character as \\u': (text) =>
      `"${[...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`,
  };

  function jsonEcho(encode: (text: string) => string, status = 400) {
    const registry = registryOf(catalog);
    const env = { API_TOKEN: SECRET, API_KEY };
    const fakeFetch = (async (url: string | URL | Request, init?: RequestInit) => {
      const headers = Object.fromEntries(new Headers(init?.headers).entries());
      const q = new URL(String(url)).searchParams.get('q') ?? '';
      const body = `{"error":"invalid credentials","q":${encode(q)},"authorization":${encode(headers['authorization'] ?? '')}}`;
      return new Response(body, { status, headers: { 'content-type': 'application/json' } });
    }) as typeof fetch;
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: fakeFetch };
    return (args: Record<string, unknown>) => callTool(deps, registry.get('echo')!, args);
  }

  /** The result's text as it is, then its structured content. */
  const shown = (result: ToolResult) =>
    `${result.content.map((c) => (c.type === 'text' ? c.text : '')).join('')}\n${JSON.stringify(result.structuredContent ?? null)}`;

  /** What a model reads: the text with JSON's escapes undone (as any model does when it reads JSON). */
  const read = (result: ToolResult) =>
    visible(result)
      .replace(/\\+u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      .replace(/\\+\//g, '/');

  it.each(Object.keys(encoders))('%s: no piece of the credential, in an error body or a success', async (name) => {
    for (const status of [400, 200]) {
      const result = await jsonEcho(encoders[name]!, status)({ q: 'x' });
      expect(leakedPieces(read(result), SECRET)).toEqual([]);
    }
  });

  it.each(Object.keys(encoders))('%s: a right guess echoed back and a wrong one give the same result', async (name) => {
    const call = jsonEcho(encoders[name]!, 200);
    const wrong = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCY/EXAMPLEKEX=';
    const encode = encoders[name]!;
    // The guess as sent, and as the encoder would write it (a caller may write either into an argument).
    for (const [rightGuess, wrongGuess] of [
      [SECRET, wrong],
      [encode(SECRET).slice(1, -1), encode(wrong).slice(1, -1)],
    ] as const) {
      const right = shown(await call({ q: rightGuess }));
      const other = shown(await call({ q: wrongGuess }));
      // The guess comes back as sent (the stand-in mapped back) or as the encoder wrote it (a wrong guess, echoed).
      const guessAs = (text: string, guess: string) =>
        [encode(guess), JSON.stringify(guess), `"${guess}"`].reduce(
          (out, written) => out.split(written.slice(1, -1)).join('<guess>'),
          text,
        );
      expect(guessAs(right, rightGuess)).toBe(guessAs(other, wrongGuess));
    }
  });
});

/**
 * Attack: the same credential echoed in an HTML error page, escaped as HTML escapes it. Go's html/template writes
 * `+` as `&#43;`, OWASP's encoders `/` as `&#x2F;`; a model reads entities as the characters they stand for.
 */
describe('credentials echoed in HTML, escaped as HTML encoders escape them', () => {
  const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCY/EXAMPLEKEY=';
  const entity = (c: string, hex: boolean) =>
    hex ? `&#x${c.charCodeAt(0).toString(16).toUpperCase()};` : `&#${c.charCodeAt(0)};`;
  const encoders: Record<string, (text: string) => string> = {
    'Go html/template': (text) =>
      text.replace(/[+"'&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c] ?? entity(c, false)),
    'OWASP (hex entities for / + =)': (text) => text.replace(/[/+=&<>"']/g, (c) => entity(c, true)),
    'named entities': (text) => text.replace(/[/+=]/g, (c) => ({ '/': '&sol;', '+': '&plus;', '=': '&equals;' })[c]!),
  };
  /** What a model reads: the page with its entities undone. */
  const read = (result: ToolResult) =>
    visible(result)
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(
        /&(sol|plus|equals|amp);/g,
        (_, name: string) => ({ sol: '/', plus: '+', equals: '=', amp: '&' })[name]!,
      );

  it.each(Object.keys(encoders))('%s: no piece of the credential in the page', async (name) => {
    const encode = encoders[name]!;
    const registry = registryOf(catalog);
    const env = { API_TOKEN: SECRET, API_KEY };
    const fakeFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      const authorization = new Headers(init?.headers).get('authorization') ?? '';
      const page = `<html><body><h1>401</h1><p>Rejected: ${encode(authorization)}</p></body></html>`;
      return new Response(page, { status: 401, headers: { 'content-type': 'text/html; charset=utf-8' } });
    }) as typeof fetch;
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: fakeFetch };
    const result = await callTool(deps, registry.get('echo')!, { q: 'x' });
    expect(leakedPieces(read(result), SECRET)).toEqual([]);
    expect(visible(result)).toContain('Rejected: Bearer [redacted]');
  });
});

/**
 * Attack: the credential echoed percent-encoded as other encoders write it. .NET's HttpUtility.UrlEncode writes
 * lowercase hex (`%2f`, `%2b`) and spaces as `+`; some encoders escape every character. Only encodeURIComponent's
 * own form (uppercase, unreserved characters as they are) was known.
 */
describe('credentials echoed percent-encoded, as other encoders encode them', () => {
  const SECRET = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCY/EXAMPLEKEY=';
  const encoders: Record<string, (text: string) => string> = {
    'HttpUtility.UrlEncode (lowercase hex, + for space)': (text) =>
      encodeURIComponent(text)
        .replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())
        .replaceAll('%20', '+'),
    'every byte': (text) => [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
  };

  it.each(Object.keys(encoders))('%s: no piece of the credential', async (name) => {
    const encode = encoders[name]!;
    const registry = registryOf(catalog);
    const env = { API_TOKEN: SECRET, API_KEY };
    const fakeFetch = (async (_url: string | URL | Request, init?: RequestInit) => {
      const authorization = new Headers(init?.headers).get('authorization') ?? '';
      return new Response(`{"debug":"authorization=${encode(authorization)}"}`, {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: fakeFetch };
    const result = await callTool(deps, registry.get('echo')!, { q: 'x' });
    const read = decodeURIComponent(visible(result).replaceAll('+', ' '));
    expect(leakedPieces(read, SECRET)).toEqual([]);
  });
});

/**
 * Attack: a credential with a space or a character past ASCII (a password, a passphrase), echoed as encoders
 * other than encodeURIComponent write it: .NET's HttpUtility.UrlEncode (lowercase `%c3%a4`, `+` for a space),
 * URLSearchParams and PHP's urlencode (`+`), JavaScript's `escape()` (`%E4`), every byte encoded, `\x` escapes of
 * string literals and their debug dumps. Before, only ASCII percent-escapes were undone and `+` was never a
 * space: each came back whole (`p%c3%a4ss+w0rd%2fK7%2bx%c3%9f3`), and so did the credential's base64.
 */
describe('credentials with a space or non-ASCII characters, echoed as other encoders write them', () => {
  const SECRET = 'p\u00e4ss w0rd/K7+x\u00df3 \u20ac\u{1F511}9';
  const bytesOf = (text: string) => [...Buffer.from(text)];
  const hex = (b: number) => b.toString(16).padStart(2, '0');
  const encoders: Record<string, { encode: (text: string) => string; decode: (text: string) => string }> = {
    'HttpUtility.UrlEncode (lowercase, + for a space)': {
      encode: (t) =>
        encodeURIComponent(t)
          .replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())
          .replaceAll('%20', '+'),
      decode: (t) => decodeURIComponent(t.replaceAll('+', ' ')),
    },
    'URLSearchParams (+ for a space)': {
      encode: (t) => new URLSearchParams({ a: t }).toString().slice(2),
      decode: (t) => decodeURIComponent(t.replaceAll('+', ' ')),
    },
    'every byte, lowercase': {
      encode: (t) =>
        bytesOf(t)
          .map((b) => `%${hex(b)}`)
          .join(''),
      decode: (t) => decodeURIComponent(t),
    },
    'escape() (Latin-1 bytes, %uXXXX)': { encode: (t) => escape(t), decode: (t) => unescape(t) },
    '\\x escapes of a string literal': {
      encode: (t) =>
        [...t]
          .map((c) => (c.charCodeAt(0) < 0x100 && !/[a-z0-9]/i.test(c) ? `\\x${hex(c.charCodeAt(0))}` : c))
          .join(''),
      decode: (t) => t.replace(/\\x([0-9a-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
    },
  };

  const echoing = (body: (secret: string) => string) => {
    const registry = registryOf(catalog);
    const env = { API_TOKEN: SECRET, API_KEY };
    const fakeFetch = (async () =>
      new Response(body(SECRET), {
        status: 200,
        headers: { 'content-type': 'text/plain' },
      })) as unknown as typeof fetch;
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: fakeFetch };
    return callTool(deps, registry.get('echo')!, { q: 'x' });
  };

  it.each(Object.keys(encoders))('%s: no piece of the credential', async (name) => {
    const { encode, decode } = encoders[name]!;
    const result = await echoing((secret) => `debug: password=${encode(secret)}; end`);
    const text = (result.content[0] as { text: string }).text;
    expect(text).toBe('debug: password=[redacted]; end');
    expect(leakedPieces(decode(text), SECRET)).toEqual([]);
  });

  it.each([0, 1, 2])(
    'base64 and base64url, %i bytes into a longer encoded text: no piece of the credential',
    async (before) => {
      for (const alphabet of ['base64', 'base64url'] as const) {
        const encoded = Buffer.from(`${'#'.repeat(before)}${SECRET}#tail`).toString(alphabet);
        const result = await echoing(() => `{"payload":"${encoded}"}`);
        const text = (result.content[0] as { text: string }).text;
        expect(text).toContain('[redacted]');
        // What is left shows at most the 4 bits the credential's first and last characters share with the rest.
        const shown = text
          .split('[redacted]')
          .map((part) => Buffer.from(part.replace(/[^A-Za-z0-9+/_-]/g, ''), alphabet).toString('latin1'));
        expect(leakedPieces(shown.join('\n'), Buffer.from(SECRET).toString('latin1'))).toEqual([]);
      }
    },
  );

  it('a guess of the credential sent base64-encoded or form-encoded tells nothing', async () => {
    const registry = registryOf(catalog);
    const env = { API_TOKEN: SECRET, API_KEY };
    const fakeFetch = (async (url: string | URL | Request) =>
      new Response(`q=${new URL(String(url)).searchParams.get('q')}`, { status: 200 })) as unknown as typeof fetch;
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: fakeFetch };
    const wrong = SECRET.replace('w0rd', 'w1rd');
    for (const encode of [
      (t: string) => Buffer.from(t).toString('base64'),
      encoders['URLSearchParams (+ for a space)']!.encode,
    ]) {
      const right = visible(await callTool(deps, registry.get('echo')!, { q: encode(SECRET) }));
      const other = visible(await callTool(deps, registry.get('echo')!, { q: encode(wrong) }));
      expect(right.split(encode(SECRET)).join('<guess>')).toBe(other.split(encode(wrong)).join('<guess>'));
    }
  });
});

/**
 * Attack: a credential echoed in a binary body as UTF-16 (Windows APIs, Java's and .NET's serializers, a PDF's or
 * an Office document's strings). Only its UTF-8 bytes were masked: the UTF-16 echo of the headers came back whole.
 */
describe('credentials echoed as UTF-16 in binary content', () => {
  const utf16Echo = (littleEndian: boolean) =>
    (async (_url: string | URL | Request, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      const le = Buffer.from(
        `authorization: ${headers.get('authorization')}\nq=${new URL(String(_url)).searchParams.get('q')}`,
        'utf16le',
      );
      return new Response(littleEndian ? le : Buffer.from(le).swap16(), {
        status: 200,
        headers: { 'content-type': 'application/octet-stream' },
      });
    }) as unknown as typeof fetch;
  const call = (littleEndian: boolean, q: string) => {
    const registry = registryOf(catalog);
    const env = { API_TOKEN: TOKEN, API_KEY };
    const deps: CallDeps = { registry, config: readConfig(env), env, log: silent, fetch: utf16Echo(littleEndian) };
    return callTool(deps, registry.get('echo')!, { q });
  };
  const read = (result: ToolResult, littleEndian: boolean) => {
    const c = result.content[0]!;
    const bytes = Buffer.from(c.type === 'resource' ? c.resource.blob : '', 'base64');
    return (littleEndian ? bytes : Buffer.from(bytes).swap16()).toString('utf16le');
  };

  it.each([true, false])('little-endian %s: the token is masked, as in UTF-8', async (littleEndian) => {
    const text = read(await call(littleEndian, 'x'), littleEndian);
    expect(leakedPieces(text, TOKEN)).toEqual([]);
    // Masked in place: the rest keeps its bytes (a mask of the other byte order may take one byte either side).
    expect(text).toMatch(/^authorization: Bearer.{1,2}\u2a2a{20,}.{0,2}q=x$/su);
    expect(text.length).toBe(`authorization: Bearer ${TOKEN}\nq=x`.length);
  });

  it.each([true, false])(
    'little-endian %s: a right guess and a wrong one give the same bytes, but for the guess',
    async (littleEndian) => {
      const wrong = 'ghp_Zq8LmW3xT7rYc2Vb9Nk5';
      const right = read(await call(littleEndian, TOKEN), littleEndian);
      const other = read(await call(littleEndian, wrong), littleEndian);
      expect(right.split(TOKEN).join('<guess>')).toBe(other.split(wrong).join('<guess>'));
    },
  );
});
