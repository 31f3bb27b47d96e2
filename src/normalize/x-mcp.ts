/**
 * The `x-mcp` spec extension, read where the spec puts it:
 * - `x-mcp: false` on the root, a path item or an operation leaves the operations below it out; the nearest
 *   value wins, so `x-mcp: true` (or an object) on an operation brings it back under a `false` root.
 * - `x-mcp: { name, title, description, annotations }` on an operation overrides what the model sees.
 * The config stage (src/config) applies the result after tools are mapped. Its fields are a config override's
 * (src/config/tool-override-schema.ts); unlike the config's, a bad one here is a warning and is ignored.
 */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { XMcpModel } from '../ir/types.js';
import { TOOL_HINTS as HINTS, TOOL_OVERRIDE_FIELDS } from '../config/tool-override-schema.js';
import { joinPointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';

export interface XMcpSources {
  operation: unknown;
  path: unknown;
  root: unknown;
  pointer: string;
  pathPointer: string;
}

export function readXMcp(sources: XMcpSources, diags: Diagnostics): XMcpModel | undefined {
  const levels = [
    { at: 'operation', value: sources.operation, pointer: joinPointer(sources.pointer, 'x-mcp') },
    { at: 'path', value: sources.path, pointer: joinPointer(sources.pathPointer, 'x-mcp') },
    { at: 'root', value: sources.root, pointer: '#/x-mcp' },
  ] as const;
  const result: XMcpModel = {};
  for (const level of levels) {
    if (level.value === undefined) continue;
    if (level.value === false) {
      result.excludedAt = level.at;
      break;
    }
    if (level.value === true) break;
    if (!isPlainObject(level.value)) {
      diags.warn(
        'OTM_X_MCP_INVALID',
        level.pointer,
        `x-mcp must be false, true or an object, got ${JSON.stringify(level.value)}; ignored`,
      );
      continue;
    }
    // An object includes; its overrides only make sense on an operation.
    if (level.at === 'operation') Object.assign(result, overrides(level.value, level.pointer, diags));
    break;
  }
  return Object.keys(result).length > 0 ? result : undefined;
}

function overrides(value: Record<string, unknown>, pointer: string, diags: Diagnostics): XMcpModel {
  const result: XMcpModel = {};
  for (const [key, field] of Object.entries(value)) {
    const at = joinPointer(pointer, key);
    if (key === 'name' || key === 'title' || key === 'description') {
      if (typeof field === 'string' && field.trim() !== '') result[key] = field;
      else diags.warn('OTM_X_MCP_INVALID', at, `x-mcp ${key} must be a non-empty string; ignored`);
    } else if (key === 'annotations') {
      if (!isPlainObject(field)) {
        diags.warn('OTM_X_MCP_INVALID', at, 'x-mcp annotations must be an object of boolean hints; ignored');
        continue;
      }
      const annotations: NonNullable<XMcpModel['annotations']> = {};
      for (const [hint, flag] of Object.entries(field)) {
        if ((HINTS as readonly string[]).includes(hint) && typeof flag === 'boolean')
          annotations[hint as (typeof HINTS)[number]] = flag;
        else
          diags.warn(
            'OTM_X_MCP_INVALID',
            joinPointer(at, hint),
            `x-mcp annotations take ${HINTS.join(', ')} as booleans; ${hint} ignored`,
          );
      }
      if (Object.keys(annotations).length > 0) result.annotations = annotations;
    } else {
      diags.warn('OTM_X_MCP_INVALID', at, `unknown x-mcp field ${key}; ignored (${TOOL_OVERRIDE_FIELDS.join(', ')})`);
    }
  }
  return result;
}
