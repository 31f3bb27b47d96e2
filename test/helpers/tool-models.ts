/** ToolModels for stage tests, made by the real mapper from IR operations. */
import { Diagnostics } from '../../src/diagnostics/diagnostics.js';
import { createOperation } from '../../src/ir/factory.js';
import type { HttpMethod, OperationModel, ToolModel } from '../../src/ir/types.js';
import { mapOperation } from '../../src/tools/map-operation.js';

export function toolOf(method: HttpMethod, path: string, fields: Partial<OperationModel> = {}): ToolModel {
  const op = createOperation({ method, path, ...fields });
  const name = fields.operationId ?? `${method}_${path.replace(/[^A-Za-z0-9]+/g, '_')}`;
  return mapOperation(op, name, {
    defs: {},
    globalSecurity: undefined,
    securitySchemes: [],
    diags: new Diagnostics(),
    outputSchemas: false,
  });
}

/** `['get /a', 'post /a']` → tools named by method and path. */
export function toolsOf(routes: readonly string[]): ToolModel[] {
  return routes.map((route) => {
    const [method, path] = route.split(' ') as [HttpMethod, string];
    return toolOf(method, path);
  });
}
