/**
 * Matches a URI against an RFC 6570 template, for resource templates. The SDK's `UriTemplate.match` matches
 * the path part; a query expression (`{?a,b}`, `{&c}`) is read here instead, because the SDK's requires every
 * query variable, in template order, while a resource's query arguments are optional and come in any order.
 * Values stay percent-encoded, as the SDK leaves them.
 */
import { UriTemplate, type Variables } from '@modelcontextprotocol/server';

export type UriMatcher = (uri: string) => Variables | null;

export function uriMatcher(uriTemplate: string): UriMatcher {
  const queryAt = uriTemplate.search(/\{[?&]/);
  const path = new UriTemplate(queryAt < 0 ? uriTemplate : uriTemplate.slice(0, queryAt));
  const queryNames =
    queryAt < 0
      ? []
      : [...uriTemplate.slice(queryAt).matchAll(/\{[?&]([^}]*)\}/g)].flatMap((m) =>
          m[1]!.split(',').map((name) => name.replace(/(\*|:\d+)$/, '').trim()),
        );
  return (uri) => {
    const questionMark = uri.indexOf('?');
    const matched = path.match(questionMark < 0 ? uri : uri.slice(0, questionMark));
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
