/**
 * A node of the config file's JSON Schema (src/config/schema.ts): the keywords the schema uses, plus three of
 * this project's own that word the problems a user sees (src/config/validate.ts) — no check is written twice.
 */
export interface SchemaNode {
  type?: 'object' | 'array' | 'string' | 'boolean' | 'integer';
  /** What one such value is called in docs/options.md ("selector", "override"). */
  title?: string;
  /** docs/options.md's text for the key. */
  description?: string;
  /** The default as docs/options.md shows it (validation applies none). */
  default?: unknown;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: false | SchemaNode;
  required?: string[];
  minProperties?: number;
  items?: SchemaNode;
  minItems?: number;
  minLength?: number;
  minimum?: number;
  pattern?: string;
  enum?: readonly unknown[];
  if?: SchemaNode;
  then?: SchemaNode;
  else?: SchemaNode;
  anyOf?: SchemaNode[];
  allOf?: SchemaNode[];
  /**
   * The message of a problem at this node, or below it where no deeper node has one; it is reported at this
   * node. `%value` is the value found there, `%fields` the node's property names.
   */
  'x-message'?: string;
  /** What an unknown key of this object is called: "unknown <x-unknown> <key> (expected <its properties>)". */
  'x-unknown'?: string;
  /** The message of a required key that is missing, reported at that key: `%key` is its name. */
  'x-missing'?: string;
}

/** The keywords of this project's own, registered with Ajv so that its strict mode accepts them. */
export const MESSAGE_KEYWORDS = ['x-message', 'x-unknown', 'x-missing'] as const;

export const nonEmptyString = (field: string, description?: string): SchemaNode => ({
  type: 'string',
  pattern: '\\S',
  'x-message': `${field} must be a non-empty string`,
  ...(description ? { description } : {}),
});
export const flag = (field: string, description: string, byDefault?: boolean): SchemaNode => ({
  type: 'boolean',
  'x-message': `${field} must be true or false`,
  description,
  ...(byDefault !== undefined ? { default: byDefault } : {}),
});
export const stringList = (field: string, description: string): SchemaNode => ({
  type: 'array',
  minItems: 1,
  items: { type: 'string', minLength: 1 },
  'x-message': `${field} must be a non-empty list of strings`,
  description,
});
