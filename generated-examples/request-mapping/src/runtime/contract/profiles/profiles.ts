/**
 * Client profiles: what each host accepts of a tool list, as lowering rules (lower-schema.ts) and a tool cap.
 * A tool that breaks its host's rules is dropped by the host, or makes it refuse the whole request; the server
 * lists each client a listing its host takes. Free of SDK imports: the generator reports on them too.
 *
 * The rules per host, each from a public report:
 * - claude: no combinator at the root of an inputSchema (the Anthropic API refuses `oneOf`/`anyOf`/`allOf`
 *   there); Claude Code loads tools on demand (tool search), so no count cap. The API's tool definition is
 *   `name`, `description`, `input_schema`: an output schema never reaches the model, so none is listed.
 * - cursor: a `oneOf`/`anyOf`/`allOf` anywhere in one tool's schema makes Cursor's gateway refuse the whole
 *   request (code-yeongyu/senpi#952, measured construct by construct); `type: [X, "null"]` fails Cursor's own
 *   argument check (cursor/cursor#3778); Cursor sends the model 40 tools.
 * - gemini: the Gemini API's `parameters` field (gemini-cli, and most harnesses) takes an OpenAPI 3.0 Schema
 *   subset: no `$ref`/`$defs` (gemini-cli#13326, agent-infra/sandbox#83 "reference to undefined schema"), no
 *   `additionalProperties`, `$schema`, `const`, `examples`, `exclusiveMinimum`; one type per node (`nullable`
 *   for null), every node typed ("missing types in its parameter schema"), enum values strings, no `anyOf` in
 *   `items` (github/copilot-cli#4623; here no union at all: "type and anyOf cannot be both populated",
 *   gemini-cli#4121); formats `enum`, `date-time`, `int32`, `int64`, `float`, `double`; at most 512 function
 *   declarations (gemini-cli#19083).
 * - openai: every object schema needs `properties` ("object schema missing properties",
 *   github/github-mcp-server#1548), every array `items`; no combinator at the root; at most 128 tools
 *   (openai/openai-openapi#76). A function is `name`, `description`, `parameters` (and `strict`): no output
 *   schema is listed (openai-strict neither).
 * - openai-strict: OpenAI's strict function calling (Structured Outputs' supported subset): every object lists
 *   `properties`, all of them `required`, `additionalProperties: false`; optional values are nullable
 *   (OpenAI's documented convention, `type: [X, "null"]`); no `allOf`/`oneOf`/`not`, no `default`, formats
 *   only date-time, time, date, duration, email, hostname, ipv4, ipv6, uuid (so no `uri`); no `minLength`,
 *   `maxLength`, `uniqueItems`, `minProperties` and the like; at most 10 levels of nesting; 128 tools.
 * - vscode: VS Code Copilot drops tools with `$dynamicRef` and crashes on `$dynamicAnchor` /
 *   `unevaluatedProperties` (microsoft/vscode#251315, #318984); 128 tools.
 * - portable: every rule above but openai-strict's, which contradict Gemini's (strict mode requires
 *   `additionalProperties: false` on every object, Gemini refuses the keyword) and Cursor's (an optional
 *   property in strict mode needs a null type, Cursor refuses type arrays and unions); the smallest cap, 40.
 * - full: the spec's schemas, unchanged (unknown clients).
 */
import { readEnv } from '../environment.js';
import type { LoweringRules } from './lower-schema.js';
import { isProfileName, PROFILE_NAMES, type ProfileName } from './profile-names.js';

export type { ProfileName } from './profile-names.js';

export interface ClientProfile {
  name: ProfileName;
  /** Undefined for `full`: the listing is the catalog's own. */
  rules?: LoweringRules;
  /** Most tools the host sends the model; above it the client gets the hybrid listing. */
  maxTools: number;
  /**
   * The host's model API has no place for a tool's output schema (Anthropic's tool definitions, OpenAI's
   * functions), so the listing leaves them out: they would cost the wire and tell the model nothing.
   */
  omitOutputSchemas?: true;
}

export const NO_RULES: LoweringRules = {
  inlineRefs: false,
  unions: 'keep',
  typeArrays: 'keep',
  typedNodes: false,
  stringEnums: false,
  constAsEnum: false,
  objectProperties: false,
  arrayItems: false,
  dropAdditionalProperties: false,
  strictObjects: false,
};

/** The keywords of the Gemini API's Schema object (an OpenAPI 3.0 subset), less `anyOf` (unions are merged). */
const GEMINI_KEYWORDS = new Set([
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
]);
const GEMINI_FORMATS = new Set(['enum', 'date-time', 'int32', 'int64', 'float', 'double']);

/** What OpenAI's strict mode supports (the Structured Outputs subset). */
const OPENAI_STRICT_KEYWORDS = new Set([
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
const OPENAI_STRICT_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const OPENAI_STRICT_MAX_DEPTH = 10;

const VSCODE_DROPPED = new Set(['$dynamicRef', '$dynamicAnchor', 'unevaluatedProperties', 'unevaluatedItems']);

const CURSOR_RULES: LoweringRules = { ...NO_RULES, unions: 'all', typeArrays: 'single' };
const GEMINI_RULES: LoweringRules = {
  ...NO_RULES,
  inlineRefs: true,
  unions: 'all',
  typeArrays: 'nullable-keyword',
  typedNodes: true,
  stringEnums: true,
  constAsEnum: true,
  keywords: GEMINI_KEYWORDS,
  formats: GEMINI_FORMATS,
  dropAdditionalProperties: true,
};

export const PROFILES: Readonly<Record<ProfileName, ClientProfile>> = {
  full: { name: 'full', maxTools: Infinity },
  claude: { name: 'claude', rules: { ...NO_RULES, unions: 'root' }, maxTools: Infinity, omitOutputSchemas: true },
  cursor: { name: 'cursor', rules: CURSOR_RULES, maxTools: 40 },
  gemini: { name: 'gemini', rules: GEMINI_RULES, maxTools: 512 },
  openai: {
    name: 'openai',
    rules: { ...NO_RULES, unions: 'root', objectProperties: true, arrayItems: true },
    maxTools: 128,
    omitOutputSchemas: true,
  },
  'openai-strict': {
    name: 'openai-strict',
    rules: {
      ...NO_RULES,
      inlineRefs: true,
      unions: 'all',
      typedNodes: true,
      keywords: OPENAI_STRICT_KEYWORDS,
      formats: OPENAI_STRICT_FORMATS,
      objectProperties: true,
      arrayItems: true,
      strictObjects: true,
      maxDepth: OPENAI_STRICT_MAX_DEPTH,
    },
    maxTools: 128,
    omitOutputSchemas: true,
  },
  vscode: { name: 'vscode', rules: { ...NO_RULES, droppedKeywords: VSCODE_DROPPED }, maxTools: 128 },
  // Gemini's rules are the strictest of the five; the others add `properties`/`items` everywhere.
  portable: { name: 'portable', rules: { ...GEMINI_RULES, objectProperties: true, arrayItems: true }, maxTools: 40 },
};

/**
 * `clientInfo.name` as hosts send it (lower case) → profile. Windsurf runs several model families; it gets
 * the portable profile.
 */
export const KNOWN_CLIENTS: Readonly<Record<string, ProfileName>> = {
  'claude-code': 'claude',
  'claude-ai': 'claude',
  'cursor-vscode': 'cursor',
  'visual studio code': 'vscode',
  'visual studio code - insiders': 'vscode',
  'codex-mcp-client': 'openai',
  'openai-mcp': 'openai',
  'gemini-cli-mcp-client': 'gemini',
  'windsurf-client': 'portable',
};

export interface ProfileChoice {
  /** Set by MCP_CLIENT_PROFILE: every client gets this profile. */
  forced?: ProfileName;
  /** KNOWN_CLIENTS with MCP_CLIENT_PROFILES' entries over it (client names in lower case). */
  clients: ReadonlyMap<string, ProfileName>;
}

/**
 * From the environment: MCP_CLIENT_PROFILE=NAME forces one profile; MCP_CLIENT_PROFILES="client name=profile,…"
 * adds to (or overrides) the table of known clients. Unknown profile names are reported, not guessed at.
 */
export function readProfileChoice(env: NodeJS.ProcessEnv): { choice: ProfileChoice; problems: string[] } {
  const problems: string[] = [];
  const clients = new Map<string, ProfileName>(Object.entries(KNOWN_CLIENTS));
  for (const entry of readEnv(env, 'MCP_CLIENT_PROFILES')) {
    const at = entry.lastIndexOf('=');
    const client = entry.slice(0, Math.max(at, 0)).trim().toLowerCase();
    const profile = entry.slice(at + 1).trim();
    if (at <= 0 || !client || !isProfileName(profile))
      problems.push(
        `MCP_CLIENT_PROFILES: "${entry}" is not "client name=profile" with a profile among ${PROFILE_NAMES.join(', ')}`,
      );
    else clients.set(client, profile);
  }
  const forcedRaw = readEnv(env, 'MCP_CLIENT_PROFILE');
  let forced: ProfileName | undefined;
  if (forcedRaw) {
    if (isProfileName(forcedRaw)) forced = forcedRaw;
    else problems.push(`MCP_CLIENT_PROFILE: "${forcedRaw}" is not one of ${PROFILE_NAMES.join(', ')}`);
  }
  return { choice: { ...(forced ? { forced } : {}), clients }, problems };
}

/** The profile for a client by its clientInfo name; unknown and anonymous clients get `full`. */
export function profileFor(choice: ProfileChoice, clientName: string | undefined): ClientProfile {
  if (choice.forced) return PROFILES[choice.forced];
  const name = clientName === undefined ? undefined : choice.clients.get(clientName.trim().toLowerCase());
  return PROFILES[name ?? 'full'];
}
