/**
 * The data contract between the generator and the runtime: `catalog.json` in a generated project holds a
 * `Catalog`. The generator writes it (src/emit), the runtime reads it. Nothing else crosses that line, so
 * this file is the only place where both sides must agree.
 */

/** A JSON Schema 2020-12 document or sub-schema, kept as plain data. */
export type JsonSchema = { [key: string]: unknown };

export type ParamLocation = 'path' | 'query' | 'header' | 'cookie';

/** OpenAPI serialization styles (3.x names; Swagger 2.0 collectionFormat is mapped onto these). */
export type ParamStyle =
  | 'simple'
  | 'label'
  | 'matrix'
  | 'form'
  | 'spaceDelimited'
  | 'pipeDelimited'
  | 'deepObject'
  /** Swagger 2.0 `collectionFormat: tsv`: tab-separated values. */
  | 'tabDelimited';

/** How one tool argument becomes one parameter on the wire. */
export interface ParamPlan {
  /** Property name in the tool's inputSchema (may differ from `name` when names collide). */
  arg: string;
  /** Name on the wire, exactly as the spec spells it. */
  name: string;
  in: ParamLocation;
  style: ParamStyle;
  explode: boolean;
  /** Query only: leave RFC 3986 reserved characters unencoded. */
  allowReserved?: boolean;
  /** Parameters declared with `content` (not `schema`): the value is serialized as this media type (JSON). */
  contentType?: string;
}

/**
 * How the request body is encoded.
 * - json: JSON.stringify of the argument.
 * - form: application/x-www-form-urlencoded; objects become `a[b]=c`, arrays `a[]=x` (the convention of
 *   Stripe and of most form APIs), unless `encoding` says otherwise.
 * - multipart: multipart/form-data; file parts are `{ base64|text, filename?, contentType? }` objects.
 * - binary: the argument is `{ base64 }` or `{ text }`; sent as raw bytes.
 * - text: the argument is a string, sent as is.
 */
/** RFC 4648 section 4 (`base64`) or section 5 (`base64url`). */
export type Base64Alphabet = 'base64' | 'base64url';

export type BodyKind = 'json' | 'form' | 'multipart' | 'binary' | 'text';

export interface BodyPlan {
  arg: string;
  mediaType: string;
  kind: BodyKind;
  required: boolean;
  /**
   * The spec requires a Content-Type header even when the (optional) body is left out: send the body's media
   * type then too.
   */
  contentTypeRequired?: boolean;
  /** Multipart/form: properties that are files (base64 objects in the input). */
  fileFields?: string[];
  /**
   * The argument is base64 text (`format: byte`): refused unless it is base64 (either alphabet), then sent as that
   * text in the spec's alphabet.
   */
  base64?: Base64Alphabet;
  /** Form/multipart: per-property serialization from the spec's `encoding` (only non-defaults are listed). */
  encoding?: Record<string, { style?: ParamStyle; explode?: boolean; contentType?: string }>;
}

export interface RequestPlan {
  method: string;
  /** Path template as in the spec, e.g. `/pets/{petId}`. */
  path: string;
  params: ParamPlan[];
  body?: BodyPlan;
  /** Operation- or path-level server URL (absolute or relative), used instead of the API's default base URL. */
  server?: string;
  /** Media type to ask for, when the operation's success response names one. */
  accept?: string;
}

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface CatalogTool {
  name: string;
  title?: string;
  /** What tools/list shows: what the operation does, then its description condensed to a budget. */
  description: string;
  /** The spec's description whole, when `description` left some of it out: what describe_operation shows. */
  fullDescription?: string;
  /** Root `type: object` schema; `$ref`s point into `#/$defs/<name>` for names listed in `defs`. */
  inputSchema: JsonSchema;
  /** Names of shared schemas (in `Catalog.defs`) this tool's inputSchema needs, transitively. */
  defs: string[];
  /**
   * What a listing that offers `describe_operation` (hybrid mode) shows instead of the input schema, when the
   * whole one is over the listing's per-tool budget: self-contained (no `$ref`), deep structure summarized. Only
   * for core tools. Calls are still validated against the whole schema.
   */
  compactInputSchema?: JsonSchema;
  /**
   * A lenient outline of the success response (top-level properties, every type nullable, nothing required),
   * so no response that conforms to the spec fails a client's validation. Absent when the spec gives none.
   */
  outputSchema?: JsonSchema;
  /** The response root is not an object: structured results are `{ result: <value> }`. */
  wrapOutput?: boolean;
  annotations: ToolAnnotations;
  request: RequestPlan;
  /** Names of security requirement alternatives; each alternative is a list of scheme names (AND). */
  security?: string[][];
  operationId?: string;
  deprecated?: boolean;
}

/** How credentials for one security scheme are sent upstream, and where they come from. */
export interface CatalogSecurityScheme {
  name: string;
  kind: 'apiKey' | 'http-bearer' | 'http-basic' | 'http-raw' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  /** apiKey: where and under which name the key goes. */
  in?: 'header' | 'query' | 'cookie';
  paramName?: string;
  /** http: the scheme word (`Bearer`, `Basic`, `Digest`, …). */
  scheme?: string;
  /**
   * Environment variables that hold the credential (token/key, or username + password for basic); for a
   * client-credentials scheme also the client id and secret, and overrides of the token URL and scopes.
   */
  env: {
    value?: string;
    username?: string;
    password?: string;
    clientId?: string;
    clientSecret?: string;
    tokenUrl?: string;
    scopes?: string;
    /** mutualTLS: the client certificate and its key (PEM files, read at start: upstream-tls.ts). */
    certFile?: string;
    privateFile?: string;
  };
  /** oauth2 with a clientCredentials flow: the server fetches (and caches) its own access token. */
  clientCredentials?: { tokenUrl: string; scopes: string[] };
}

/**
 * Per-caller upstream credentials over HTTP: `map` names, per security scheme, the header of the incoming MCP
 * request that carries that caller's credential (lower case). `off`: every caller uses the server's environment.
 */
export interface CallerCredentialsConfig {
  mode: 'off' | 'headers';
  map?: Record<string, string>;
}

/**
 * - all: one tool per operation.
 * - dynamic: only the meta-tools (search, describe, call); every operation is reached through them.
 * - hybrid: the `core` operations as direct tools, plus the meta-tools for the rest.
 * - code: `search` (TypeScript declarations of operations) and `execute` (a program calling them as `api.*`).
 */
export const TOOL_MODES = ['all', 'dynamic', 'hybrid', 'code'] as const;
export type ToolMode = (typeof TOOL_MODES)[number];

/**
 * Code mode's write policy: which operations a program may call, by their annotations. `read`: read-only
 * ones; `write`: also writes that are not destructive; `destructive`: every operation.
 */
export const CODE_ALLOW = ['read', 'write', 'destructive'] as const;
export type CodeAllow = (typeof CODE_ALLOW)[number];

/** Code mode's policy and limits chosen at generation (the config's `codeMode`); MCP_CODE_* override them. */
export interface CodeModeConfig {
  allow?: CodeAllow;
  timeoutMs?: number;
  memoryMb?: number;
  maxCalls?: number;
  maxResultBytes?: number;
  maxProgramBytes?: number;
  maxPrograms?: number;
}

/**
 * Which tool calls the user confirms before anything is sent upstream (confirm-policy.ts): the destructive
 * ones (DELETE, or annotated `destructiveHint`), every one that is not read-only, none, or the tools named.
 */
export type ConfirmPolicy = 'destructive' | 'writes' | 'never' | string[];

export interface Catalog {
  /** Bumped when the shape of this file changes. */
  format: 1;
  /** The mode chosen at generation; the server's MCP_TOOL_MODE environment variable overrides it. */
  toolMode: ToolMode;
  /** Tool names listed directly in hybrid mode. */
  core: string[];
  server: {
    name: string;
    version: string;
    title: string;
    instructions: string;
  };
  /** Default upstream base URL, or undefined when the spec names none (API_BASE_URL is then required). */
  baseUrl?: string;
  /** Why there is no usable default base URL, shown at start-up. */
  baseUrlNote?: string;
  /**
   * The tools' names in order, written by the generator ahead of the tools: a server starts from these and
   * never reads a tool's line before it needs that tool (tool-table.ts), and refuses catalog.json without them.
   * Optional here for catalogs held as objects (a registry made from a Catalog, in tests).
   */
  toolNames?: string[];
  defs: Record<string, JsonSchema>;
  /** One per line in catalog.json, so the server can parse them one at a time (tool-table.ts). */
  tools: CatalogTool[];
  securitySchemes: CatalogSecurityScheme[];
  /** Chosen at generation (--caller-credentials); MCP_CALLER_CREDENTIALS overrides it. Absent: off. */
  callerCredentials?: CallerCredentialsConfig;
  /** Code mode's policy and limits from the generator config; absent: the defaults. */
  codeMode?: CodeModeConfig;
  /** Chosen at generation (config `confirm`); MCP_CONFIRM overrides it. Absent: `destructive`. */
  confirm?: ConfirmPolicy;
  /** What the server offers besides tools (config `resources`, `prompts`); absent: nothing. */
  resources?: CatalogResources;
  prompts?: CatalogPrompt[];
}

/**
 * Resources: files of the project (the API description and the operations guide), and URI templates read
 * through a GET operation's tool (same request mapping, credentials, hooks, redaction and truncation).
 */
export interface CatalogResources {
  documents: CatalogDocument[];
  templates: CatalogResourceTemplate[];
}

export interface CatalogDocument {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** The file, relative to catalog.json. */
  file: string;
}

export interface CatalogResourceTemplate {
  /** RFC 6570, e.g. `github://repos/{owner}/{repo}`; every variable is an argument of the tool. */
  uriTemplate: string;
  name: string;
  title?: string;
  description: string;
  mimeType: string;
  tool: string;
}

/** A prompt: its text names tools; `{{argument}}` placeholders are filled from the prompt's arguments. */
export interface CatalogPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments: Array<{ name: string; description?: string; required?: boolean }>;
  /** The message text; or the project file it is read from (the operations guide). */
  text?: string;
  file?: string;
}

/** The catalog without its tools: what the server parses at start-up. */
export type CatalogHeader = Omit<Catalog, 'tools'>;
