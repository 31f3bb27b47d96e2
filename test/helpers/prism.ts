/**
 * Prism (the OpenAPI mock server) as a validating upstream for tests, behind a recording proxy on 127.0.0.1
 * that keeps every request and Prism's verdict on it: a problem+json body whose `type` is one of Prism's
 * error types, or (when the spec defines its own 4xx answer, which Prism then returns instead) an
 * `sl-violations` header with a request violation of severity Error.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request as httpRequest, Agent, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import type { Catalog } from '../../templates/runtime/contract/catalog.js';
import { REPO_ROOT } from './generated-project.js';
import { freePort } from './spawn-http.js';

export const PRISM_ERROR_PREFIX = 'https://stoplight.io/prism/errors#';
const PRISM_CLI = join(REPO_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export interface PrismVerdict {
  /** Prism's error type (`UNPROCESSABLE_ENTITY`, `NO_PATH_MATCHED_ERROR`, …) or `sl-violations`. */
  type: string;
  status: number;
  messages: string[];
}

interface Violation {
  severity?: unknown;
  location?: unknown;
  message?: unknown;
}

/** Prism's verdict on one request, from its answer; null when Prism found nothing wrong with the request. */
export function prismVerdict(status: number, headers: IncomingHttpHeaders, bodyText: string): PrismVerdict | null {
  const body = parseProblem(bodyText);
  if (body && typeof body.type === 'string' && body.type.startsWith(PRISM_ERROR_PREFIX)) {
    const messages = Array.isArray(body.validation)
      ? body.validation.map(describeViolation)
      : [String(body.detail ?? body.title ?? '')];
    return { type: body.type.slice(PRISM_ERROR_PREFIX.length), status, messages };
  }
  const header = headers['sl-violations'];
  let violations: unknown;
  try {
    violations = typeof header === 'string' ? JSON.parse(header) : null;
  } catch {
    violations = null;
  }
  // sl-violations also lists violations of Prism's own (example) response: those say nothing about the request.
  const errors = Array.isArray(violations)
    ? (violations as Violation[]).filter(
        (v) =>
          String(v.severity).toLowerCase() === 'error' &&
          (Array.isArray(v.location) ? v.location[0] : undefined) !== 'response',
      )
    : [];
  return errors.length > 0 ? { type: 'sl-violations', status, messages: errors.map(describeViolation) } : null;
}

interface Problem {
  type?: unknown;
  title?: unknown;
  detail?: unknown;
  validation?: Violation[];
}

function parseProblem(text: string): Problem | null {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' ? (value as Problem) : null;
  } catch {
    return null;
  }
}

function describeViolation(v: Violation): string {
  return `${Array.isArray(v.location) ? v.location.join('.') : ''}: ${String(v.message)}`;
}

export interface ProxiedRequest {
  method: string;
  /** Path and query as sent. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
  status?: number;
  verdict?: PrismVerdict | null;
  /** Set when the request got no answer from Prism. */
  error?: string;
}

export interface RecordingProxy {
  url: string;
  log: ProxiedRequest[];
  /** Resolves when no request is in flight (or after `ms`). */
  idle: (ms?: number) => Promise<void>;
  close: () => Promise<void>;
}

/** A recording HTTP proxy on 127.0.0.1 in front of the server listening on 127.0.0.1:`targetPort`. */
export async function startRecordingProxy(targetPort: number): Promise<RecordingProxy> {
  const log: ProxiedRequest[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  let inflight = 0;
  let waiters: Array<() => void> = [];
  const finished = (): void => {
    if (--inflight > 0) return;
    for (const w of waiters) w();
    waiters = [];
  };
  const server: Server = createServer((req, res) => {
    const entry: ProxiedRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      headers: req.headers,
      body: Buffer.alloc(0),
    };
    log.push(entry);
    inflight++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      entry.body = Buffer.concat(chunks);
      const headers: IncomingHttpHeaders = {
        ...req.headers,
        host: `127.0.0.1:${targetPort}`,
        'content-length': String(entry.body.length),
      };
      for (const h of ['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding']) delete headers[h];
      const upstream = httpRequest(
        { host: '127.0.0.1', port: targetPort, method: entry.method, path: entry.url, headers, agent },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            const bytes = Buffer.concat(body);
            entry.status = answer.statusCode ?? 0;
            entry.verdict = prismVerdict(entry.status, answer.headers, bytes.toString('utf8'));
            const out: IncomingHttpHeaders = { ...answer.headers, 'content-length': String(bytes.length) };
            for (const h of ['connection', 'keep-alive', 'transfer-encoding']) delete out[h];
            res.writeHead(entry.status, out);
            res.end(bytes);
            finished();
          });
          answer.on('error', (err) => {
            entry.error = err.message;
            res.destroy();
            finished();
          });
        },
      );
      upstream.setTimeout(20_000, () => upstream.destroy(new Error('Prism did not answer within 20 s')));
      upstream.on('error', (err) => {
        entry.error = `proxy -> Prism: ${err.message}`;
        if (!res.headersSent) res.writeHead(502);
        res.end();
        finished();
      });
      upstream.end(entry.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    idle: (ms = 3000) =>
      inflight === 0
        ? Promise.resolve()
        : Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise<void>((r) => setTimeout(r, ms))]),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface PrismMock {
  port: number;
  url: string;
  /** What Prism printed so far (for failure messages). */
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts `prism mock` for `spec` on a free 127.0.0.1 port and waits (at most `timeoutMs`) until it answers. */
export async function startPrism(spec: string, timeoutMs = 90_000): Promise<PrismMock> {
  const port = await freePort();
  const child = spawn(process.execPath, [PRISM_CLI, 'mock', '-h', '127.0.0.1', '-p', String(port), spec], {
    env: { PATH: process.env['PATH'] ?? '', NO_PROXY: '127.0.0.1', no_proxy: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (c: Buffer): void => {
    output = (output + c.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const mock: PrismMock = { port, url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stopChild(child) };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`prism exited (${child.exitCode ?? child.signalCode}):\n${output}`);
    if (await answers(port)) return mock;
    await new Promise((r) => setTimeout(r, 300));
  }
  await mock.stop();
  throw new Error(`prism did not listen within ${timeoutMs} ms:\n${output}`);
}

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path: '/__ready_probe__', method: 'GET' }, (res) => {
      res.resume();
      resolve(true);
    });
    req.setTimeout(2000, () => req.destroy());
    req.on('error', () => resolve(false));
    req.end();
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A dummy value for every credential variable of the API's security schemes (never a token URL or scopes). */
export function credentialEnv(catalog: Catalog): Record<string, string> {
  const env: Record<string, string> = {};
  for (const scheme of catalog.securitySchemes) {
    for (const key of ['value', 'username', 'password', 'clientId', 'clientSecret'] as const) {
      const name = scheme.env[key];
      if (name) env[name] = `test-${name.toLowerCase()}`;
    }
  }
  return env;
}
