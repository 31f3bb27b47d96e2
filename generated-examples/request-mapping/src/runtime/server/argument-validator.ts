/**
 * The validator of tool arguments on every runtime but Workers: the SDK's Ajv provider given the 2020-12 engine
 * with the options the SDK documents as its default, except that `pattern` (and `patternProperties`) are matched
 * by contract/linear-pattern.ts in linear time. With the SDK's default engine a spec's `^(\w+\s?)*$` let one
 * caller's 35-character argument hold the event loop for minutes.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { linearPattern } from '../contract/linear-pattern.js';

// ajv-formats is CommonJS: the default import is its module object, whose `default` is the plugin.
const addFormats = formats.default;

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

export function linearTimeValidator(): AjvJsonSchemaValidator {
  const ajv = new Ajv2020({
    strict: false,
    validateFormats: true,
    validateSchema: false,
    allErrors: true,
    code: { regExp: linearRegExp },
  });
  addFormats(ajv);
  return new AjvJsonSchemaValidator(ajv);
}
