/** OperationModel → ToolModel: what the model sees (name, description, inputSchema) and the request plan. */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type {
  JsonSchema,
  OperationModel,
  ParameterModel,
  RequestPlan,
  SecuritySchemeModel,
  ToolModel,
} from '../ir/types.js';
import { createParameter } from '../ir/factory.js';
import { transitiveDefs } from '../schema/refs.js';
import { plainPunctuation, trimDescription } from '../schema/to-json-schema.js';
import type { BodyPlan, ParamPlan } from '../../templates/runtime/contract/catalog.js';
import { annotationsFor } from './annotations.js';
import { assignArgumentNames } from './arguments.js';
import { toolDescription } from './tool-description.js';

/**
 * The full description (describe_operation, search) is kept whole up to here: GitHub's longest is 4.5 kB;
 * only a hostile spec goes past, and the catalog holds the text once per tool.
 */
export const MAX_FULL_DESCRIPTION = 16_000;

export interface MappingContext {
  defs: Record<string, JsonSchema>;
  globalSecurity: string[][] | undefined;
  securitySchemes: readonly SecuritySchemeModel[];
  diags: Diagnostics;
  /** Declare output schemas (outlines of the success response). */
  outputSchemas: boolean;
}

/**
 * `shortenedFrom`: the operation's full name when `name` had to be cut to fit the hosts' limits; the title keeps
 * it (after the summary), so a person can still find the operation.
 */
export function mapOperation(op: OperationModel, name: string, ctx: MappingContext, shortenedFrom?: string): ToolModel {
  const { defs, diags } = ctx;
  const security = op.security ?? ctx.globalSecurity;
  const parameters = withoutSuppliedHeaders(withMissingPathParams(op, diags), op, security, ctx.securitySchemes);
  const names = assignArgumentNames(parameters, op.body !== undefined);
  for (const r of names.renamed)
    diags.info('OTM_PARAM_RENAMED', op.pointer, `${r.from} is argument ${r.to} (${r.why})`);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const { param, arg } of names.params) {
    properties[arg] = param.schema;
    if (param.required) required.push(arg);
  }
  if (op.body && names.body) {
    properties[names.body] = op.body.schema;
    if (op.body.required) required.push(names.body);
  }
  const inputSchema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) inputSchema['required'] = required;
  inputSchema['additionalProperties'] = false;
  return {
    kind: 'tool',
    name,
    ...toolTitle(op.summary, shortenedFrom),
    description: withBodyUsage(modelDescription(op), op.body, names.body),
    fullDescription: withBodyUsage(specDescription(op), op.body, names.body),
    inputSchema,
    defs: transitiveDefs(inputSchema, defs),
    ...(op.output && ctx.outputSchemas
      ? { outputSchema: op.output.schema, ...(op.output.wrap ? { wrapOutput: true } : {}) }
      : {}),
    ...(op.resultShape ? { resultShape: op.resultShape } : {}),
    ...(op.responseWords ? { responseWords: op.responseWords } : {}),
    annotations: annotationsFor(op.method),
    request: requestPlan(op, names.params, names.body),
    ...(security ? { security } : {}),
    ...(op.operationId ? { operationId: op.operationId } : {}),
    deprecated: op.deprecated,
    tags: op.tags,
    source: { method: op.method, path: op.path, pointer: op.pointer },
  };
}

function requestPlan(
  op: OperationModel,
  params: Array<{ param: ParameterModel; arg: string }>,
  bodyArg: string | undefined,
): RequestPlan {
  const plan: RequestPlan = {
    method: op.method.toUpperCase(),
    path: op.requestPath ?? op.path,
    params: params.map(({ param, arg }) => paramPlan(param, arg)),
  };
  if (op.body && bodyArg) plan.body = bodyPlan(op, bodyArg, requiresContentTypeHeader(op));
  const server = op.servers?.[0]?.url;
  if (server) plan.server = server;
  if (op.responseMediaType) plan.accept = op.responseMediaType;
  return plan;
}

function paramPlan(param: ParameterModel, arg: string): ParamPlan {
  const plan: ParamPlan = { arg, name: param.name, in: param.in, style: param.style, explode: param.explode };
  if (param.allowReserved) plan.allowReserved = true;
  if (param.contentType) plan.contentType = param.contentType;
  return plan;
}

function bodyPlan(op: OperationModel, arg: string, contentTypeRequired: boolean): BodyPlan {
  const body = op.body!;
  const plan: BodyPlan = { arg, mediaType: body.mediaType, kind: body.encodingKind, required: body.required };
  if (contentTypeRequired && !body.required) plan.contentTypeRequired = true;
  if (body.fileFields.length > 0) plan.fileFields = body.fileFields;
  if (body.base64Text) plan.base64 = body.base64Text;
  if (body.encoding) plan.encoding = body.encoding;
  return plan;
}

/** Every `{name}` in the path needs an argument; a spec that forgets to declare one still gets a usable tool. */
function withMissingPathParams(op: OperationModel, diags: Diagnostics): ParameterModel[] {
  const declared = new Set(op.parameters.filter((p) => p.in === 'path').map((p) => p.name));
  const missing = [...(op.requestPath ?? op.path).split('?')[0]!.matchAll(/\{([^}]+)\}/g)]
    .map((m) => m[1]!)
    .filter((n) => !declared.has(n));
  for (const name of missing)
    diags.warn(
      'OTM_PATH_PARAM_MISSING',
      op.pointer,
      `path variable {${name}} is not declared; it is accepted as a required string`,
    );
  return [
    ...op.parameters,
    ...missing.map((name) => createParameter({ name, in: 'path', required: true, schema: { type: 'string' } })),
  ];
}

/**
 * Content-Type and Authorization header parameters are dropped where the request body or the operation's
 * security schemes already set them; elsewhere (an API that documents its auth header as a parameter) they
 * stay arguments.
 */
function withoutSuppliedHeaders(
  params: ParameterModel[],
  op: OperationModel,
  security: string[][] | undefined,
  schemes: readonly SecuritySchemeModel[],
): ParameterModel[] {
  const used = new Set((security ?? []).flat());
  const authBySecurity = schemes.some(
    (s) =>
      used.has(s.name) &&
      (s.type === 'http' ||
        s.type === 'oauth2' ||
        s.type === 'openIdConnect' ||
        (s.type === 'apiKey' && s.in === 'header' && s.paramName?.toLowerCase() === 'authorization')),
  );
  return params.filter((p) => {
    if (p.in !== 'header') return true;
    const name = p.name.toLowerCase();
    if (name === 'content-type') return op.body === undefined;
    if (name === 'authorization') return !authBySecurity;
    return true;
  });
}

/** A required `Content-Type` header parameter next to an optional body: the API wants the header regardless. */
function requiresContentTypeHeader(op: OperationModel): boolean {
  return op.parameters.some((p) => p.in === 'header' && p.required && p.name.toLowerCase() === 'content-type');
}

/** What the model reads in the listing: see tool-description.ts. */
function modelDescription(op: OperationModel): string {
  const text = toolDescription(op) || routeText(op);
  return op.deprecated ? `[Deprecated] ${text}` : text;
}

/** The spec's own description, as written (the summary when there is none). */
function specDescription(op: OperationModel): string {
  const text = trimDescription(op.description ?? op.summary ?? routeText(op), MAX_FULL_DESCRIPTION);
  return op.deprecated ? `[Deprecated] ${text}` : text;
}

/** An operation the spec says nothing about is described by its route. */
function routeText(op: OperationModel): string {
  return `${op.method.toUpperCase()} ${op.path}`;
}

/**
 * Raw bodies are not the JSON a model would guess from the media type: the description says what to pass (the
 * body argument's schema says it too, but some hosts show models only the description).
 */
function withBodyUsage(description: string, body: OperationModel['body'], arg: string | undefined): string {
  if (!body || !arg) return description;
  if (body.encodingKind === 'binary')
    return `${description}\n\nRequest body (${body.mediaType}): raw bytes; pass them base64-encoded as \`${arg}: { base64 }\`; they are decoded and sent as bytes.`;
  if (body.base64Text)
    return `${description}\n\nRequest body (${body.mediaType}): base64 text; pass it as the string \`${arg}\` (RFC 4648, e.g. "aGVsbG8=" for "hello"); a value that is not base64 is refused; it is sent as text, not decoded.`;
  return description;
}

function toolTitle(summary: string | undefined, fullName: string | undefined): { title?: string } {
  const text = summary ? oneLine(summary) : undefined;
  if (fullName === undefined) return text ? { title: text } : {};
  return { title: text ? `${text} (${fullName})` : fullName };
}

function oneLine(text: string): string {
  return plainPunctuation(text).replace(/\s+/g, ' ').trim();
}
