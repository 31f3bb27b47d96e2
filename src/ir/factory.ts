/** Constructors with defaults for IR nodes, used by the normalizer and by tests. */
import { escapeToken } from '../util/json-pointer.js';
import type { BodyModel, OperationModel, ParameterModel, ServerModel } from './types.js';

export function createOperation(
  fields: Partial<OperationModel> & Pick<OperationModel, 'method' | 'path'>,
): OperationModel {
  return {
    kind: 'operation',
    deprecated: false,
    tags: [],
    parameters: [],
    pointer: `#/paths/${escapeToken(fields.path)}/${fields.method}`,
    ...fields,
  };
}

export function createParameter(fields: Partial<ParameterModel> & Pick<ParameterModel, 'name' | 'in'>): ParameterModel {
  const isQueryOrCookie = fields.in === 'query' || fields.in === 'cookie';
  const style = fields.style ?? (isQueryOrCookie ? 'form' : 'simple');
  return {
    kind: 'parameter',
    required: fields.in === 'path',
    deprecated: false,
    schema: {},
    explode: style === 'form',
    allowReserved: false,
    ...fields,
    style,
  };
}

export function createBody(fields: Partial<BodyModel> & Pick<BodyModel, 'mediaType' | 'encodingKind'>): BodyModel {
  return { kind: 'body', required: false, schema: {}, fileFields: [], alternatives: [], ...fields };
}

export function createServer(url: string, description?: string): ServerModel {
  return description ? { kind: 'server', url, description } : { kind: 'server', url };
}
