/**
 * Parameters: path-level and operation-level lists merged (the operation wins on the same name + location),
 * `$ref`s followed, schemas converted, and serialization (style/explode) made explicit, including Swagger
 * 2.0's `collectionFormat`.
 */
import { createParameter } from '../ir/factory.js';
import type { JsonSchema, ParamLocation, ParameterModel, ParamStyle } from '../ir/types.js';
import { trimDescription } from '../schema/to-json-schema.js';
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { asString, derefWithPointer, type NormalizeContext } from './context.js';

const LOCATIONS = new Set<string>(['path', 'query', 'header', 'cookie']);
const STYLES = new Set<string>(['simple', 'label', 'matrix', 'form', 'spaceDelimited', 'pipeDelimited', 'deepObject']);
/**
 * OpenAPI says header parameters named Accept, Content-Type and Authorization "SHALL be ignored". Accept is
 * (the runtime asks for the success media type); the other two are kept here and dropped by the tool mapper
 * only where the body or a security scheme supplies them, since specs use them for APIs without a scheme.
 */
const IGNORED_HEADERS = new Set(['accept']);
const SWAGGER2_SCHEMA_KEYS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
];

export interface RawParameter {
  raw: Record<string, unknown>;
  /** Where the parameter is defined: the shared one a `$ref` points to, else its place in the list. */
  pointer: string;
}

/** Resolves and merges path-level and operation-level parameter lists; raw objects, in spec order. */
export function mergeParameterLists(
  ctx: NormalizeContext,
  pathLevel: unknown,
  opLevel: unknown,
  pathPointer: string,
  opPointer: string,
): RawParameter[] {
  const merged = new Map<string, RawParameter>();
  const add = (list: unknown, pointer: string) => {
    if (!Array.isArray(list)) return;
    list.forEach((item, i) => {
      const found = derefWithPointer(ctx, item, joinPointer(pointer, 'parameters', i));
      if (!found) return;
      merged.set(`${String(found.value['in'])}\u0000${String(found.value['name'])}`, {
        raw: found.value,
        pointer: found.pointer,
      });
    });
  };
  add(pathLevel, pathPointer);
  add(opLevel, opPointer);
  return [...merged.values()];
}

/** The parameter's model, built once per parameter object however many operations share it (see ctx.parameters). */
export function normalizeParameter(ctx: NormalizeContext, parameter: RawParameter): ParameterModel | undefined {
  if (ctx.parameters.has(parameter.raw)) return ctx.parameters.get(parameter.raw);
  const model = buildParameter(ctx, parameter);
  ctx.parameters.set(parameter.raw, model);
  return model;
}

function buildParameter(ctx: NormalizeContext, { raw, pointer }: RawParameter): ParameterModel | undefined {
  const name = asString(raw['name']);
  const location = raw['in'];
  if (!name || typeof location !== 'string' || !LOCATIONS.has(location)) {
    ctx.diags.warn(
      'OTM_PARAM_INVALID',
      pointer,
      `parameter ${String(name)} in ${String(location)} is not a path, query, header or cookie parameter`,
    );
    return undefined;
  }
  if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) {
    ctx.diags.info(
      'OTM_PARAM_INVALID',
      pointer,
      `header parameter ${name} is ignored, as OpenAPI requires; the server sets it`,
    );
    return undefined;
  }
  const loc = location as ParamLocation;
  const base = {
    name,
    in: loc,
    required: loc === 'path' ? true : raw['required'] === true,
    deprecated: raw['deprecated'] === true,
  };
  const description = asString(raw['description']);
  const shape =
    ctx.dialect === 'swagger-2.0' ? swagger2Shape(ctx, raw, pointer, loc) : openapi3Shape(ctx, raw, pointer, loc);
  const schema = withParamAnnotations(
    loc === 'path' ? nonEmptyString(shape.schema) : shape.schema,
    description,
    base.deprecated,
  );
  return createParameter({ ...base, ...shape, schema, ...(description ? { description } : {}) });
}

interface ParamShape {
  schema: JsonSchema;
  style: ParamStyle;
  explode: boolean;
  allowReserved: boolean;
  contentType?: string;
}

function openapi3Shape(
  ctx: NormalizeContext,
  raw: Record<string, unknown>,
  pointer: string,
  loc: ParamLocation,
): ParamShape {
  const defaultStyle: ParamStyle = loc === 'query' || loc === 'cookie' ? 'form' : 'simple';
  const style =
    typeof raw['style'] === 'string' && STYLES.has(raw['style']) ? (raw['style'] as ParamStyle) : defaultStyle;
  const explode = typeof raw['explode'] === 'boolean' ? raw['explode'] : style === 'form';
  const allowReserved = raw['allowReserved'] === true;
  const content = raw['content'];
  if (raw['schema'] === undefined && isPlainObject(content)) {
    const [mediaType, media] = Object.entries(content)[0] ?? [];
    const schema = ctx.schemas.convert(
      isPlainObject(media) ? media['schema'] : undefined,
      joinPointer(pointer, 'content', mediaType ?? '', 'schema'),
    );
    return { schema, style, explode, allowReserved, contentType: mediaType ?? 'application/json' };
  }
  return { schema: ctx.schemas.convert(raw['schema'], joinPointer(pointer, 'schema')), style, explode, allowReserved };
}

function swagger2Shape(
  ctx: NormalizeContext,
  raw: Record<string, unknown>,
  pointer: string,
  loc: ParamLocation,
): ParamShape {
  const schemaSource: Record<string, unknown> = {};
  for (const key of SWAGGER2_SCHEMA_KEYS) if (raw[key] !== undefined) schemaSource[key] = raw[key];
  if (raw['x-nullable'] === true) schemaSource['x-nullable'] = true;
  const schema = ctx.schemas.convert(schemaSource, pointer);
  const { style, explode } = collectionFormatStyle(raw['collectionFormat'], loc);
  return { schema, style, explode, allowReserved: false };
}

/** Swagger 2.0 `collectionFormat` (default csv) expressed as an OpenAPI 3 style. */
export function collectionFormatStyle(
  format: unknown,
  loc: ParamLocation | 'formData',
): { style: ParamStyle; explode: boolean } {
  const formLike = loc === 'query' || loc === 'cookie' || loc === 'formData';
  switch (format) {
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'tsv':
      return { style: 'tabDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    default:
      return formLike ? { style: 'form', explode: false } : { style: 'simple', explode: false };
  }
}

/** An empty path segment addresses a different resource (`/users/` for `/users/{id}`): require one character. */
function nonEmptyString(schema: JsonSchema): JsonSchema {
  if (schema['type'] !== 'string' || schema['minLength'] !== undefined || schema['enum'] !== undefined) return schema;
  return { ...schema, minLength: 1 };
}

function withParamAnnotations(schema: JsonSchema, description: string | undefined, deprecated: boolean): JsonSchema {
  const result: JsonSchema = { ...schema };
  // The parameter's own description says what it means here; the schema's is about the type in general.
  if (description) result['description'] = trimDescription(description);
  if (deprecated) result['deprecated'] = true;
  return result;
}
