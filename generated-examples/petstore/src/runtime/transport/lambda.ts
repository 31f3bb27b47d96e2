/**
 * AWS Lambda behind a function URL or an API Gateway HTTP API (payload format 2.0): each event becomes a
 * web-standard Request for the one handler (web-handler.ts), and its Response becomes the result Lambda
 * expects. Responses are buffered (Lambda's default invoke mode), so an SSE answer arrives whole: fine for
 * the stateless exchanges, where a stream ends with its result.
 */
import { Buffer } from 'node:buffer';

/** The fields of a payload-format-2.0 event that a request needs. */
export interface LambdaHttpEvent {
  version?: string;
  rawPath: string;
  rawQueryString?: string;
  /** Lowercase names; repeated headers joined with commas. */
  headers?: Record<string, string | undefined>;
  /** Cookie headers, which format 2.0 moves out of `headers`. */
  cookies?: string[];
  body?: string;
  isBase64Encoded?: boolean;
  requestContext: { domainName?: string; http: { method: string } };
}

export interface LambdaHttpResult {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  isBase64Encoded: boolean;
}

export type LambdaHttpHandler = (event: LambdaHttpEvent) => Promise<LambdaHttpResult>;

/** `server` is built on the first event and kept for the life of the execution environment. */
export function lambdaHandler(
  server: () => Promise<{ fetch(request: Request): Promise<Response> }>,
): LambdaHttpHandler {
  let built: ReturnType<typeof server> | undefined;
  return async (event) => {
    built ??= server();
    return resultFromResponse(await (await built).fetch(requestFromEvent(event)));
  };
}

export function requestFromEvent(event: LambdaHttpEvent): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(event.headers ?? {})) if (value !== undefined) headers.set(name, value);
  if (event.cookies?.length) headers.set('cookie', event.cookies.join('; '));
  const host = headers.get('host') ?? event.requestContext.domainName ?? 'localhost';
  if (!headers.has('host')) headers.set('host', host);
  const query = event.rawQueryString ? `?${event.rawQueryString}` : '';
  const method = event.requestContext.http.method.toUpperCase();
  const hasBody = event.body !== undefined && method !== 'GET' && method !== 'HEAD';
  return new Request(`https://${host}${event.rawPath}${query}`, {
    method,
    headers,
    ...(hasBody ? { body: event.isBase64Encoded ? Buffer.from(event.body!, 'base64') : event.body } : {}),
  });
}

/** JSON, text and event streams go as text; anything else base64-encoded, as Lambda requires for binary. */
export async function resultFromResponse(response: Response): Promise<LambdaHttpResult> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  const type = response.headers.get('content-type') ?? '';
  const textual = type === '' || /^(text\/|application\/(json|.*\+json))/i.test(type);
  const bytes = Buffer.from(await response.arrayBuffer());
  return {
    statusCode: response.status,
    headers,
    ...(cookies.length > 0 ? { cookies } : {}),
    body: textual ? bytes.toString('utf8') : bytes.toString('base64'),
    isBase64Encoded: !textual,
  };
}
