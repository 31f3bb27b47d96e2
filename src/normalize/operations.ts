/** paths × methods → OperationModel, in spec order. */
import { createOperation } from '../ir/factory.js';
import type { HttpMethod, OperationModel, ServerModel } from '../ir/types.js';
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';
import { asString, derefObject, type NormalizeContext } from './context.js';
import { mergeParameterLists, normalizeParameter } from './parameters.js';
import { normalizeRequestBody, swagger2Body } from './request-body.js';
import { normalizeRequirements } from './security.js';
import { normalizeServers } from './servers.js';
import { successMediaType, successResponses, successSchema } from './responses.js';
import { outlineOutputSchema } from '../schema/outline.js';
import { responseWords } from '../schema/response-words.js';
import { resultShape } from '../schema/result-shape.js';
import { successExample } from './examples.js';
import { readXMcp } from './x-mcp.js';
import { responseLinks, returnedObjects } from './returned-objects.js';
import { reportPathQuery, splitPathQuery, withQueryTemplates, type PathQuery } from './path-query.js';

export const HTTP_METHODS: readonly HttpMethod[] = [
  'get',
  'put',
  'post',
  'delete',
  'options',
  'head',
  'patch',
  'trace',
];

export function normalizeOperations(ctx: NormalizeContext, knownSchemes: ReadonlySet<string>): OperationModel[] {
  const paths = ctx.document['paths'];
  if (!isPlainObject(paths)) return [];
  const operations: OperationModel[] = [];
  for (const [path, pathNode] of Object.entries(paths)) {
    const pathPointer = joinPointer('#/paths', path);
    const pathItem = derefObject(ctx, pathNode, pathPointer);
    if (!pathItem) continue;
    const pathServers = normalizeServers(ctx, pathItem['servers'], joinPointer(pathPointer, 'servers'));
    const pathQuery = splitPathQuery(path);
    if (pathQuery) reportPathQuery(ctx.diags, pathPointer, path, pathQuery);
    for (const method of HTTP_METHODS) {
      const opNode = pathItem[method];
      if (!isPlainObject(opNode)) continue;
      operations.push(
        normalizeOperation(ctx, {
          path,
          pathQuery,
          method,
          op: opNode,
          pathItem,
          pathPointer,
          pathServers,
          knownSchemes,
        }),
      );
    }
  }
  return operations;
}

interface OperationInput {
  path: string;
  pathQuery: PathQuery | undefined;
  method: HttpMethod;
  op: Record<string, unknown>;
  pathItem: Record<string, unknown>;
  pathPointer: string;
  pathServers: ServerModel[];
  knownSchemes: ReadonlySet<string>;
}

function normalizeOperation(ctx: NormalizeContext, input: OperationInput): OperationModel {
  const { path, method, op, pathItem, pathPointer } = input;
  const pointer = joinPointer(pathPointer, method);
  const rawParams = mergeParameterLists(ctx, pathItem['parameters'], op['parameters'], pathPointer, pointer);
  // Swagger 2.0 `body` and `formData` parameters describe the request body, not parameters.
  const declared = rawParams
    .filter((p) => p.raw['in'] !== 'body' && p.raw['in'] !== 'formData')
    .map((p) => normalizeParameter(ctx, p))
    .filter((p) => p !== undefined);
  const { pathQuery } = input;
  const parameters = pathQuery ? withQueryTemplates(declared, pathQuery.templates) : declared;
  const body =
    ctx.dialect === 'swagger-2.0'
      ? swagger2Body(ctx, rawParams, consumesFor(ctx, op))
      : normalizeRequestBody(ctx, op['requestBody'], joinPointer(pointer, 'requestBody'));
  const opServers = normalizeServers(ctx, op['servers'], joinPointer(pointer, 'servers'));
  const servers = opServers.length > 0 ? opServers : input.pathServers;
  const security = normalizeRequirements(ctx, op['security'], joinPointer(pointer, 'security'), input.knownSchemes);
  const operationId = asString(op['operationId']);
  const summary = asString(op['summary']) ?? asString(pathItem['summary']);
  const description = asString(op['description']) ?? asString(pathItem['description']);
  const responseMediaType = successMediaType(ctx, op, pointer);
  const success = successResponses(ctx, op, pointer);
  const successRaw = successSchema(ctx, success);
  const output = outlineOutputSchema(successRaw, (s) => ctx.schemas.resolveRaw(s), ctx.outlines);
  const shape = ctx.resultShapes && resultShape(successRaw, (s) => ctx.schemas.resolveRaw(s), ctx.resultShapes);
  const words = responseWords(successRaw, (s) => ctx.schemas.resolveRaw(s));
  const xMcp = readXMcp(
    { operation: op['x-mcp'], path: pathItem['x-mcp'], root: ctx.document['x-mcp'], pointer, pathPointer },
    ctx.diags,
  );
  const responseExample = successExample(ctx, success, pointer);
  const returns = returnedObjects(successRaw, (s) => ctx.schemas.resolveRaw(s), ctx.returns);
  const links = ctx.dialect === 'swagger-2.0' ? [] : responseLinks(success, (node) => derefObject(ctx, node, pointer));
  return createOperation({
    method,
    path,
    ...(pathQuery ? { requestPath: pathQuery.requestPath } : {}),
    pointer,
    deprecated: op['deprecated'] === true,
    tags: Array.isArray(op['tags']) ? op['tags'].filter((t): t is string => typeof t === 'string') : [],
    parameters,
    ...(operationId ? { operationId } : {}),
    ...(summary ? { summary } : {}),
    ...(description ? { description } : {}),
    ...(body ? { body } : {}),
    ...(servers.length > 0 ? { servers } : {}),
    ...(security ? { security } : {}),
    ...(responseMediaType ? { responseMediaType } : {}),
    ...(output ? { output } : {}),
    ...(shape ? { resultShape: shape } : {}),
    ...(words ? { responseWords: words } : {}),
    ...(xMcp ? { xMcp } : {}),
    ...(responseExample !== undefined ? { responseExample } : {}),
    ...(links.length > 0 ? { links } : {}),
    ...(returns.length > 0 ? { returns } : {}),
  });
}

function consumesFor(ctx: NormalizeContext, op: Record<string, unknown>): string[] {
  const list = Array.isArray(op['consumes']) ? op['consumes'] : ctx.document['consumes'];
  return Array.isArray(list) ? list.filter((c): c is string => typeof c === 'string') : [];
}
