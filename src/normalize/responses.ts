/** The success response: its media type (for the Accept header) and its JSON schema (for the output outline). */
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { derefObject, type NormalizeContext } from './context.js';

export function successMediaType(
  ctx: NormalizeContext,
  op: Record<string, unknown>,
  pointer: string,
): string | undefined {
  const responses = op['responses'];
  if (!isPlainObject(responses)) return undefined;
  const codes = Object.keys(responses)
    .filter((c) => /^2/.test(c))
    .sort();
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

export interface SuccessResponse {
  code: string;
  response: Record<string, unknown>;
  /** 3.x: the JSON media type entry of the response's content, when there is one. */
  json?: { mediaType: string; media: Record<string, unknown> };
}

/** The 2xx responses, lowest code first, resolved. */
export function successResponses(
  ctx: NormalizeContext,
  op: Record<string, unknown>,
  pointer: string,
): SuccessResponse[] {
  const responses = op['responses'];
  if (!isPlainObject(responses)) return [];
  const result: SuccessResponse[] = [];
  for (const code of Object.keys(responses)
    .filter((c) => /^2/.test(c))
    .sort()) {
    const response = derefObject(ctx, responses[code], joinPointer(pointer, 'responses', code));
    if (!response) continue;
    const content = response['content'];
    const mediaType = isPlainObject(content) ? Object.keys(content).find((m) => /json/i.test(m)) : undefined;
    const media = mediaType && isPlainObject(content) ? content[mediaType] : undefined;
    result.push(
      mediaType && isPlainObject(media) ? { code, response, json: { mediaType, media } } : { code, response },
    );
  }
  return result;
}

/** The raw JSON schema of the first 2xx response that has one (3.x `content[json]`, 2.0 `schema`). */
export function successSchema(ctx: NormalizeContext, success: readonly SuccessResponse[]): unknown {
  for (const { response, json } of success) {
    const schema = ctx.dialect === 'swagger-2.0' ? response['schema'] : json?.media['schema'];
    if (schema !== undefined) return schema;
  }
  return undefined;
}
