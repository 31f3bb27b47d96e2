/**
 * Checks an HTTP request as sent on the wire against an OpenAPI 3.0 description, independently of the
 * generator's request mapping: for specs Prism cannot load (Stripe's: `prism mock` never finishes starting
 * on it). The request is read the way a server reads it (the path matched against the spec's templates, the
 * query string and a form body parsed by `qs`, a JSON body by JSON.parse), then each parameter and the body
 * are validated with Ajv against the spec's own schemas (form and query values are text on the wire, so
 * Ajv coerces them to the schema's types, as a server's parser would). It checks what Prism checks: the path
 * and method exist, required parameters and body are present and valid, the content type is one the
 * operation accepts, and credentials are sent when the operation requires them.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse as parseQuery } from 'qs';

type Json = Record<string, unknown>;

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => void;

export interface WireRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface Operation {
  path: string;
  pattern: RegExp;
  names: string[];
  literalChars: number;
  method: string;
  operation: Json;
  parameters: Json[];
}

export class RequestValidator {
  private readonly ajv: Ajv;
  private readonly operations: Operation[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(private readonly doc: Json) {
    // Stripe's schemas carry vendor keywords and OpenAPI 3.0's `nullable`: strict off, no meta-schema check.
    this.ajv = new Ajv({ strict: false, coerceTypes: 'array', allErrors: true, validateSchema: false, logger: false });
    addFormats(this.ajv);
    this.ajv.addSchema(doc, 'spec');
    const paths = (doc['paths'] ?? {}) as Record<string, Json>;
    for (const [path, item] of Object.entries(paths)) {
      const names: string[] = [];
      const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^}]+)\}/g, (_, name: string) => {
        names.push(name);
        return '([^/]+)';
      });
      for (const method of ['get', 'put', 'post', 'delete', 'patch', 'head', 'options']) {
        const operation = item[method] as Json | undefined;
        if (!operation) continue;
        const parameters = [
          ...((item['parameters'] as Json[]) ?? []),
          ...((operation['parameters'] as Json[]) ?? []),
        ].map((p) => this.deref(p));
        this.operations.push({
          path,
          pattern: new RegExp(`^${source}$`),
          names,
          literalChars: path.replace(/\{[^}]+\}/g, '').length,
          method: method.toUpperCase(),
          operation,
          parameters,
        });
      }
    }
  }

  /** The operation a request is for, or why there is none. */
  match(method: string, pathname: string): Operation | string {
    const candidates = this.operations.filter((o) => o.pattern.test(pathname));
    if (candidates.length === 0) return `no path of the spec matches ${pathname}`;
    // A literal segment wins over a template (`/v1/customers/search` over `/v1/customers/{customer}`).
    const found = candidates.filter((o) => o.method === method).sort((a, b) => b.literalChars - a.literalChars)[0];
    return found ?? `${method} is not an operation of ${candidates[0]!.path}`;
  }

  /** The problems with the request; an empty list when the spec accepts it. */
  validate(request: WireRequest): string[] {
    const url = new URL(request.url, 'http://host');
    const found = this.match(request.method, url.pathname);
    if (typeof found === 'string') return [found];
    const problems: string[] = [];
    const match = found.pattern.exec(url.pathname)!;
    const query = parseQuery(url.search.slice(1), { depth: 20, arrayLimit: 1000 }) as Json;
    for (const param of found.parameters) {
      const name = String(param['name']);
      const where = String(param['in']);
      const value =
        where === 'path'
          ? decodeURIComponent(match[found.names.indexOf(name) + 1] ?? '')
          : where === 'query'
            ? query[name]
            : where === 'header'
              ? request.headers[name.toLowerCase()]
              : undefined;
      if (value === undefined) {
        if (param['required'] === true) problems.push(`missing required ${where} parameter ${name}`);
        continue;
      }
      if (param['schema']) problems.push(...this.check(`${where} parameter ${name}`, param['schema'] as Json, value));
    }
    problems.push(...this.checkBody(found, request), ...this.checkCredentials(found, request));
    return problems;
  }

  private checkBody(found: Operation, request: WireRequest): string[] {
    const body = found.operation['requestBody'] ? this.deref(found.operation['requestBody'] as Json) : undefined;
    const text = request.body.toString('utf8');
    if (!body) return [];
    if (text.length === 0) return body['required'] === true ? ['missing required request body'] : [];
    const contentType = String(request.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const content = (body['content'] ?? {}) as Record<string, Json>;
    const media = content[contentType];
    if (!media) return [`content type ${contentType || '(none)'} is not one of ${Object.keys(content).join(', ')}`];
    let value: unknown;
    if (contentType === 'application/x-www-form-urlencoded') value = parseQuery(text, { depth: 20, arrayLimit: 1000 });
    else if (contentType.includes('json')) {
      try {
        value = JSON.parse(text);
      } catch {
        return ['the JSON body does not parse'];
      }
    } else return [];
    return media['schema'] ? this.check('body', media['schema'] as Json, value) : [];
  }

  private checkCredentials(found: Operation, request: WireRequest): string[] {
    const requirements = (found.operation['security'] ?? this.doc['security']) as Json[] | undefined;
    if (!requirements || requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return [];
    return request.headers['authorization'] ? [] : ['the operation requires credentials and none were sent'];
  }

  private check(label: string, schema: Json, value: unknown): string[] {
    const key = JSON.stringify(schema);
    // Inside a holder object, so that Ajv's coercion (in place) reaches a top-level scalar too.
    const validate =
      this.compiled.get(key) ?? this.ajv.compile({ type: 'object', properties: { value: this.rebased(schema) } });
    this.compiled.set(key, validate);
    if (validate({ value: structuredClone(value) })) return [];
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${label}${e.instancePath.replace(/^\/value/, '')} ${e.message}`);
  }

  /** `#/components/…` refs point into the spec, which Ajv holds under the id `spec`. */
  private rebased(schema: unknown): Json {
    return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, '"$ref":"spec#/')) as Json;
  }

  /** Follows `$ref`s inside the document. */
  deref(node: Json): Json {
    let current = node;
    for (let i = 0; i < 10 && typeof current['$ref'] === 'string'; i++) {
      const pointer = (current['$ref'] as string).replace(/^#\//, '').split('/');
      let target: unknown = this.doc;
      for (const token of pointer) target = (target as Json)[token.replace(/~1/g, '/').replace(/~0/g, '~')];
      current = target as Json;
    }
    return current;
  }
}
