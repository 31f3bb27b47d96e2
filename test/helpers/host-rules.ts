/**
 * An independent checker of each host's rules on one listed tool: written from the hosts' reports (see
 * templates/runtime/contract/profiles/profiles.ts for the sources), not from the lowering code, so that a lowering that misses a
 * rule fails the tests that use it. Returns the violations, as `rule at /json/pointer`.
 */
type Schema = Record<string, unknown>;

export const HOSTS = ['claude', 'cursor', 'gemini', 'openai', 'openai-strict', 'vscode'] as const;
export type Host = (typeof HOSTS)[number];

/** Hosts' tool caps (tools sent to the model). */
export const HOST_TOOL_CAPS: Record<Host | 'portable', number> = {
  claude: Infinity,
  cursor: 40,
  gemini: 512,
  openai: 128,
  'openai-strict': 128,
  vscode: 128,
  portable: 40,
};

const GEMINI_ALLOWED = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'maxItems',
  'minItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'example',
  'default',
  'items',
  'minimum',
  'maximum',
  'anyOf',
]);
const GEMINI_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);
const GEMINI_FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);
const STRICT_ALLOWED = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  '$ref',
  '$defs',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);
const STRICT_FORMATS = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'ipv4', 'ipv6', 'uuid']);
const STRICT_MAX_NESTING = 10;
const COMBINATORS = ['oneOf', 'anyOf', 'allOf'];

/** The violations of one host's rules in one inputSchema; empty when the host takes it. */
export function hostViolations(host: Host | 'portable', inputSchema: Schema): string[] {
  if (host === 'portable')
    return HOSTS.filter((h) => h !== 'openai-strict').flatMap((h) =>
      hostViolations(h, inputSchema).map((v) => `${h}: ${v}`),
    );
  const found: string[] = [];
  const check = CHECKS[host];
  check(inputSchema, found);
  return found;
}

const CHECKS: Record<Host, (root: Schema, found: string[]) => void> = {
  claude: (root, found) => rootChecks(root, found),
  cursor: (root, found) =>
    walk(root, '', (node, at) => {
      for (const k of COMBINATORS) if (k in node) found.push(`${k} at ${at}`);
      if (Array.isArray(node['type'])) found.push(`type array at ${at}`);
    }),
  gemini: (root, found) =>
    walk(root, '', (node, at, parentKey) => {
      for (const key of Object.keys(node)) if (!GEMINI_ALLOWED.has(key)) found.push(`keyword ${key} at ${at}`);
      const type = node['type'];
      if (typeof type !== 'string' || !GEMINI_TYPES.has(type))
        found.push(`untyped or type ${JSON.stringify(type)} at ${at}`);
      if (Array.isArray(node['enum']) && (type !== 'string' || !node['enum'].every((v) => typeof v === 'string')))
        found.push(`non-string enum at ${at}`);
      if (typeof node['format'] === 'string' && !GEMINI_FORMATS.has(node['format']))
        found.push(`format ${node['format']} at ${at}`);
      if ('anyOf' in node && ('type' in node || parentKey === 'items'))
        found.push(`anyOf with type or in items at ${at}`);
    }),
  openai: (root, found) => {
    rootChecks(root, found);
    if (typeof root['properties'] !== 'object' || root['properties'] === null)
      found.push('object schema missing properties at root');
    walk(root, '', (node, at) => {
      if (node['type'] === 'array' && node['items'] === undefined) found.push(`array without items at ${at}`);
      if (node['type'] === 'object' && node['properties'] === undefined)
        found.push(`object without properties at ${at}`);
    });
  },
  'openai-strict': (root, found) => {
    rootChecks(root, found);
    walk(root, '', (node, at, _parent, level) => {
      for (const key of Object.keys(node)) if (!STRICT_ALLOWED.has(key)) found.push(`keyword ${key} at ${at}`);
      if (level > STRICT_MAX_NESTING) found.push(`nesting deeper than ${STRICT_MAX_NESTING} levels at ${at}`);
      const types = Array.isArray(node['type']) ? node['type'] : [node['type']];
      const typed =
        node['type'] !== undefined || 'anyOf' in node || '$ref' in node || 'enum' in node || 'const' in node;
      if (!typed) found.push(`untyped at ${at}`);
      if (typeof node['format'] === 'string' && !STRICT_FORMATS.has(node['format']))
        found.push(`format ${node['format']} at ${at}`);
      if (types.includes('object')) {
        const properties = node['properties'];
        if (typeof properties !== 'object' || properties === null) found.push(`object without properties at ${at}`);
        if (node['additionalProperties'] !== false) found.push(`additionalProperties not false at ${at}`);
        const required = Array.isArray(node['required']) ? node['required'] : [];
        for (const key of Object.keys((properties as Schema | undefined) ?? {}))
          if (!required.includes(key)) found.push(`property ${key} not required at ${at}`);
      }
      if (types.includes('array') && node['items'] === undefined) found.push(`array without items at ${at}`);
    });
  },
  vscode: (root, found) =>
    walk(root, '', (node, at) => {
      for (const key of ['$dynamicRef', '$dynamicAnchor', 'unevaluatedProperties'])
        if (key in node) found.push(`${key} at ${at}`);
    }),
};

/** Anthropic's and OpenAI's: the root is an object schema, with no combinator or `not` at its top. */
function rootChecks(root: Schema, found: string[]): void {
  if (root['type'] !== 'object') found.push('root not type object');
  for (const k of [...COMBINATORS, 'not']) if (k in root) found.push(`${k} at root`);
}

/**
 * Every subschema, with its JSON pointer, the keyword it hangs under and its nesting level: for an object or
 * array, how many objects and arrays enclose it, itself included (the root is level 1); 0 for other values.
 */
function walk(
  node: unknown,
  at: string,
  visit: (node: Schema, at: string, parentKey: string | undefined, level: number) => void,
  parentKey?: string,
  depth = 0,
): void {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
  const schema = node as Schema;
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  const nested = types.includes('object') || types.includes('array');
  visit(schema, at || '/', parentKey, nested ? depth + 1 : 0);
  const below = depth + (nested ? 1 : 0);
  for (const [key, value] of Object.entries(schema)) {
    if (
      key === 'properties' ||
      key === '$defs' ||
      key === 'definitions' ||
      key === 'patternProperties' ||
      key === 'dependentSchemas'
    ) {
      if (typeof value === 'object' && value !== null)
        for (const [name, sub] of Object.entries(value)) walk(sub, `${at}/${key}/${escape(name)}`, visit, key, below);
    } else if (
      [
        'items',
        'additionalProperties',
        'not',
        'if',
        'then',
        'else',
        'contains',
        'propertyNames',
        'unevaluatedProperties',
        'unevaluatedItems',
        'additionalItems',
      ].includes(key)
    ) {
      walk(value, `${at}/${key}`, visit, key, below);
    } else if ((COMBINATORS.includes(key) || key === 'prefixItems') && Array.isArray(value)) {
      value.forEach((sub, i) => walk(sub, `${at}/${key}/${i}`, visit, key, depth));
    }
  }
}

function escape(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1');
}
