/**
 * Argument names. Each parameter and the body become one property of the tool's input. Names that collide
 * (the same name in two locations, or a parameter called `body`) are disambiguated deterministically: the
 * first in location order (path, query, header, cookie) keeps its name, later ones get `_<location>`. The
 * request plan keeps the wire name, so the HTTP request is exactly what the spec describes.
 */
import type { ParameterModel } from '../ir/types.js';
import { sanitizeName } from './naming.js';

const PROPERTY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const LOCATION_ORDER = ['path', 'query', 'header', 'cookie'] as const;

export interface ArgumentNames {
  /** Parameter → argument name, in the order the properties should appear. */
  params: Array<{ param: ParameterModel; arg: string }>;
  body?: string;
  renamed: Array<{ from: string; to: string; why: string }>;
}

export function assignArgumentNames(parameters: readonly ParameterModel[], hasBody: boolean): ArgumentNames {
  const taken = new Set<string>();
  const renamed: ArgumentNames['renamed'] = [];
  const ordered = LOCATION_ORDER.flatMap((loc) => parameters.filter((p) => p.in === loc));
  const params = ordered.map((param) => {
    const valid = validPropertyName(param.name);
    let arg = valid;
    if (taken.has(arg)) arg = uniqueName(`${valid}_${param.in}`, taken);
    taken.add(arg);
    if (arg !== param.name) {
      renamed.push({
        from: `${param.in} ${param.name}`,
        to: arg,
        why: valid === arg ? 'not a valid property name' : 'name used by another argument',
      });
    }
    return { param, arg };
  });
  if (!hasBody) return { params, renamed };
  const body = uniqueName('body', taken);
  if (body !== 'body') renamed.push({ from: 'request body', to: body, why: 'a parameter is named body' });
  return { params, body, renamed };
}

function validPropertyName(name: string): string {
  if (PROPERTY_NAME.test(name)) return name;
  return (sanitizeName(name) || 'param').slice(0, 64);
}

function uniqueName(base: string, taken: ReadonlySet<string>): string {
  let name = base.slice(0, 64);
  for (let n = 2; taken.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
  return name;
}
