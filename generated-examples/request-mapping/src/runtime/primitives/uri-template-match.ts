/**
 * Matches a URI against an RFC 6570 template, for resource templates. The path part is matched as the SDK's
 * `UriTemplate.match` matches it, but in linear time; a query expression (`{?a,b}`, `{&c}`) is read here
 * instead, because the SDK's requires every query variable, in template order, while a resource's query
 * arguments are optional and come in any order. Values stay percent-encoded, as the SDK leaves them.
 *
 * Why not the SDK's match: it builds a JavaScript regular expression, `^files://([^/,]+)\.([^/,]+)$` for
 * `files://{name}.{ext}`, and JavaScript's engine backtracks. On a URI that does not end as the template does it
 * tries every split of it between the variables: 7.4 s for 200,000 characters with two variables, 16 s for 8,000
 * with three (`x://{a}-{b}-{c}`), and the SDK reads URIs of up to 1,000,000, each on the server's one thread. The
 * same expression is compiled here with RE2 (re2js, as spec patterns are: contract/linear-pattern.ts), loaded on
 * the first read, so a server's start does not pay for it.
 */
import type { RE2JS } from 're2js';
import { UriTemplate, type Variables } from '@modelcontextprotocol/server';

export type UriMatcher = (uri: string) => Promise<Variables | null>;

export function uriMatcher(uriTemplate: string): UriMatcher {
  const queryAt = uriTemplate.search(/\{[?&]/);
  const pathTemplate = queryAt < 0 ? uriTemplate : uriTemplate.slice(0, queryAt);
  // The SDK checks the template now (an owner's bad template fails at start, as it did); RE2 on first use.
  new UriTemplate(pathTemplate);
  const parts = templateParts(pathTemplate);
  let compiled: Promise<PathMatcher> | undefined;
  const path = () => (compiled ??= loadRe2().then((re2) => linearPathMatcher(parts, re2)));
  const queryNames =
    queryAt < 0
      ? []
      : [...uriTemplate.slice(queryAt).matchAll(/\{[?&]([^}]*)\}/g)].flatMap((m) =>
          m[1]!.split(',').map((name) => name.replace(/(\*|:\d+)$/, '').trim()),
        );
  return async (uri) => {
    const questionMark = uri.indexOf('?');
    const matched = (await path())(questionMark < 0 ? uri : uri.slice(0, questionMark));
    if (!matched) return null;
    if (questionMark < 0) return matched;
    const variables: Variables = { ...matched };
    for (const pair of uri.slice(questionMark + 1).split('&')) {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      // A query the template does not declare is not this resource.
      if (!queryNames.includes(name)) return null;
      const value = equals < 0 ? '' : pair.slice(equals + 1);
      const previous = variables[name];
      variables[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
    return variables;
  };
}

let re2js: Promise<typeof import('re2js')> | undefined;

function loadRe2(): NonNullable<typeof re2js> {
  return (re2js ??= import('re2js'));
}

/** The SDK's limit on a template and on a URI matched against it. */
const MAX_URI_LENGTH = 1_000_000;

/** JavaScript's `.`: anything but a line terminator (RE2's `.` leaves out `\n` only). */
const ANY = String.raw`[^\n\r\x{2028}\x{2029}]`;

/**
 * The SDK's `UriTemplate.match` for a template without query expressions: the same expression, part by part
 * (its `partToRegExp`), compiled with RE2, and the same variables out of it.
 */
function linearPathMatcher(
  parts: ReadonlyArray<string | TemplatePart>,
  { RE2JS: re2 }: typeof import('re2js'),
): PathMatcher {
  let pattern = '^';
  const names: Array<{ name: string; exploded: boolean }> = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      pattern += re2.quote(part);
      continue;
    }
    pattern += partPattern(part.operator, part.exploded);
    names.push({ name: part.name, exploded: part.exploded });
  }
  const compiled: RE2JS = re2.compile(`${pattern}$`);
  return (uri) => {
    if (uri.length > MAX_URI_LENGTH)
      throw new Error(`URI exceeds maximum length of ${MAX_URI_LENGTH} characters (got ${uri.length})`);
    const match = compiled.matcher(uri);
    if (!match.matches()) return null;
    const variables: Variables = {};
    names.forEach(({ name, exploded }, i) => {
      const value = match.group(i + 1) ?? '';
      variables[name] = exploded && value.includes(',') ? value.split(',') : value;
    });
    return variables;
  };
}

type PathMatcher = (uri: string) => Variables | null;

/**
 * A template's literal text and its expressions (RFC 6570: `{`, an operator, names, `}`), each expression read as
 * the SDK's match reads it: by its operator, its first name, and whether it is exploded (`*`).
 */
function templateParts(template: string): Array<string | TemplatePart> {
  const parts: Array<string | TemplatePart> = [];
  let literalFrom = 0;
  for (const { 0: whole, 1: expression = '', index } of template.matchAll(/\{([^}]*)\}/g)) {
    if (index > literalFrom) parts.push(template.slice(literalFrom, index));
    const operator = OPERATORS.find((op) => expression.startsWith(op)) ?? '';
    const names = expression.slice(operator.length).split(',');
    const name = names.map((n) => n.replace('*', '').trim()).find((n) => n !== '') ?? '';
    parts.push({ name, operator, exploded: expression.includes('*') });
    literalFrom = index + whole.length;
  }
  if (literalFrom < template.length) parts.push(template.slice(literalFrom));
  return parts;
}

const OPERATORS = ['+', '#', '.', '/', '?', '&'];

interface TemplatePart {
  name: string;
  operator: string;
  exploded: boolean;
}

function partPattern(operator: string, exploded: boolean): string {
  const list = exploded ? '([^/,]+(?:,[^/,]+)*)' : '([^/,]+)';
  switch (operator) {
    case '':
      return list;
    case '+':
    case '#':
      return `(${ANY}+)`;
    case '.':
      return String.raw`\.([^/,]+)`;
    case '/':
      return `/${list}`;
    default:
      return '([^/]+)';
  }
}
