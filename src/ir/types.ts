/**
 * The intermediate representation. Normalization (src/normalize) turns any supported spec dialect into an
 * `ApiModel`; every later stage reads only this, never the raw document.
 */
import type {
  Base64Alphabet,
  BodyKind,
  JsonSchema,
  ParamLocation,
  ParamStyle,
  RequestPlan,
  ToolAnnotations,
} from '../../templates/runtime/contract/catalog.js';

export type { Base64Alphabet, BodyKind, JsonSchema, ParamLocation, ParamStyle, RequestPlan, ToolAnnotations };

export type SpecDialect = 'swagger-2.0' | 'openapi-3.0' | 'openapi-3.1';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';

export interface ApiModel {
  kind: 'api';
  dialect: SpecDialect;
  title: string;
  version: string;
  description?: string;
  /** Servers in spec order, with variables resolved to their defaults. */
  servers: ServerModel[];
  operations: OperationModel[];
  /** Shared JSON Schemas (2020-12), keyed by a `$defs`-safe name. Only schemas that inputs reference. */
  schemas: Record<string, JsonSchema>;
  securitySchemes: SecuritySchemeModel[];
  /** The spec's tag declarations (name, display name, description), in spec order. */
  tags: TagModel[];
  /** Global security requirements (alternatives of AND-lists of scheme names). */
  security?: string[][];
}

export interface TagModel {
  kind: 'tag';
  name: string;
  /** `x-displayName`, as Redoc and others show the tag. */
  displayName?: string;
  description?: string;
}

export interface ServerModel {
  kind: 'server';
  /** URL with variables substituted by their defaults; may be relative (`/api/v3`). */
  url: string;
  description?: string;
}

export interface OperationModel {
  kind: 'operation';
  /** The spec's operationId, verbatim, when there is one. */
  operationId?: string;
  method: HttpMethod;
  /** The spec's path key, verbatim: the operation's identity (config, names, lock). */
  path: string;
  /** The path template to send, when the key carries a query string (see normalize/path-query.ts). */
  requestPath?: string;
  summary?: string;
  description?: string;
  deprecated: boolean;
  tags: string[];
  parameters: ParameterModel[];
  body?: BodyModel;
  /** Operation- or path-level servers, when the spec overrides the global ones here. */
  servers?: ServerModel[];
  /** Media type of the preferred success response, for the Accept header. */
  responseMediaType?: string;
  /** Outline of the success response (see schema/outline.ts); `wrap` when the root is not an object. */
  output?: { schema: JsonSchema; wrap: boolean };
  /** The success response's shape a few levels deep, for code mode's declarations (schema/result-shape.ts). */
  resultShape?: JsonSchema;
  /** What the success response holds, in words: its schema's name and property names (schema/response-words.ts). */
  responseWords?: ResponseWords;
  /** `undefined` = inherit the global requirement; `[]` = explicitly public. */
  security?: string[][];
  /** JSON pointer of the operation in the source document. */
  pointer: string;
  /** The `x-mcp` extension (operation, path item or root), when the spec uses it: see normalize/x-mcp.ts. */
  xMcp?: XMcpModel;
  /** A sample success response (the spec's example, else one built from its schema), for the generated mock API. */
  responseExample?: unknown;
  /** OpenAPI 3 links of the success responses: which parameters of which operations this response supplies. */
  links?: LinkModel[];
  /** The objects the success response returns (normalize/returned-objects.ts): what later calls can take from it. */
  returns?: ReturnedObject[];
}

/** A response link (OpenAPI 3): the target operation, by operationId or by a local operationRef pointer. */
export interface LinkModel {
  operationId?: string;
  operationRef?: string;
  /** Names of the target's parameters the link fills (a `path.`-style location prefix removed). */
  parameters: string[];
}

/**
 * One object a success response carries: the response itself, or the items of a list in it (`[...]`,
 * `{items: [...]}`, `{tracks: {items: [...]}}`). Shared between operations that return the same schema.
 */
export interface ReturnedObject {
  /** What the object is, in words: its schema's name and the property names that lead to it (`tracks`, `items`). */
  entity: string[];
  /** Scalar properties: name → JSON type (`any` when the schema gives none). */
  fields: Record<string, string>;
  /** Property steps from the response's root (0: the response or its array items). */
  depth: number;
  /** An item of a list (not the response itself, nor an object on its own): what a listing or a search hands out. */
  listed: boolean;
}

/** `x-mcp: false` leaves the operation out (`excludedAt` says where it was set); an object overrides what the model sees. */
export interface XMcpModel {
  excludedAt?: 'operation' | 'path' | 'root';
  name?: string;
  title?: string;
  description?: string;
  annotations?: Omit<ToolAnnotations, 'title'>;
}

/** What an operation's success response holds, in words (schema/response-words.ts). */
export interface ResponseWords {
  /** The schema's names: few words, and they name the thing returned, as a path resource does. */
  names: string[];
  /** Its property names: many, most shared by every response (`id`, `url`), so weaker evidence each. */
  properties: string[];
}

export interface ParameterModel {
  kind: 'parameter';
  name: string;
  in: ParamLocation;
  required: boolean;
  description?: string;
  deprecated: boolean;
  schema: JsonSchema;
  style: ParamStyle;
  explode: boolean;
  allowReserved: boolean;
  /** Set for parameters described with `content` instead of `schema`. */
  contentType?: string;
}

export interface BodyModel {
  kind: 'body';
  mediaType: string;
  encodingKind: BodyKind;
  required: boolean;
  description?: string;
  /** Input schema of the body as the tool accepts it (files already mapped to base64 objects). */
  schema: JsonSchema;
  fileFields: string[];
  /**
   * The schema is base64 text (`format: byte`, `contentEncoding: base64` or `base64url`): the argument is that text,
   * checked to be base64 and sent, in the spec's alphabet, as text (kind `text`, or `json` for a JSON media type,
   * where it is a JSON string).
   */
  base64Text?: Base64Alphabet;
  encoding?: Record<string, { style?: ParamStyle; explode?: boolean; contentType?: string }>;
  /** Other media types the spec offers for this body, for documentation. */
  alternatives: string[];
}

export interface SecuritySchemeModel {
  kind: 'securityScheme';
  name: string;
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  in?: 'header' | 'query' | 'cookie';
  paramName?: string;
  scheme?: string;
  description?: string;
  /** oauth2 only: the clientCredentials flow (Swagger 2.0 `flow: application`), when the spec offers one. */
  clientCredentials?: { tokenUrl: string; scopes: string[] };
}

/** One MCP tool, ready to emit: what the model sees and how its arguments become the HTTP request. */
export interface ToolModel {
  kind: 'tool';
  name: string;
  title?: string;
  /** What the model reads: what the operation does, then its description condensed (tools/tool-description.ts). */
  description: string;
  /**
   * The spec's description whole (describe_operation, the search index); absent when an owner's description
   * replaced the spec's, which is then read everywhere.
   */
  fullDescription?: string;
  /** Root `type: object`; `$ref`s point to `#/$defs/<name>` for the names in `defs`. */
  inputSchema: JsonSchema;
  defs: string[];
  /** Outline of the success response; `wrapOutput` when results come as `{ result: <value> }`. */
  outputSchema?: JsonSchema;
  wrapOutput?: boolean;
  /** See OperationModel.resultShape. */
  resultShape?: JsonSchema;
  /** See OperationModel.responseWords; the search indexes them. */
  responseWords?: ResponseWords;
  annotations: ToolAnnotations;
  request: RequestPlan;
  security?: string[][];
  operationId?: string;
  deprecated: boolean;
  tags: string[];
  /** Where the tool came from, for diagnostics, README and the lock file. */
  source: { method: HttpMethod; path: string; pointer: string };
}
