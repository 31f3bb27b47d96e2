/**
 * Request bodies. When several media types are offered, one is picked by a fixed order (documented in
 * docs/arguments.md): JSON, vendor JSON, form-urlencoded, multipart, text, binary, anything else as text.
 */
import { createBody } from '../ir/factory.js';
import type { Base64Alphabet, BodyKind, BodyModel, JsonSchema, ParamStyle } from '../ir/types.js';
import { trimDescription } from '../schema/to-json-schema.js';
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { asString, derefObject, type NormalizeContext } from './context.js';
import { collectionFormatStyle, type RawParameter } from './parameters.js';

/** Lower rank = preferred. */
export function mediaTypeRank(mediaType: string): { rank: number; kind: BodyKind } {
  const mt = mediaType.toLowerCase().split(';')[0]!.trim();
  if (mt === 'application/json') return { rank: 0, kind: 'json' };
  if (/^application\/[^/]*\+json$/.test(mt) || /^[a-z]+\/[^/]*json$/.test(mt)) return { rank: 1, kind: 'json' };
  if (mt === 'application/x-www-form-urlencoded') return { rank: 2, kind: 'form' };
  if (mt.startsWith('multipart/')) return { rank: 3, kind: 'multipart' };
  if (mt === '*/*' || mt === 'application/*') return { rank: 4, kind: 'json' };
  if (mt.startsWith('text/')) return { rank: 5, kind: 'text' };
  if (
    mt === 'application/octet-stream' ||
    /^(image|audio|video|font)\//.test(mt) ||
    /^application\/(pdf|zip|gzip|x-tar)/.test(mt)
  ) {
    return { rank: 6, kind: 'binary' };
  }
  return { rank: UNKNOWN_MEDIA_RANK, kind: 'text' };
}

const UNKNOWN_MEDIA_RANK = 7;

export function pickMediaType(mediaTypes: readonly string[]): { mediaType: string; kind: BodyKind } | undefined {
  let best: { mediaType: string; kind: BodyKind; rank: number } | undefined;
  for (const mediaType of mediaTypes) {
    const { rank, kind } = mediaTypeRank(mediaType);
    if (!best || rank < best.rank) best = { mediaType, kind, rank };
  }
  return best && { mediaType: best.mediaType, kind: best.kind };
}

/** The input shape of an uploaded file: base64 bytes (or plain text), with an optional name and type. */
export const FILE_INPUT_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'A file: its bytes as base64, with an optional filename and content type.',
  properties: {
    base64: { type: 'string', contentEncoding: 'base64' },
    filename: { type: 'string' },
    contentType: { type: 'string' },
  },
  required: ['base64'],
  additionalProperties: false,
};

export function normalizeRequestBody(ctx: NormalizeContext, node: unknown, pointer: string): BodyModel | undefined {
  const body = derefObject(ctx, node, pointer);
  const content = body?.['content'];
  if (!body || !isPlainObject(content)) return undefined;
  const mediaTypes = Object.keys(content);
  const picked = pickMediaType(mediaTypes);
  if (!picked) return undefined;
  const media = content[picked.mediaType];
  const mediaPointer = joinPointer(pointer, 'content', picked.mediaType);
  if (mediaTypeRank(picked.mediaType).rank === UNKNOWN_MEDIA_RANK) {
    ctx.diags.info(
      'OTM_UNSUPPORTED_MEDIA_TYPE',
      mediaPointer,
      `${picked.mediaType} bodies are sent as the text the caller gives`,
    );
  }
  const rawSchema = isPlainObject(media) ? media['schema'] : undefined;
  const description = asString(body['description']);
  const required = body['required'] === true;
  const shaped = shapeBodySchema(ctx, picked, rawSchema, joinPointer(mediaPointer, 'schema'), required);
  const encoding = isPlainObject(media) ? normalizeEncoding(media['encoding']) : undefined;
  return createBody({
    mediaType: picked.mediaType,
    encodingKind: shaped.kind,
    required,
    schema: description ? { ...shaped.schema, description: trimDescription(description) } : shaped.schema,
    fileFields: shaped.fileFields,
    ...(shaped.base64Text ? { base64Text: shaped.base64Text } : {}),
    alternatives: mediaTypes.filter((m) => m !== picked.mediaType),
    ...(description ? { description } : {}),
    ...(encoding ? { encoding } : {}),
  });
}

interface ShapedBody {
  kind: BodyKind;
  schema: JsonSchema;
  fileFields: string[];
  base64Text?: Base64Alphabet;
}

function shapeBodySchema(
  ctx: NormalizeContext,
  picked: { mediaType: string; kind: BodyKind },
  rawSchema: unknown,
  pointer: string,
  required: boolean,
): ShapedBody {
  const { kind } = picked;
  const alphabet =
    kind === 'form' || kind === 'multipart' ? undefined : base64Alphabet(ctx.schemas.resolveRaw(rawSchema));
  if (alphabet) return base64TextBody(picked.mediaType, alphabet);
  if (kind === 'binary') return { kind, schema: { ...FILE_INPUT_SCHEMA }, fileFields: [] };
  if (kind === 'text') return { kind, schema: { type: 'string' }, fileFields: [] };
  if (kind === 'multipart') return { kind, ...shapeMultipart(ctx, rawSchema, pointer) };
  const schema = ctx.schemas.convert(rawSchema, pointer);
  return { kind, schema: required && saysNothing(schema) ? { ...UNDESCRIBED_REQUIRED_BODY } : schema, fileFields: [] };
}

/**
 * The alphabet of a body schema that is base64 text: OpenAPI 3.0's `format: byte` ("base64 encoded characters", what
 * its file upload section calls content transferred with base64 encoding) or 3.1's `contentEncoding`.
 */
function base64Alphabet(schema: Record<string, unknown> | undefined): Base64Alphabet | undefined {
  if (!schema || (schema['type'] !== undefined && schema['type'] !== 'string')) return undefined;
  const encoding = typeof schema['contentEncoding'] === 'string' ? schema['contentEncoding'].toLowerCase() : undefined;
  if (encoding === 'base64' || encoding === 'base64url') return encoding;
  return schema['format'] === 'byte' ? 'base64' : undefined;
}

/**
 * The body is the base64 text itself, whatever the media type: that is what `format: byte` says travels (and what
 * Prism checks). Under a JSON media type the text is a JSON string; under any other it is sent as text. The runtime
 * refuses an argument that is not base64 before sending it, and writes one in the other alphabet in the spec's.
 */
function base64TextBody(mediaType: string, alphabet: Base64Alphabet): ShapedBody {
  const json = mediaTypeRank(mediaType).kind === 'json' && !isMediaRange(mediaType);
  return {
    kind: json ? 'json' : 'text',
    schema: {
      ...BASE64_TEXT_SCHEMA,
      contentEncoding: alphabet,
      description: json
        ? 'The body as base64 text (RFC 4648), sent as a JSON string.'
        : 'The body as base64 text (RFC 4648), sent as that text: encode the bytes, the API decodes them.',
    },
    fileFields: [],
    base64Text: alphabet,
  };
}

/** `*\/*` or `application/*`: a range says nothing about JSON, so base64 text under it goes as plain text. */
function isMediaRange(mediaType: string): boolean {
  return mediaType.split(';')[0]!.includes('*');
}

/** A schema that accepts any value (annotations aside). */
function saysNothing(schema: JsonSchema): boolean {
  return Object.keys(schema).every((key) => key === 'description' || key === 'examples');
}

/** A body that is base64 text: the example shows models (and test samplers) what a valid value looks like. */
const BASE64_TEXT_SCHEMA: JsonSchema = {
  type: 'string',
  contentEncoding: 'base64',
  examples: ['aGVsbG8gd29ybGQ='],
};

/**
 * A required JSON body the spec does not describe (`content: { application/json: {} }`, common on DELETE):
 * the API wants a body, so the argument is required and null is refused (a model passes null to mean
 * "nothing", and the API would get none of what it asked for); `{}` is the honest empty one.
 */
const UNDESCRIBED_REQUIRED_BODY: JsonSchema = {
  type: ['object', 'array', 'string', 'number', 'boolean'],
  description:
    'Required by the API, which does not describe it: any JSON value but null; send {} when there is nothing to add.',
};

/** Multipart properties that carry bytes become file inputs; the rest convert as usual. */
function shapeMultipart(
  ctx: NormalizeContext,
  rawSchema: unknown,
  pointer: string,
): { schema: JsonSchema; fileFields: string[] } {
  const fields = multipartFields(ctx, rawSchema);
  if (!fields) return { schema: ctx.schemas.convert(rawSchema, pointer), fileFields: [] };
  const { properties } = fields;
  const converted: Record<string, JsonSchema> = {};
  const fileFields: string[] = [];
  for (const [name, prop] of Object.entries(properties)) {
    const raw = ctx.schemas.resolveRaw(prop);
    if (raw?.['readOnly'] === true) continue;
    if (isBinary(raw)) {
      fileFields.push(name);
      converted[name] = withDescription(FILE_INPUT_SCHEMA, raw);
    } else if (raw?.['type'] === 'array' && isBinary(ctx.schemas.resolveRaw(raw['items']))) {
      fileFields.push(name);
      converted[name] = { type: 'array', items: FILE_INPUT_SCHEMA };
    } else {
      converted[name] = ctx.schemas.convert(prop, joinPointer(pointer, 'properties', name));
    }
  }
  const schema: JsonSchema = { type: 'object', properties: converted };
  const required = fields.required.filter((r) => r in converted);
  if (required.length > 0) schema['required'] = required;
  return { schema, fileFields };
}

/**
 * The fields of a multipart body: its properties, and those of its `allOf` members (a common way to add a file
 * to a shared schema), each first definition winning; undefined when there are none to map.
 */
function multipartFields(
  ctx: NormalizeContext,
  rawSchema: unknown,
  depth = 0,
): { properties: Record<string, unknown>; required: string[] } | undefined {
  const resolved = ctx.schemas.resolveRaw(rawSchema);
  if (!resolved || depth > 8) return undefined;
  const own = isPlainObject(resolved['properties']) ? resolved['properties'] : undefined;
  const members = Array.isArray(resolved['allOf'])
    ? resolved['allOf'].map((m) => multipartFields(ctx, m, depth + 1))
    : [];
  if (!own && !members.some((m) => m !== undefined)) return undefined;
  const properties: Record<string, unknown> = { ...own };
  const required = Array.isArray(resolved['required'])
    ? resolved['required'].filter((r): r is string => typeof r === 'string')
    : [];
  for (const member of members) {
    if (!member) continue;
    for (const [name, prop] of Object.entries(member.properties)) if (!(name in properties)) properties[name] = prop;
    required.push(...member.required.filter((r) => !required.includes(r)));
  }
  return { properties, required };
}

function isBinary(schema: Record<string, unknown> | undefined): boolean {
  if (!schema) return false;
  if (schema['type'] === 'file') return true;
  return (
    (schema['type'] === 'string' || schema['type'] === undefined) &&
    (schema['format'] === 'binary' || typeof schema['contentMediaType'] === 'string')
  );
}

function withDescription(schema: JsonSchema, raw: Record<string, unknown> | undefined): JsonSchema {
  const description = asString(raw?.['description']);
  return description ? { ...schema, description: trimDescription(description) } : { ...schema };
}

function normalizeEncoding(encoding: unknown): BodyModel['encoding'] {
  if (!isPlainObject(encoding)) return undefined;
  const result: NonNullable<BodyModel['encoding']> = {};
  for (const [prop, value] of Object.entries(encoding)) {
    if (!isPlainObject(value)) continue;
    const entry: { style?: ParamStyle; explode?: boolean; contentType?: string } = {};
    if (typeof value['style'] === 'string') entry.style = value['style'] as ParamStyle;
    if (typeof value['explode'] === 'boolean') entry.explode = value['explode'];
    if (typeof value['contentType'] === 'string') entry.contentType = value['contentType'];
    if (Object.keys(entry).length > 0) result[prop] = entry;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

/** Swagger 2.0: a `body` parameter, or `formData` parameters, become the request body. */
export function swagger2Body(ctx: NormalizeContext, params: RawParameter[], consumes: string[]): BodyModel | undefined {
  const bodyParam = params.find((p) => p.raw['in'] === 'body');
  if (bodyParam) {
    const picked = pickMediaType(consumes.length > 0 ? consumes : ['application/json']) ?? {
      mediaType: 'application/json',
      kind: 'json' as const,
    };
    const kind = picked.kind === 'form' || picked.kind === 'multipart' ? 'json' : picked.kind;
    const mediaType = kind === 'json' && picked.kind !== 'json' ? 'application/json' : picked.mediaType;
    const required = bodyParam.raw['required'] === true;
    const shaped = shapeBodySchema(
      ctx,
      { mediaType, kind },
      bodyParam.raw['schema'],
      joinPointer(bodyParam.pointer, 'schema'),
      required,
    );
    const description = asString(bodyParam.raw['description']);
    return createBody({
      mediaType,
      encodingKind: shaped.kind,
      required,
      schema: description ? { ...shaped.schema, description: trimDescription(description) } : shaped.schema,
      ...(shaped.base64Text ? { base64Text: shaped.base64Text } : {}),
      alternatives: consumes.filter((c) => c !== mediaType),
    });
  }
  const formParams = params.filter((p) => p.raw['in'] === 'formData');
  if (formParams.length === 0) return undefined;
  return swagger2FormBody(ctx, formParams, consumes);
}

function swagger2FormBody(ctx: NormalizeContext, formParams: RawParameter[], consumes: string[]): BodyModel {
  const hasFile = formParams.some((p) => p.raw['type'] === 'file');
  const multipart = hasFile || consumes.some((c) => c.toLowerCase().startsWith('multipart/'));
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const fileFields: string[] = [];
  const encoding: NonNullable<BodyModel['encoding']> = {};
  for (const { raw, pointer } of formParams) {
    const name = String(raw['name']);
    const description = asString(raw['description']);
    if (raw['type'] === 'file') {
      fileFields.push(name);
      properties[name] = withDescription(FILE_INPUT_SCHEMA, raw);
    } else {
      const source: Record<string, unknown> = {};
      for (const key of [
        'type',
        'format',
        'items',
        'enum',
        'default',
        'maximum',
        'minimum',
        'maxLength',
        'minLength',
        'pattern',
        'maxItems',
        'minItems',
      ]) {
        if (raw[key] !== undefined) source[key] = raw[key];
      }
      const schema = ctx.schemas.convert(source, pointer);
      properties[name] = description ? { ...schema, description: trimDescription(description) } : schema;
      if (raw['type'] === 'array') {
        const { style, explode } = collectionFormatStyle(raw['collectionFormat'], 'formData');
        encoding[name] = { style, explode };
      }
    }
    if (raw['required'] === true) required.push(name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema['required'] = required;
  return createBody({
    mediaType: multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded',
    encodingKind: multipart ? 'multipart' : 'form',
    required: required.length > 0,
    schema,
    fileFields,
    alternatives: [],
    ...(Object.keys(encoding).length > 0 ? { encoding } : {}),
  });
}
