/**
 * Deterministic required-only arguments for a tool's inputSchema (JSON Schema 2020-12). Candidates, in order:
 * openapi-sampler (examples, defaults and enums first; readOnly properties left out), openapi-sampler with
 * readOnly properties kept, json-schema-faker with a fixed seed and no optional properties (it honours
 * `pattern`). The first candidate that Ajv 2020 accepts against the schema wins; when none does, the first one
 * is returned with `valid: false` and Ajv's errors.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { generateSync } from 'json-schema-faker';
import { sample } from 'openapi-sampler';

type Schema = Record<string, unknown>;
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => void;

export const SAMPLE_SEED = 20260728;

export interface SampledArgs {
  args: Record<string, unknown>;
  /** Which candidate produced the arguments. */
  source: 'openapi-sampler' | 'openapi-sampler+readOnly' | 'json-schema-faker' | 'none';
  valid: boolean;
  errors: string[];
}

export interface ArgSampler {
  sample: (schema: Schema) => SampledArgs;
  /** Ajv's validator for a schema (compiled once per schema object). */
  validator: (schema: Schema) => ValidateFunction;
}

export function createArgSampler(): ArgSampler {
  const ajv = newAjv();
  const compiled = new WeakMap<Schema, ValidateFunction>();
  const validator = (schema: Schema): ValidateFunction => {
    let fn = compiled.get(schema);
    if (!fn) {
      // A schema with an $id can be compiled only once per Ajv instance: give it its own.
      fn = (typeof schema['$id'] === 'string' ? newAjv() : ajv).compile(schema);
      compiled.set(schema, fn);
    }
    return fn;
  };
  return { validator, sample: (schema) => sampleArgs(schema, validator(schema)) };
}

function newAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false });
  addFormats(ajv);
  return ajv;
}

function sampleArgs(schema: Schema, validate: ValidateFunction): SampledArgs {
  const candidates: Array<[SampledArgs['source'], () => unknown]> = [
    [
      'openapi-sampler',
      () => sample(schema as never, { skipNonRequired: true, skipReadOnly: true, quiet: true }, schema),
    ],
    [
      'openapi-sampler+readOnly',
      () => sample(schema as never, { skipNonRequired: true, skipReadOnly: false, quiet: true }, schema),
    ],
    [
      'json-schema-faker',
      () =>
        generateSync(fakerHints(schema) as Schema, {
          seed: SAMPLE_SEED,
          optionalsProbability: 0,
          fixedProbabilities: true,
          useExamplesValue: true,
          useDefaultValue: true,
          validateSchemaVersion: false,
          failOnInvalidTypes: false,
          maxDepth: 6,
        }),
    ],
  ];
  let first: SampledArgs | undefined;
  const thrown: string[] = [];
  for (const [source, generate] of candidates) {
    let value: unknown;
    try {
      value = generate();
    } catch (error) {
      thrown.push(`${source}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    const args = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
    if (validate(args)) return { args, source, valid: true, errors: [] };
    first ??= {
      args,
      source,
      valid: false,
      errors: (validate.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`),
    };
  }
  return first ?? { args: {}, source: 'none', valid: false, errors: thrown };
}

/**
 * Narrowings for json-schema-faker that the original schema also accepts: `type: number` with an int32/int64
 * format becomes an integer, and huge `maxLength`s are capped at 256 (or minLength) so values fit in a URL.
 */
function fakerHints(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(fakerHints);
  if (!node || typeof node !== 'object') return node;
  const schema = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (
      key === 'type' &&
      value === 'number' &&
      typeof schema['format'] === 'string' &&
      /^int(32|64)$/.test(schema['format'])
    )
      out[key] = 'integer';
    else if (key === 'maxLength' && typeof value === 'number' && value > 256)
      out[key] = Math.max(256, typeof schema['minLength'] === 'number' ? schema['minLength'] : 0);
    else out[key] = fakerHints(value);
  }
  return out;
}
