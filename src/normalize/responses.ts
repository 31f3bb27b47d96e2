/** The success response: its media type (for the Accept header) and its JSON schema (for the output outline). */
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { derefObject, type NormalizeContext } from './context.js';

export function successMediaType(ctx: NormalizeContext, op: Record<string, unknown>, pointer: string): string | undefined {
  const responses = op['responses'];
  if (!isPlainObject(responses)) return undefined;
  const codes = Object.keys(responses).filter((c) => /^2/.test(c)).sort();
  const code = codes[0] ?? (responses['default'] !== undefined ? 'default' : undefined);
  if (code === undefined) return undefined;
  if (ctx.dialect === 'swagger-2.0') {
    const produces = Array.isArray(op['produces']) ? op['produces'] : ctx.document['produces'];
    const list = Array.isArray(produces) ? produces.filter((p): p is string => typeof p === 'string') : [];
    return list.length > 0 ? preferJson(list) : undefined;
  }
  const response = derefObject(ctx, responses[code], joinPointer(pointer, 'responses', code));
  const content = response?.['content'];
  return isPlainObject(content) && Object.keys(content).length > 0 ? preferJson(Object.keys(content)) : undefined;
}

function preferJson(mediaTypes: string[]): string {
  return mediaTypes.find((m) => m === 'application/json') ?? mediaTypes.find((m) => /json/i.test(m)) ?? mediaTypes[0]!;
}

/** The raw JSON schema of the first 2xx response that has one (3.x `content[json]`, 2.0 `schema`). */
export function successSchema(ctx: NormalizeContext, op: Record<string, unknown>, pointer: string): unknown {
  const responses = op['responses'];
  if (!isPlainObject(responses)) return undefined;
  for (const code of Object.keys(responses).filter((c) => /^2/.test(c)).sort()) {
    const response = derefObject(ctx, responses[code], joinPointer(pointer, 'responses', code));
    if (!response) continue;
    if (ctx.dialect === 'swagger-2.0') {
      if (response['schema'] !== undefined) return response['schema'];
      continue;
    }
    const content = response['content'];
    if (!isPlainObject(content)) continue;
    const json = Object.keys(content).find((m) => /json/i.test(m));
    const media = json ? content[json] : undefined;
    if (isPlainObject(media) && media['schema'] !== undefined) return media['schema'];
  }
  return undefined;
}
