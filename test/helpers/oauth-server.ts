/**
 * A local OAuth 2 authorization server on 127.0.0.1 for tests: a client-credentials token endpoint
 * (`POST /token`) and a token introspection endpoint (`POST /introspect`, RFC 7662). Every request is recorded.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface RecordedOAuthRequest {
  path: string;
  authorization?: string;
  contentType?: string;
  form: Record<string, string>;
}

export interface TokenAnswer {
  status?: number;
  body: Record<string, unknown>;
  /** Answer after this many milliseconds (to make concurrent callers overlap). */
  delayMs?: number;
}

export interface OAuthServer {
  url: string;
  requests: RecordedOAuthRequest[];
  /** Decides each token endpoint answer (`n` counts from 1 again); default: a new `at-<n>` bearer token valid for an hour. */
  onToken: (handler: (req: RecordedOAuthRequest, n: number) => TokenAnswer) => void;
  /** Decides each introspection answer; default: `{ active: false }`. */
  onIntrospect: (handler: (req: RecordedOAuthRequest) => Record<string, unknown>) => void;
  close: () => Promise<void>;
}

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
}

export async function startOAuthServer(): Promise<OAuthServer> {
  const requests: RecordedOAuthRequest[] = [];
  let tokens = 0;
  let tokenHandler = (_req: RecordedOAuthRequest, n: number): TokenAnswer => ({
    body: { access_token: `at-${n}`, token_type: 'Bearer', expires_in: 3600 },
  });
  let introspectHandler = (_req: RecordedOAuthRequest): Record<string, unknown> => ({ active: false });
  const server: Server = createServer(async (req, res) => {
    const recorded = await record(req);
    requests.push(recorded);
    if (recorded.path === '/token') {
      const answer = tokenHandler(recorded, ++tokens);
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(answer.body));
    }
    if (recorded.path === '/introspect') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(introspectHandler(recorded)));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    onToken: (handler) => {
      tokenHandler = handler;
      tokens = 0;
    },
    onIntrospect: (handler) => {
      introspectHandler = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function record(req: IncomingMessage): Promise<RecordedOAuthRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
  return {
    path: (req.url ?? '/').split('?')[0] ?? '/',
    ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
    form,
  };
}
