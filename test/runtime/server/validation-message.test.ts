import { describe, expect, it } from 'vitest';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { explainInvalid } from '../../../templates/runtime/server/validation-message.js';

const schema = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['available', 'sold'] },
    n: { type: 'integer', minimum: 1 },
    body: { $ref: '#/$defs/B' },
  },
  required: ['n'],
  additionalProperties: false,
  $defs: {
    B: {
      type: 'object',
      properties: { kind: { const: 'x' }, u: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
      additionalProperties: false,
    },
  },
};
const validate = new AjvJsonSchemaValidator().getValidator(schema);
const explained = (args: unknown) => explainInvalid(validate(args).errorMessage!, schema, args);

describe('validation messages say what to change', () => {
  it('names the allowed values, the keys to remove, the constant and the alternatives, by argument path', () => {
    const message = explained({ status: 'gone', n: 0, extra: 1, body: { kind: 'y', u: true, zz: 1 } });
    expect(message).toContain('the arguments has keys that are not allowed: remove extra (allowed: status, n, body)');
    expect(message).toContain('"status" must be one of "available", "sold"');
    expect(message).toContain('"n" must be >= 1');
    expect(message).toContain('"body" has keys that are not allowed: remove zz (allowed: kind, u)');
    expect(message).toContain('"body.kind" must be "x"');
    expect(message).toContain('"body.u" must match one of: string | integer');
  });

  it('keeps what the validator said when the schema has nothing to add', () => {
    expect(explained({})).toBe("the arguments must have required property 'n'");
  });
});
