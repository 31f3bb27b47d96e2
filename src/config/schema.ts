/**
 * The config file's keys, declared once as a JSON Schema: Ajv validates a config against it
 * (src/config/validate.ts, whose messages come from the schema's `x-message` keywords), and docs/options.md
 * is written from it (`npm run docs:options`). src/config/types.ts holds the same shape as TypeScript types;
 * `CONFIG_KEYS` must name exactly the keys of `ProjectConfig`.
 */
import { CODE_ALLOW } from '../../templates/runtime/contract/catalog.js';
import { CODE_MODE_DEFAULTS, type CodeSettings } from '../../templates/runtime/contract/code-limits.js';
import { CONFIRM_POLICY_WORDS, DEFAULT_CONFIRM_POLICY } from '../../templates/runtime/contract/confirm-policy.js';
import { ENV } from '../../templates/runtime/contract/environment.js';
import { HTTP_METHODS } from '../normalize/operations.js';
import { flag, nonEmptyString, stringList, type SchemaNode } from './schema-node.js';
import { TOOL_OVERRIDE } from './tool-override-schema.js';
import type { ProjectConfig } from './types.js';

const PROMPT_NAME = '^[A-Za-z0-9_.-]{1,64}$';
const OPERATION_KEYED = 'keyed by operationId or "METHOD /path"';

/** `get` as `[gG][eE][tT]`: methods are matched ignoring case. */
const anyCase = (words: readonly string[]) =>
  `^(${words.map((w) => [...w].map((c) => `[${c}${c.toUpperCase()}]`).join('')).join('|')})$`;

const SELECTOR: SchemaNode = {
  title: 'selector',
  type: 'object',
  minProperties: 1,
  additionalProperties: false,
  'x-message': 'a selector is an object with one or more of %fields',
  'x-unknown': 'selector field',
  properties: {
    tags: stringList('tags', 'operations with any of these tags'),
    operationIds: stringList('operationIds', 'operations with any of these operationIds (globs)'),
    paths: stringList('paths', 'operations under any of these paths (globs: `*` within a segment, `**` across)'),
    methods: {
      ...stringList('methods', `operations with any of these methods: ${HTTP_METHODS.join(', ')}`),
      items: {
        type: 'string',
        minLength: 1,
        allOf: [{ pattern: anyCase(HTTP_METHODS), 'x-message': 'unknown HTTP method %value' }],
      },
    },
  },
};
const SELECTORS = (description: string): SchemaNode => ({
  description: `${description} A selector, or a list of them (any may match); within a selector every field must match.`,
  if: { type: 'array' },
  then: { type: 'array', items: SELECTOR },
  else: SELECTOR,
});

const RESOURCE_TEMPLATE_URI: SchemaNode = { type: 'string', pattern: '^[A-Za-z][A-Za-z0-9+.-]*:[\\s\\S]*\\{' };
const RESOURCES: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  'x-message': 'resources must be an object',
  'x-unknown': 'resources field',
  description: 'what the server offers as MCP resources',
  properties: {
    apiDescription: flag('apiDescription', 'the OpenAPI document and the operations guide as resources', true),
    templates: {
      type: 'object',
      'x-message': `templates must be an object ${OPERATION_KEYED}`,
      description: `resource templates read through GET operations, ${OPERATION_KEYED}: an RFC 6570 URI template whose variables are the tool's arguments (\`github://repos/{owner}/{repo}\`), or \`{ uri, name?, description? }\``,
      additionalProperties: {
        title: 'template',
        'x-message':
          'a template is a URI template with a scheme and {variables} (e.g. "github://repos/{owner}/{repo}"), or { uri, name?, description? }',
        anyOf: [
          RESOURCE_TEMPLATE_URI,
          {
            type: 'object',
            required: ['uri'],
            additionalProperties: false,
            properties: { uri: RESOURCE_TEMPLATE_URI, name: { type: 'string' }, description: { type: 'string' } },
          },
        ],
      },
    },
  },
};

const PROMPT: SchemaNode = {
  title: 'prompt',
  type: 'object',
  required: ['name', 'text'],
  additionalProperties: false,
  'x-message': 'a prompt is an object with name and text',
  'x-unknown': 'prompt field',
  'x-missing': 'a prompt needs a %key',
  properties: {
    name: { type: 'string', pattern: PROMPT_NAME, 'x-message': `name must match ${PROMPT_NAME}` },
    title: nonEmptyString('title'),
    description: nonEmptyString('description'),
    arguments: {
      type: 'array',
      'x-message': 'arguments must be a list of { name, description?, required? }',
      items: {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        'x-message': 'an argument is { name, description?, required? } with a plain name',
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
          description: { type: 'string' },
          required: { type: 'boolean' },
        },
      },
    },
    text: nonEmptyString('text'),
  },
};
const PROMPTS: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  'x-message': 'prompts must be an object',
  'x-unknown': 'prompts field',
  description: 'what the server offers as MCP prompts',
  properties: {
    operationsGuide: flag('operationsGuide', 'the operations guide as a prompt', true),
    custom: {
      type: 'array',
      'x-message': 'custom must be a list of prompts',
      description:
        'prompts of your own: `{ name, title?, description?, arguments?, text }`, where `{{argument}}` in the text is filled in from the arguments and `{{tool:operationId}}` names that tool',
      items: PROMPT,
    },
  },
};

const PUBLISH: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  'x-message': 'publish must be an object with any of %fields',
  'x-unknown': 'publish field',
  description: 'the publishing metadata of the package',
  properties: {
    mcpName: {
      type: 'string',
      pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$',
      'x-message': 'mcpName must look like io.github.<owner>/<name> (one slash)',
      description:
        'the MCP registry name (`io.github.<owner>/<name>`), written to server.json and package.json `mcpName`',
    },
    repository: {
      type: 'string',
      pattern: '^https?://\\S+$',
      'x-message': 'repository must be an http(s) URL',
      description: 'the source repository URL, written to package.json and server.json',
    },
    keywords: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      'x-message': 'keywords must be a list of strings',
      description: 'extra npm keywords',
    },
  },
};

/** `timeoutMs` → MCP_CODE_TIMEOUT_MS: each code-mode setting has its environment variable, which documents it. */
function codeSetting(field: keyof CodeSettings): SchemaNode {
  const variable = `MCP_CODE_${field.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}` as keyof typeof ENV;
  const doc = ENV[variable].description;
  const text = (typeof doc === 'string' ? doc : '').replace(/^Code mode: /, '').replace(/\.$/, '');
  return {
    ...(field === 'allow'
      ? { enum: CODE_ALLOW, 'x-message': `allow must be one of ${CODE_ALLOW.join(', ')}` }
      : { type: 'integer', minimum: 1, 'x-message': `${field} must be a positive integer` }),
    default: CODE_MODE_DEFAULTS[field],
    description: `${text} (${variable} overrides it at run time)`,
  };
}
const CODE_MODE: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  'x-message': 'codeMode must be an object with any of %fields',
  'x-unknown': 'codeMode field',
  description: "code mode's write policy and limits, baked into the catalog",
  properties: Object.fromEntries(
    (Object.keys(CODE_MODE_DEFAULTS) as Array<keyof CodeSettings>).map((field) => [field, codeSetting(field)]),
  ),
};

/** The config file's keys, in the order the docs list them. */
export const CONFIG_KEYS = {
  $schema: { type: 'string', description: 'a JSON Schema URL for editors; ignored' },
  include: SELECTORS('When given, only operations matching one of these selectors become tools.'),
  exclude: SELECTORS('Operations matching one of these selectors are left out (after include).'),
  tools: {
    type: 'object',
    'x-message': `tools must be an object ${OPERATION_KEYED}`,
    description: `per-operation overrides of name, title, description and annotations, ${OPERATION_KEYED} (\`GET /pets/{petId}\`); the config's entries apply after the spec's \`x-mcp\` object, the \`METHOD /path\` entry last`,
    additionalProperties: TOOL_OVERRIDE,
  },
  confirm: {
    'x-message': `confirm must be one of ${CONFIRM_POLICY_WORDS.join(', ')}, or a list of operationIds or "METHOD /path"`,
    description: `which calls the user confirms before they are sent: ${CONFIRM_POLICY_WORDS.join(', ')}, or a list of operations (operationIds or \`METHOD /path\`); MCP_CONFIRM overrides it at run time`,
    default: DEFAULT_CONFIRM_POLICY,
    if: { type: 'array' },
    then: {
      type: 'array',
      items: { type: 'string', pattern: '\\S', 'x-message': 'each confirm entry is an operationId or "METHOD /path"' },
    },
    else: { enum: CONFIRM_POLICY_WORDS },
  },
  resources: RESOURCES,
  prompts: PROMPTS,
  publish: PUBLISH,
  codeMode: CODE_MODE,
} satisfies { [K in keyof Required<ProjectConfig>]: SchemaNode };

export const CONFIG_SCHEMA: SchemaNode = {
  type: 'object',
  additionalProperties: false,
  'x-message': 'the config must be an object',
  'x-unknown': 'key',
  properties: CONFIG_KEYS,
};
