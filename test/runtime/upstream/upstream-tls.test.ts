/**
 * Mutual TLS and private CAs (API_TLS_*), in-process with createServer against an HTTPS upstream on 127.0.0.1 that
 * requires a client certificate signed by the test's own CA, for the API and for its OAuth token endpoint. The
 * certificates are made by openssl for this run (helpers/tls-certs.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generate } from '../../../src/pipeline.js';
import type { Catalog } from '../../../templates/runtime/contract/catalog.js';
import { createServer } from '../../../templates/runtime/server/create-server.js';
import type { Logger } from '../../../templates/runtime/server/log.js';
import { createWebServer } from '../../../templates/runtime/transport/web.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';
import { makeTestCertificates, type TestCertificates } from '../../helpers/tls-certs.js';

const work = mkdtempSync(join(tmpdir(), 'otm-upstream-tls-'));
let certs: TestCertificates;
let upstream: Server;
let base: string;
let catalogUrl: URL;
let oauthEnv: { clientId: string; clientSecret: string };
/** Every request that reached the upstream's handler: only those whose client certificate it accepted do. */
const seen: Array<{ method: string; path: string; client: string; authorization?: string }> = [];
const quiet: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

beforeAll(async () => {
  certs = makeTestCertificates();
  upstream = createHttpsServer(
    {
      key: certs.pem(certs.serverKey),
      cert: certs.pem(certs.serverCert),
      ca: certs.pem(certs.caCert),
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      const path = req.url ?? '';
      seen.push({
        method: req.method ?? '',
        path,
        client: String(peer.subject?.CN ?? ''),
        authorization: req.headers.authorization,
      });
      if (path === '/api/token') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ access_token: 'mtls-token', token_type: 'Bearer', expires_in: 3600 }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path }));
    },
  );
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(upstream.address() as AddressInfo).port}/api`;
  await generate({
    spec: join(REPO_ROOT, 'fixtures', 'specs', 'features', 'mutual-tls.yaml'),
    out: join(work, 'mtls-mcp'),
    validate: false,
  });
  catalogUrl = pathToFileURL(join(work, 'mtls-mcp', 'catalog.json'));
  const catalog = JSON.parse(readFileSync(catalogUrl, 'utf8')) as Catalog;
  const oauth = catalog.securitySchemes.find((s) => s.name === 'oauth')!;
  oauthEnv = { clientId: oauth.env.clientId!, clientSecret: oauth.env.clientSecret! };
});
afterAll(async () => {
  await new Promise<void>((resolve) => upstream?.close(() => resolve()));
  certs?.cleanup();
  rmSync(work, { recursive: true, force: true });
});
beforeEach(() => {
  seen.length = 0;
});

type CallResult = { content: Array<{ type: string; text?: string }>; isError?: boolean };

async function connect(env: Record<string, string>): Promise<Client> {
  const server = await createServer({ catalogUrl, env: { API_BASE_URL: base, ...env }, logger: quiet });
  const endpoint = await server.endpoint();
  const client = new Client(
    { name: 'upstream-tls-test', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => endpoint.fetch(new Request(url, init)),
    }),
  );
  return client;
}

async function call(client: Client, name: string): Promise<{ text: string; isError: boolean }> {
  const result = (await client.callTool({ name, arguments: {} })) as CallResult;
  return { text: result.content.map((c) => c.text ?? '').join('\n'), isError: result.isError === true };
}

const withCa = () => ({ API_TLS_CA_FILE: certs.caCert });
const withClientCert = () => ({
  ...withCa(),
  API_TLS_CERT_FILE: certs.clientCert,
  API_TLS_PRIVATE_FILE: certs.clientKey,
});

describe('an upstream that requires a client certificate', () => {
  it('without one, a call fails with an error that names the variables to set', async () => {
    const client = await connect(withCa());
    const ping = await call(client, 'ping');
    expect(ping.isError).toBe(true);
    expect(ping.text).toContain(
      `TLS with ${new URL(base).origin} failed for GET /ping: the API asks for a client certificate`,
    );
    expect(ping.text).toContain('set API_TLS_CERT_FILE and API_TLS_PRIVATE_FILE');
    // An operation whose security requires the mutualTLS scheme is refused before any request.
    const accounts = await call(client, 'listAccounts');
    expect(accounts).toEqual({
      isError: true,
      text: "Missing credentials for listAccounts: set API_TLS_CERT_FILE and API_TLS_PRIVATE_FILE in the server's environment.",
    });
    expect(seen).toEqual([]);
    await client.close();
  });

  it('with one, every call presents it and succeeds', async () => {
    const client = await connect(withClientCert());
    expect(await call(client, 'ping')).toEqual({ isError: false, text: '{"path":"/api/ping"}' });
    expect(await call(client, 'listAccounts')).toEqual({ isError: false, text: '{"path":"/api/accounts"}' });
    expect(seen.map((r) => [r.path, r.client])).toEqual([
      ['/api/ping', 'client'],
      ['/api/accounts', 'client'],
    ]);
    await client.close();
  });

  it('takes an encrypted key with its passphrase', async () => {
    const client = await connect({
      ...withClientCert(),
      API_TLS_PRIVATE_FILE: certs.clientKeyEncrypted,
      API_TLS_PASSPHRASE: certs.passphrase,
    });
    expect((await call(client, 'listAccounts')).isError).toBe(false);
    await client.close();
  });

  it('gets the OAuth token over the same mutual TLS, then calls with it', async () => {
    const client = await connect({
      ...withClientCert(),
      [oauthEnv.clientId]: 'reporting',
      [oauthEnv.clientSecret]: 'client-secret-1',
    });
    expect(await call(client, 'listReports')).toEqual({ isError: false, text: '{"path":"/api/reports"}' });
    expect(seen.map((r) => [r.method, r.path, r.client, r.authorization?.split(' ')[0]])).toEqual([
      ['POST', '/api/token', 'client', 'Basic'],
      ['GET', '/api/reports', 'client', 'Bearer'],
    ]);
    expect(seen[1]!.authorization).toBe('Bearer mtls-token');
    await client.close();
  });

  it("refuses the API's certificate when API_TLS_CA_FILE names another CA, saying so", async () => {
    const client = await connect({ ...withClientCert(), API_TLS_CA_FILE: certs.otherCaCert });
    const ping = await call(client, 'ping');
    expect(ping.isError).toBe(true);
    expect(ping.text).toContain("the API's certificate could not be verified (");
    expect(ping.text).toContain("set API_TLS_CA_FILE to that CA's PEM file");
    expect(seen).toEqual([]);
    await client.close();
  });
});

describe('API_TLS_* settings that cannot be used stop the start', () => {
  const start = (env: Record<string, string>, options: { fetch?: typeof fetch } = {}) =>
    createServer({ catalogUrl, env: { API_BASE_URL: base, ...env }, logger: quiet, ...options });

  it('a file that cannot be read, a certificate without its key, a wrong passphrase', async () => {
    await expect(start({ ...withClientCert(), API_TLS_CERT_FILE: join(work, 'missing.pem') })).rejects.toThrow(
      `API_TLS_CERT_FILE: cannot read ${join(work, 'missing.pem')} (ENOENT`,
    );
    await expect(start({ API_TLS_CERT_FILE: certs.clientCert })).rejects.toThrow(
      'API_TLS_CERT_FILE is set without API_TLS_PRIVATE_FILE: a client certificate needs both',
    );
    await expect(
      start({ ...withClientCert(), API_TLS_PRIVATE_FILE: certs.clientKeyEncrypted, API_TLS_PASSPHRASE: 'wrong' }),
    ).rejects.toThrow('the API_TLS_* files cannot be used');
  });

  it('on a server that sends through fetch (the web targets, or a fetch given to createServer)', async () => {
    const refusal =
      'API_TLS_CERT_FILE, API_TLS_PRIVATE_FILE are set, but this server sends upstream requests through fetch';
    await expect(
      start({ API_TLS_CERT_FILE: certs.clientCert, API_TLS_PRIVATE_FILE: certs.clientKey }, { fetch }),
    ).rejects.toThrow(refusal);
    await expect(
      createWebServer({
        catalog: readFileSync(catalogUrl),
        searchIndex: () => ({}) as never,
        env: { API_BASE_URL: base, API_TLS_CERT_FILE: '/x.pem', API_TLS_PRIVATE_FILE: '/x.key' },
        logger: quiet,
      }),
    ).rejects.toThrow(refusal);
  });
});
