/**
 * Path keys that carry a query string (`/fax/history/export?filename={filename}`), as specs converted from
 * other formats write them. OpenAPI forbids it, but the intent is plain: each `name={variable}` pair is a query
 * parameter, and the request must carry its value, not the placeholder. Literal pairs (`kind=inbound`) stay
 * in the path template and are sent as written (the runtime keeps a template's query string verbatim).
 */
import { createParameter } from '../ir/factory.js';
import type { ParameterModel } from '../ir/types.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';

export interface QueryTemplate {
  /** The query parameter's wire name (the pair's key). */
  name: string;
  /** The placeholder's name (the `{variable}`), usually the same. */
  variable: string;
}

export interface PathQuery {
  /** The path template to send: the path part, plus the literal pairs (`/calls?kind=inbound`). */
  requestPath: string;
  templates: QueryTemplate[];
}

const TEMPLATE_VALUE = /^\{([^{}]+)\}$/;

/** Splits a path key with a query string; undefined for an ordinary path. */
export function splitPathQuery(path: string): PathQuery | undefined {
  const questionMark = path.indexOf('?');
  if (questionMark === -1) return undefined;
  const literal: string[] = [];
  const templates: QueryTemplate[] = [];
  for (const pair of path.slice(questionMark + 1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const key = equals === -1 ? pair : pair.slice(0, equals);
    const variable = equals === -1 ? undefined : TEMPLATE_VALUE.exec(pair.slice(equals + 1))?.[1];
    if (variable !== undefined && key !== '' && !templates.some((t) => t.name === key))
      templates.push({ name: key, variable });
    else literal.push(pair);
  }
  const pathPart = path.slice(0, questionMark);
  return { requestPath: literal.length > 0 ? `${pathPart}?${literal.join('&')}` : pathPart, templates };
}

/** Reports, once per path key, how its query string is read. */
export function reportPathQuery(diags: Diagnostics, pathPointer: string, path: string, split: PathQuery): void {
  const literal = split.requestPath.includes('?')
    ? `; ${split.requestPath.slice(split.requestPath.indexOf('?') + 1)} is sent as written`
    : '';
  const params = split.templates.map((t) => t.name).join(', ');
  const read = params ? `its templates are sent as query parameters (${params})` : 'it is sent as written';
  diags.warn(
    'OTM_QUERY_IN_PATH',
    pathPointer,
    `path ${path} has a query string in its key: ${read}${literal}`,
    'Move the query part out of the path key and declare each value as an `in: query` parameter.',
  );
}

/**
 * The operation's parameters with each template as a query parameter: a declared query parameter of that
 * name is the template's; a path parameter named after the placeholder (what converters declare) becomes the
 * query parameter, keeping its schema and description; otherwise a required string is added.
 */
export function withQueryTemplates(
  parameters: readonly ParameterModel[],
  templates: readonly QueryTemplate[],
): ParameterModel[] {
  const result = [...parameters];
  for (const { name, variable } of templates) {
    if (result.some((p) => p.in === 'query' && p.name === name)) {
      const stray = result.findIndex((p) => p.in === 'path' && p.name === variable);
      if (stray !== -1) result.splice(stray, 1);
      continue;
    }
    const declared = result.findIndex((p) => p.in === 'path' && p.name === variable);
    const query =
      declared === -1
        ? createParameter({ name, in: 'query', required: true, schema: { type: 'string' } })
        : { ...result[declared]!, name, in: 'query' as const, style: 'form' as const, explode: true };
    if (declared === -1) result.push(query);
    else result[declared] = query;
  }
  return result;
}
