/**
 * An upstream for a spec Prism cannot load: on 127.0.0.1, it judges every request with RequestValidator
 * (independent of the generator's request mapping) and answers a valid one with its success response
 * sampled from the spec (openapi-sampler, as Prism's static mode answers with an example), an invalid one
 * with 422 and the problems.
 */
import { createServer, type Server } from 'node:http';
import { sample } from 'openapi-sampler';
import { RequestValidator } from './request-validator.js';

export interface JudgedRequest {
  method: string;
  url: string;
  status: number;
  problems: string[];
}

export interface SpecUpstream {
  url: string;
  log: JudgedRequest[];
  close: () => Promise<void>;
}

export async function startSpecUpstream(doc: Record<string, unknown>): Promise<SpecUpstream> {
  const validator = new RequestValidator(doc);
  const samples = new Map<string, string>();
  const log: JudgedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      const problems = validator.validate(request);
      const found = validator.match(request.method, new URL(request.url, 'http://host').pathname);
      const body =
        problems.length > 0 || typeof found === 'string'
          ? JSON.stringify({ problems })
          : sampledResponse(validator, found.operation, doc, samples, `${found.method} ${found.path}`);
      const status = problems.length > 0 ? 422 : 200;
      log.push({ method: request.method, url: request.url, status, problems });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function sampledResponse(
  validator: RequestValidator,
  operation: Record<string, unknown>,
  doc: Record<string, unknown>,
  samples: Map<string, string>,
  key: string,
): string {
  const cached = samples.get(key);
  if (cached !== undefined) return cached;
  const responses = (operation['responses'] ?? {}) as Record<string, Record<string, unknown>>;
  const success = validator.deref(responses['200'] ?? responses['201'] ?? responses['default'] ?? {});
  const schema = ((success['content'] as Record<string, Record<string, unknown>> | undefined)?.['application/json'] ??
    {})['schema'];
  const text = JSON.stringify(schema ? sample(schema as object, { skipReadOnly: false }, doc) : {});
  samples.set(key, text);
  return text;
}
