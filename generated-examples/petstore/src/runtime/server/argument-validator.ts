/**
 * The validator of tool arguments on every runtime but Workers: the SDK's Ajv provider given the 2020-12 engine
 * with the options the SDK documents as its default, except two, each a caller's way to hold the server:
 * - `pattern` (and `patternProperties`) are matched by contract/linear-pattern.ts in linear time. With the SDK's
 *   default engine a spec's `^(\w+\s?)*$` let one caller's 35-character argument hold the event loop for minutes;
 * - every problem is listed only for arguments of a few values. Ajv with `allErrors` lists one problem per
 *   failing value: 800,000 invalid array items (a 3.2 MB message) cost 1.7 s and 429 MB. Large arguments are
 *   checked up to their first problem (Workers' validator always stops there).
 */
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { linearPattern } from '../contract/linear-pattern.js';

// ajv-formats is CommonJS: the default import is its module object, whose `default` is the plugin.
const addFormats = formats.default;

/** Arguments of more values than this are checked up to their first problem. */
const MAX_VALUES_FOR_EVERY_PROBLEM = 1000;

/**
 * Ajv's `code.regExp`. The generator keeps in a schema only patterns this can match (to-json-schema.ts); one
 * that reaches the server another way (a config override) and needs backtracking is not checked here: the API
 * still validates it, and a check that may never finish is worse than none. Ajv shares one compiled pattern
 * among schemas by its `toString()`, so each says its own source.
 */
const linearRegExp = Object.assign(
  (pattern: string) => {
    const matcher = linearPattern(pattern);
    return { test: (text: string) => matcher?.test(text) ?? true, toString: () => `/${pattern}/u` };
  },
  { code: 'linearPattern' },
);

function engine(allErrors: boolean): AjvJsonSchemaValidator {
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors,
    code: { regExp: linearRegExp },
  });
  addFormats(ajv);
  return new AjvJsonSchemaValidator(ajv);
}

export function linearTimeValidator(): jsonSchemaValidator {
  const firstProblem = engine(false);
  const everyProblem = engine(true);
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      const check = firstProblem.getValidator<T>(schema);
      let explain: JsonSchemaValidator<T> | undefined;
      return (input) => {
        const result = check(input);
        if (result.valid || !hasAtMost(input, MAX_VALUES_FOR_EVERY_PROBLEM)) return result;
        return (explain ??= everyProblem.getValidator<T>(schema))(input);
      };
    },
  };
}

/** Whether `value` holds at most `limit` values (itself, and every member and item within it). */
function hasAtMost(value: unknown, limit: number): boolean {
  let left = limit;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    if (--left < 0) return false;
    const next = pending.pop();
    if (typeof next !== 'object' || next === null) continue;
    // Member by member, so that a huge array or object is not copied to be counted.
    for (const key in next) {
      if (pending.length >= left) return false;
      pending.push((next as Record<string, unknown>)[key]);
    }
  }
  return true;
}
