import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { JsonSchema, ParameterModel, ReturnedObject, SpecDialect } from '../ir/types.js';
import type { OutputOutline } from '../schema/outline.js';
import type { SchemaConverter } from '../schema/to-json-schema.js';
import { parseLocalRef, resolvePointer } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';

/** What every normalizer needs: the raw document (only normalize/ sees it), diagnostics and the converter. */
export interface NormalizeContext {
  document: Record<string, unknown>;
  dialect: SpecDialect;
  diags: Diagnostics;
  schemas: SchemaConverter;
  sourceUrl?: string;
  /**
   * Each parameter object normalized once: a large API refers to a few hundred shared parameters thousands of
   * times (GitHub: 209 of them, 3,153 times). Keyed by the raw object; undefined when it is no parameter.
   */
  parameters: Map<object, ParameterModel | undefined>;
  /** Output outlines and mock response samples, by the response schema object they come from (shared likewise). */
  outlines: Map<object, OutputOutline | undefined>;
  samples: Map<object, unknown>;
  /** The objects each response schema returns (returned-objects.ts), by the schema object. */
  returns: Map<object, ReturnedObject[]>;
  /** Result shapes for code mode, by the response schema object; absent when they are not wanted. */
  resultShapes?: Map<object, JsonSchema | undefined>;
}

/**
 * Follows local `$ref`s on non-schema objects (parameters, request bodies, responses), with a bound so a
 * ref cycle cannot hang. Returns undefined (and reports it) when a ref does not resolve.
 */
export function derefObject(
  ctx: NormalizeContext,
  node: unknown,
  pointer: string,
): Record<string, unknown> | undefined {
  return derefWithPointer(ctx, node, pointer)?.value;
}

/** derefObject, with where the object found is: the last `$ref` followed, or `pointer` when there was none. */
export function derefWithPointer(
  ctx: NormalizeContext,
  node: unknown,
  pointer: string,
): { value: Record<string, unknown>; pointer: string } | undefined {
  let current = node;
  let at = pointer;
  for (let hops = 0; hops < 32; hops++) {
    if (!isPlainObject(current)) return undefined;
    const ref = current['$ref'];
    if (ref === undefined) return { value: current, pointer: at };
    const tokens = typeof ref === 'string' ? parseLocalRef(ref) : undefined;
    const target = tokens ? resolvePointer(ctx.document, tokens) : undefined;
    if (target === undefined) {
      ctx.diags.warn('OTM_UNRESOLVED_REF', pointer, `$ref ${String(ref)} does not resolve inside the document`);
      return undefined;
    }
    current = target;
    at = ref as string;
  }
  ctx.diags.warn('OTM_UNRESOLVED_REF', pointer, 'a chain of $refs loops');
  return undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
