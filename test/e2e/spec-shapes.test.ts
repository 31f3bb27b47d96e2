/**
 * End to end, the spec shapes real APIs ship that OpenAPI tools often get wrong (issue 17): query templates in
 * path keys, siblings of `$ref` (3.0 ignores them, 3.1 applies them), `format: binary` against `format: byte`
 * bodies, required bodies without a schema, and multipart arrays and objects. Each fixture in
 * fixtures/specs/features/ is generated, built and started over stdio with the SDK v2 client; every call is
 * checked against the exact request a local mock received, and, where Prism can judge the spec (not the invalid
 * path keys, not multipart arrays and objects: see there), the same calls are sent to Prism, which must find
 * nothing wrong with them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { generateAndBuild, REPO_ROOT, type BuiltProject } from '../helpers/generated-project.js';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { connectModernStdio } from '../helpers/mcp-clients.js';
import { parseMultipart } from '../helpers/multipart.js';
import { startPrism, startRecordingProxy } from '../helpers/prism.js';

const FEATURES = `${REPO_ROOT}/fixtures/specs/features`;

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };
type Call = [tool: string, args: Record<string, unknown>];

let upstream: MockUpstream;

beforeAll(async () => {
  upstream = await startMockUpstream();
});

afterAll(async () => {
  await upstream?.close();
});

function text(result: CallResult): string {
  return result.content.map((c) => c.text ?? '').join('');
}

/** A fixture's project, started over stdio against the mock. */
function served(fixture: string): { project: () => BuiltProject; client: () => Client } {
  let project: BuiltProject;
  let client: Client;
  beforeAll(async () => {
    project = await generateAndBuild(`${FEATURES}/${fixture}`);
    client = await connectModernStdio(project.entry, { API_BASE_URL: upstream.url });
  });
  afterAll(async () => {
    await client?.close();
    project?.cleanup();
  });
  return { project: () => project, client: () => client };
}

async function call(client: Client, [name, args]: Call): Promise<CallResult> {
  return (await client.callTool({ name, arguments: args })) as CallResult;
}

/** Calls a tool that must succeed; returns the one request the mock received. */
async function sent(client: Client, tool: Call): Promise<RecordedRequest> {
  upstream.requests.length = 0;
  const result = await call(client, tool);
  expect(result.isError, text(result)).toBeFalsy();
  expect(upstream.requests).toHaveLength(1);
  return upstream.requests[0]!;
}

/** Calls a tool that must be refused before any request; returns the error text. */
async function refused(client: Client, tool: Call): Promise<string> {
  upstream.requests.length = 0;
  const result = await call(client, tool);
  expect(result.isError).toBe(true);
  expect(upstream.requests).toHaveLength(0);
  return text(result);
}

/** Sends the calls through a server of `project` to Prism mocking `fixture`: Prism must accept every request. */
async function expectPrismAccepts(project: BuiltProject, fixture: string, calls: Call[]): Promise<void> {
  const prism = await startPrism(`${FEATURES}/${fixture}`);
  const proxy = await startRecordingProxy(prism.port);
  const client = await connectModernStdio(project.entry, { API_BASE_URL: proxy.url });
  try {
    for (const tool of calls) {
      const result = await call(client, tool);
      expect(result.isError, `${tool[0]}: ${text(result)}`).toBeFalsy();
    }
    await proxy.idle();
    expect(proxy.log).toHaveLength(calls.length);
    for (const entry of proxy.log)
      expect(
        entry.verdict,
        `${entry.method} ${entry.url}: ${JSON.stringify(entry.verdict)}\n${prism.output().slice(-2000)}`,
      ).toBeNull();
  } finally {
    await client.close();
    await proxy.close();
    await prism.stop();
  }
}

describe('query-in-path.yaml: query templates inside path keys', () => {
  const { project, client } = served('query-in-path.yaml');

  it('warns once per path key, with the code, the pointer and a hint', () => {
    const warnings = project().result.diagnostics.filter((d) => d.code === 'OTM_QUERY_IN_PATH');
    expect(warnings.map((d) => d.pointer)).toEqual([
      '#/paths/~1fax~1history~1export?filename={filename}',
      '#/paths/~1sms~1history?date_from={date_from}&date_to={date_to}',
      '#/paths/~1calls?kind=inbound&since={since}',
    ]);
    expect(warnings.every((d) => d.severity === 'warning' && d.hint?.includes('in: query'))).toBe(true);
    expect(project().result.diagnostics.filter((d) => d.code === 'OTM_PATH_PARAM_MISSING')).toEqual([]);
  });

  it('sends the value of a template declared as a path parameter as a query parameter', async () => {
    const req = await sent(client(), ['exportFaxHistory', { filename: 'march 2024.csv' }]);
    expect(req.url).toBe('/fax/history/export?filename=march%202024.csv');
  });

  it('adds undeclared templates as required query parameters next to the declared ones', async () => {
    const { tools } = await client().listTools();
    expect(tools.find((t) => t.name === 'smsHistory')!.inputSchema.required).toEqual(['date_from', 'date_to']);
    const req = await sent(client(), ['smsHistory', { date_from: '2024-01-01', date_to: '2024-01-31', limit: 5 }]);
    expect(req.url).toBe('/sms/history?limit=5&date_from=2024-01-01&date_to=2024-01-31');
    expect(await refused(client(), ['smsHistory', { date_from: '2024-01-01' }])).toContain('date_to');
  });

  it('keeps literal pairs as written and merges a template with the query parameter declared for it', async () => {
    const { tools } = await client().listTools();
    expect(tools.find((t) => t.name === 'inboundCalls')!.inputSchema.properties).toEqual({
      since: { type: 'string', format: 'date', description: 'Start date' },
    });
    expect((await sent(client(), ['inboundCalls', { since: '2024-03-01' }])).url).toBe(
      '/calls?kind=inbound&since=2024-03-01',
    );
    expect((await sent(client(), ['inboundCalls', {}])).url).toBe('/calls?kind=inbound');
  });
});

describe('ref-siblings.yaml: OpenAPI 3.0 ignores the siblings of $ref', () => {
  const { project, client } = served('ref-siblings.yaml');

  it('takes the referenced type, not the sibling one, and ignores sibling bounds', async () => {
    expect((await sent(client(), ['getOrder', { orderId: 42, page: 100 }])).url).toBe('/orders/42?page=100');
    expect(await refused(client(), ['getOrder', { orderId: 'abc' }])).toContain('orderId');
  });

  it('is what Prism accepts', async () => {
    // Prism applies 3.0 siblings too (it refuses page 100 here): it judges the referenced integer type only.
    await expectPrismAccepts(project(), 'ref-siblings.yaml', [['getOrder', { orderId: 42, page: 20 }]]);
  });
});

describe('ref-siblings-31.yaml: OpenAPI 3.1 applies the siblings of $ref', () => {
  const { project, client } = served('ref-siblings-31.yaml');
  const calls: Call[] = [['getOrder', { orderId: 42, page: 50 }]];

  it('applies a sibling bound next to the referenced schema', async () => {
    expect(await refused(client(), ['getOrder', { orderId: 42, page: 100 }])).toContain('page');
    expect((await sent(client(), calls[0]!)).url).toBe('/orders/42?page=50');
  });

  it('is what Prism accepts', async () => {
    await expectPrismAccepts(project(), 'ref-siblings-31.yaml', calls);
  });
});

describe('binary-bodies.yaml: format binary is raw octets, format byte is base64 text', () => {
  const { project, client } = served('binary-bodies.yaml');
  const bytes = Buffer.from([0, 1, 2, 0xfe, 0xff]);
  const invoice = '4f7c9d2e-1a3b-4c5d-8e9f-0a1b2c3d4e5f';
  const calls: Call[] = [
    ['putRaw', { body: { base64: bytes.toString('base64') } }],
    ['putEncoded', { body: bytes.toString('base64') }],
    ['createInvoiceAttachmentByFileName', { InvoiceID: invoice, FileName: 'a.pdf', body: 'JVBERi0xLjQK' }],
    ['putEncodedText', { body: 'AAEC_v8=' }],
    ['putEncodedJson', { body: 'AAEC/v8=' }],
  ];

  it('says in each tool description and input schema what to pass', async () => {
    const { tools } = await client().listTools();
    expect(tools.find((t) => t.name === 'putRaw')!.description).toContain(
      'raw bytes; pass them base64-encoded as `body: { base64 }`',
    );
    const encoded = tools.find((t) => t.name === 'putEncoded')!;
    expect(encoded.description).toContain('base64 text; pass it as the string `body` (RFC 4648');
    expect(encoded.inputSchema.properties!['body']).toMatchObject({ type: 'string', contentEncoding: 'base64' });
  });

  it('decodes a format binary body and sends the bytes', async () => {
    const req = await sent(client(), calls[0]!);
    expect(req.headers['content-type']).toBe('application/octet-stream');
    expect(req.body.equals(bytes)).toBe(true);
  });

  it('sends a format byte body as the base64 text it is, under a binary, text or JSON media type', async () => {
    const octets = await sent(client(), calls[1]!);
    expect(octets.headers['content-type']).toBe('application/octet-stream');
    expect(octets.body.equals(Buffer.from('AAEC/v8=', 'latin1'))).toBe(true);
    const text = await sent(client(), calls[3]!);
    expect(text.headers['content-type']).toBe('text/plain');
    // Written in the URL-safe alphabet, sent in the standard one that format: byte means.
    expect(text.body.equals(Buffer.from('AAEC/v8=', 'latin1'))).toBe(true);
    const json = await sent(client(), calls[4]!);
    expect(json.headers['content-type']).toBe('application/json');
    expect(json.body.equals(Buffer.from('"AAEC/v8="', 'latin1'))).toBe(true);
  });

  it('refuses a format byte body that is not base64 before sending it, saying how to fix it', async () => {
    for (const body of ['string', 'aGVsbG8', 'data:application/pdf;base64,JVBERi0xLjQK', 'AAEC/v8_']) {
      const message = await refused(client(), ['putEncoded', { body }]);
      expect(message).toContain('"body" must be base64 (RFC 4648');
      expect(message).toContain("encode the file's bytes");
    }
    await refused(client(), ['putEncoded', { body: { base64: 'AAEC/v8=' } }]);
    await refused(client(), ['putEncodedJson', { body: 'not base64!' }]);
  });

  it('is what Prism accepts', async () => {
    await expectPrismAccepts(project(), 'binary-bodies.yaml', calls);
  });
});

describe('patterns.yaml: one caller cannot freeze the server with an argument', () => {
  const { project, client } = served('patterns.yaml');

  it('refuses at once an argument on which the pattern backtracks for ever in JavaScript, then serves the next', async () => {
    const error = await refused(client(), ['findPeople', { name: `${'a'.repeat(100_000)}!` }]);
    expect(error).toContain('must match pattern "^(\\w+\\s?)*$"');
    const req = await sent(client(), ['findPeople', { name: 'ann lee' }]);
    expect(req.url).toBe('/people?name=ann%20lee');
  });

  it('leaves out, with a note, a pattern no linear-time engine can check: the API checks it', async () => {
    expect(project().result.diagnostics.map((d) => [d.code, d.pointer])).toContainEqual([
      'OTM_SCHEMA_SIMPLIFIED',
      '#/paths/~1people/get/parameters/1/schema',
    ]);
    const req = await sent(client(), ['findPeople', { name: 'ann', nickname: ' ' }]);
    expect(req.url).toBe('/people?name=ann&nickname=%20');
  });
});

describe('required-body.yaml: a required body is always sent', () => {
  const { project, client } = served('required-body.yaml');
  // confirm: endSession is a DELETE, and the test client cannot be asked (the fallback argument).
  const calls: Call[] = [['endSession', { id: 's1', body: {}, confirm: true }]];

  it('requires the body argument, and refuses null', async () => {
    expect(await refused(client(), ['endSession', { id: 's1' }])).toContain('body');
    expect(await refused(client(), ['endSession', { id: 's1', body: null }])).toContain('body');
  });

  it('sends the body given, {} for nothing', async () => {
    const req = await sent(client(), calls[0]!);
    expect(req.method).toBe('DELETE');
    expect(req.url).toBe('/sessions/s1');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body.toString()).toBe('{}');
  });

  it('leaves an optional body without a schema out when it is not given', async () => {
    const req = await sent(client(), ['postNote', {}]);
    expect(req.body.length).toBe(0);
    expect(req.headers['content-type']).toBeUndefined();
  });

  it('is what Prism accepts', async () => {
    await expectPrismAccepts(project(), 'required-body.yaml', calls);
  });
});

describe('multipart.yaml: arrays as repeated parts, objects as JSON parts, encoding honored', () => {
  const { client } = served('multipart.yaml');
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  const message = {
    to: ['a@example.com', 'b@example.com'],
    priority: 2,
    options: { track: true },
    recipients: [{ name: 'A', email: 'a@example.com' }, { name: 'B' }],
    attachments: [
      { base64: png.toString('base64'), filename: 'a.png', contentType: 'image/png' },
      { base64: png.toString('base64'), filename: 'b.bin' },
    ],
    headers: { 'X-Campaign': 'spring' },
    footer: '**bye**',
  };

  // Prism cannot judge these: its multipart parser keeps one string per name (repeated parts, JSON parts), so
  // it refuses every array and object field whatever is sent. The parts are asserted byte for byte instead.
  it('sends every field as the parts OpenAPI describes', async () => {
    const parts = parseMultipart(await sent(client(), ['sendMessage', { body: message }]));
    const summary = parts.map((p) => [p.name, p.filename ?? null, p.contentType ?? null, p.body.toString('latin1')]);
    expect(summary).toEqual([
      ['to', null, null, 'a@example.com'],
      ['to', null, null, 'b@example.com'],
      ['priority', null, null, '2'],
      ['options', null, 'application/json', '{"track":true}'],
      ['recipients', null, 'application/json', '{"name":"A","email":"a@example.com"}'],
      ['recipients', null, 'application/json', '{"name":"B"}'],
      ['attachments', 'a.png', 'image/png', png.toString('latin1')],
      // The encoding names a list of types, which cannot be sent: the file's own type, else octet-stream.
      ['attachments', 'b.bin', 'application/octet-stream', png.toString('latin1')],
      ['headers', null, 'application/vnd.mail+json', '{"X-Campaign":"spring"}'],
      ['footer', null, 'text/markdown', '**bye**'],
    ]);
  });
});
