/**
 * Every diagnostic code the generator can emit, with what it means and how to fix it. A code that is not
 * listed here does not type-check, so no diagnostic ships undocumented. `npm run readme:update` writes the table
 * of docs/diagnostics.md from this (test/src/diagnostics/codes.test.ts fails when it is stale); each code has a
 * fixture in fixtures/invalid/ (test/src/diagnostics/fixtures.test.ts).
 */
export const DIAGNOSTIC_CODES = {
  OTM_LOAD_FAILED: {
    title: 'The spec could not be read',
    fix: 'Check the path or URL and that the file is YAML or JSON.',
  },
  OTM_NOT_OPENAPI: {
    title: 'Not an OpenAPI or Swagger document',
    fix: 'The document needs `openapi: 3.x` or `swagger: "2.0"` at its root.',
  },
  OTM_UNSUPPORTED_VERSION: { title: 'Unsupported OpenAPI version', fix: 'Use Swagger 2.0, OpenAPI 3.0.x or 3.1.x.' },
  OTM_BUNDLE_FALLBACK: {
    title: 'External references could not all be resolved',
    fix: 'Fix the `$ref`s named in the message; unresolved ones are treated as free-form values.',
  },
  OTM_SPEC_INVALID: {
    title: 'The spec fails validation',
    fix: 'Generation goes on; fix the spec where the pointer says to make the server stricter.',
  },
  OTM_UNRESOLVED_REF: {
    title: 'A `$ref` points nowhere',
    fix: 'Fix the reference; the value is accepted as free-form meanwhile.',
  },
  OTM_NO_OPERATIONS: { title: 'The spec has no operations', fix: 'Add paths with HTTP methods.' },
  OTM_DUPLICATE_OPERATION_ID: {
    title: 'Two operations share an operationId',
    fix: 'Make operationIds unique; the later tool gets a suffixed name.',
  },
  OTM_TOOL_RENAMED: {
    title: 'A tool name differs from its operationId',
    fix: 'Tool names must match ^[A-Za-z0-9_.-]{1,64}$, be unique and fit the budget of the server key (docs/names.md); set a valid, shorter operationId to choose the name.',
  },
  OTM_PARAM_RENAMED: {
    title: 'An argument name differs from the parameter name',
    fix: 'Names collided across locations or with the body, or were not valid property names; the wire name is unchanged.',
  },
  OTM_PARAM_INVALID: {
    title: 'A parameter cannot be mapped',
    fix: 'Give the parameter a `name`, a valid `in` and a `schema` or `content`.',
  },
  OTM_PATH_PARAM_MISSING: {
    title: 'A path template variable has no parameter',
    fix: 'Declare every `{name}` of the path as an `in: path` parameter.',
  },
  OTM_UNSUPPORTED_MEDIA_TYPE: {
    title: 'No supported request body media type',
    fix: 'Offer JSON, form, multipart, text or binary; the body is sent as text meanwhile.',
  },
  OTM_OPERATION_SKIPPED: { title: 'An operation was skipped', fix: 'See the message for the reason.' },
  OTM_NO_SERVER: {
    title: 'The spec names no usable server URL',
    fix: 'Add `servers` (3.x) or `host` (2.0), pass --base-url, or set API_BASE_URL when running the server.',
  },
  OTM_SERVER_VARIABLE: { title: 'A server variable has no default', fix: 'Give every server variable a `default`.' },
  OTM_SECURITY_UNKNOWN: {
    title: 'A security requirement names an unknown scheme',
    fix: 'Define the scheme under components.securitySchemes (securityDefinitions in 2.0).',
  },
  OTM_SECURITY_UNSUPPORTED: {
    title: 'A security scheme cannot be applied automatically',
    fix: 'Use a scheme type the generated server applies: apiKey (header, query or cookie), http, oauth2, openIdConnect or mutualTLS.',
  },
  OTM_OUTPUT_NOT_EMPTY: {
    title: 'The output folder holds files this tool did not generate',
    fix: 'Choose an empty folder or pass --force.',
  },
  OTM_SCHEMA_SIMPLIFIED: {
    title: 'A schema construct was simplified',
    fix: 'The input schema accepts a superset of what the spec allows.',
  },
  OTM_CONFIG_INVALID: {
    title: 'The openapi-to-mcp config file cannot be used',
    fix: 'Fix the file named in the message: see docs/regeneration.md for its shape.',
  },
  OTM_CONFIG_NO_MATCH: {
    title: 'A config filter or override matches no operation',
    fix: 'Check the spelling against the spec (tags, operationIds, paths, methods, `METHOD /path` keys), or remove the entry.',
  },
  OTM_OWNER_CODE_STALE: {
    title: 'Your own code uses a tool this regeneration renamed or removed',
    fix: 'Rename or remove the tool name in the file and line the message names (per-tool hooks in src/hooks.ts, `callTool` in src/extensions.ts).',
  },
  OTM_X_MCP_INVALID: {
    title: 'An `x-mcp` extension value is not understood',
    fix: 'Use `x-mcp: false` to leave an operation out, or an object with name, title, description and annotations.',
  },
  OTM_QUERY_IN_PATH: {
    title: 'A path key carries a query string',
    fix: 'Move the query part out of the path key and declare each value as an `in: query` parameter; meanwhile each `name={value}` template is sent as a query parameter.',
  },
} as const satisfies Record<string, { title: string; fix: string }>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
