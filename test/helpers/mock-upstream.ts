/** A scripted upstream API on 127.0.0.1 that records every request it receives, byte for byte. */
import { createServer, type IncomingMessage, type Server } from 'node:http';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as sent (still percent-encoded). */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface MockResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Answer only after this long (a slow upstream). */
  delayMs?: number;
  /** Answer only once this settles (a call kept in flight until the test lets it end). */
  hold?: Promise<void>;
}

export type Responder = (req: RecordedRequest) => MockResponse;

export interface MockUpstream {
  url: string;
  requests: RecordedRequest[];
  respond: (responder: Responder) => void;
  close: () => Promise<void>;
}

const defaultResponder: Responder = () => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: '{"ok":true}',
});

export async function startMockUpstream(): Promise<MockUpstream> {
  const requests: RecordedRequest[] = [];
  let responder = defaultResponder;
  const server: Server = createServer(async (req, res) => {
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: await readBody(req),
    };
    requests.push(recorded);
    const answer = responder(recorded);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (answer.hold) await answer.hold;
    res.writeHead(answer.status ?? 200, answer.headers ?? {});
    res.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respond: (r) => {
      responder = r;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
