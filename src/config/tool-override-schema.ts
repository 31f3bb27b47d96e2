/**
 * What a tool override may set — a config `tools` entry (src/config/schema.ts) and an operation's `x-mcp`
 * object (src/normalize/x-mcp.ts) alike: its name, title, description and annotation hints.
 */
import { nonEmptyString, type SchemaNode } from './schema-node.js';

export const TOOL_HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

const ANNOTATIONS: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  'x-message': 'annotations must be an object of boolean hints',
  'x-unknown': 'annotation',
  description: `the tool's hints: ${TOOL_HINTS.join(', ')}`,
  properties: Object.fromEntries(
    TOOL_HINTS.map((hint) => [hint, { type: 'boolean', 'x-message': `${hint} must be true or false` }]),
  ),
};

export const TOOL_OVERRIDE: SchemaNode = {
  title: 'override',
  type: 'object',
  additionalProperties: false,
  'x-message': 'an override is an object with any of %fields',
  'x-unknown': 'override field',
  properties: {
    name: nonEmptyString('name', 'the tool name'),
    title: nonEmptyString('title', 'the title hosts show'),
    description: nonEmptyString('description', 'the description the model reads'),
    annotations: ANNOTATIONS,
  },
};

/** The override's fields (name, title, description, annotations). */
export const TOOL_OVERRIDE_FIELDS = Object.keys(TOOL_OVERRIDE.properties ?? {});
