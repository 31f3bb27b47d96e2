/**
 * A sample success response per operation, for the mock API the generated project tests against: the spec's
 * own example when it gives a small one (3.x media `example`/`examples`, 2.0 response `examples`), else a value
 * built from the response schema (its `example`s, defaults, first enum values, else a value of the right type).
 * Samples are bounded in depth and size so a huge API still gets a small mock.
 */
import { joinPointer } from '../util/json-pointer.js';
import { jsonFitsIn } from '../util/json-size.js';
import { stringSample } from '../util/samples.js';
import { isPlainObject } from '../util/stable.js';
import { derefObject, type NormalizeContext } from './context.js';
import { successSchema, type SuccessResponse } from './responses.js';

/** Larger examples are replaced by a shallower sample built from the schema. */
const MAX_EXAMPLE_CHARS = 2_000;
const MAX_DEPTH = 3;
const MAX_PROPERTIES = 12;

/** `success`: the operation's 2xx responses (successResponses). */
export function successExample(ctx: NormalizeContext, success: readonly SuccessResponse[], pointer: string): unknown {
  const explicit = explicitExample(ctx, success, pointer);
  if (explicit !== undefined && fits(explicit)) return explicit;
  const schema = successSchema(ctx, success);
  const root = ctx.schemas.resolveRaw(schema);
  if (root === undefined) return undefined;
  // Operations that return the same schema get the same sample (GitHub's 1,223 return a few hundred).
  if (ctx.samples.has(root)) return ctx.samples.get(root);
  const sample = boundedSample(ctx, root);
  ctx.samples.set(root, sample);
  return sample;
}

/** The deepest sample of the schema that fits. */
function boundedSample(ctx: NormalizeContext, schema: Record<string, unknown>): unknown {
  for (const depth of [MAX_DEPTH, 1, 0]) {
    const sample = sampleSchema(ctx, schema, depth, { chain: new Set(), visits: 0 });
    if (sample !== undefined && fits(sample)) return sample;
  }
  return undefined;
}

/** Whether an example is small enough, remembered per example object: specs share them between operations. */
const fitting = new WeakMap<object, boolean>();

function fits(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return jsonFitsIn(value, MAX_EXAMPLE_CHARS);
  let known = fitting.get(value);
  if (known === undefined) {
    known = jsonFitsIn(value, MAX_EXAMPLE_CHARS);
    fitting.set(value, known);
  }
  return known;
}

function explicitExample(ctx: NormalizeContext, success: readonly SuccessResponse[], pointer: string): unknown {
  for (const { code, response, json } of success) {
    if (ctx.dialect === 'swagger-2.0') {
      const examples = response['examples'];
      const mediaType = isPlainObject(examples) ? Object.keys(examples).find((m) => /json/i.test(m)) : undefined;
      if (mediaType && isPlainObject(examples)) return examples[mediaType];
      continue;
    }
    if (!json) continue;
    if (json.media['example'] !== undefined) return json.media['example'];
    const named = json.media['examples'];
    if (!isPlainObject(named)) continue;
    for (const [name, entry] of Object.entries(named)) {
      const example = derefObject(
        ctx,
        entry,
        joinPointer(pointer, 'responses', code, 'content', json.mediaType, 'examples', name),
      );
      if (example && example['value'] !== undefined) return example['value'];
    }
  }
  return undefined;
}

/**
 * One sample's walk: the schemas on the way down (a schema inside itself is not sampled again) and how many
 * were visited. Combinators do not count against `depth` (a union's branch is the same value), so a hostile
 * spec could nest them without end, or branch them exponentially: both bounds end such a walk.
 */
interface SampleWalk {
  chain: Set<unknown>;
  visits: number;
}

const MAX_CHAIN = 64;
const MAX_VISITS = 5_000;

function sampleSchema(ctx: NormalizeContext, raw: unknown, depth: number, walk: SampleWalk): unknown {
  const schema = ctx.schemas.resolveRaw(raw);
  if (!schema || walk.chain.has(schema) || walk.chain.size >= MAX_CHAIN || ++walk.visits > MAX_VISITS) return undefined;
  if (schema['example'] !== undefined) return schema['example'];
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  if (schema['default'] !== undefined) return schema['default'];
  if (schema['const'] !== undefined) return schema['const'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'].find((v) => v !== null) ?? null;
  walk.chain.add(schema);
  try {
    for (const key of ['oneOf', 'anyOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      for (const branch of branches) {
        const sample = sampleSchema(ctx, branch, depth, walk);
        if (sample !== undefined) return sample;
      }
    }
    const type = primaryType(schema);
    if (
      type === 'object' ||
      (type === undefined && (isPlainObject(schema['properties']) || Array.isArray(schema['allOf'])))
    ) {
      return sampleObject(ctx, schema, depth, walk);
    }
    if (type === 'array') {
      if (depth <= 0) return [];
      const item = sampleSchema(ctx, schema['items'], depth - 1, walk);
      return item === undefined ? [] : [item];
    }
    return scalarSample(type, schema);
  } finally {
    walk.chain.delete(schema);
  }
}

function sampleObject(
  ctx: NormalizeContext,
  schema: Record<string, unknown>,
  depth: number,
  walk: SampleWalk,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (depth <= 0) return result;
  if (Array.isArray(schema['allOf'])) {
    for (const member of schema['allOf']) {
      const sample = sampleSchema(ctx, member, depth, walk);
      if (isPlainObject(sample)) Object.assign(result, sample);
    }
  }
  const properties = schema['properties'];
  if (!isPlainObject(properties)) return result;
  for (const [name, prop] of Object.entries(properties).slice(0, MAX_PROPERTIES)) {
    if (ctx.schemas.resolveRaw(prop)?.['writeOnly'] === true) continue;
    const sample = sampleSchema(ctx, prop, depth - 1, walk);
    if (sample !== undefined) result[name] = sample;
  }
  return result;
}

function primaryType(schema: Record<string, unknown>): string | undefined {
  const type = schema['type'];
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  return undefined;
}

function scalarSample(type: string | undefined, schema: Record<string, unknown>): unknown {
  switch (type) {
    case 'string':
      return stringSample(typeof schema['format'] === 'string' ? schema['format'] : undefined) ?? 'string';
    case 'integer':
      return typeof schema['minimum'] === 'number' ? Math.ceil(schema['minimum']) : 1;
    case 'number':
      return typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}
