/** MCP tool hints derived from HTTP method semantics (RFC 9110 §9.2), in one table. */
import type { HttpMethod, ToolAnnotations } from '../ir/types.js';

const BY_METHOD: Record<HttpMethod, Omit<ToolAnnotations, 'title'>> = {
  get: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  head: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  options: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  trace: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  put: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  delete: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true },
  post: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  patch: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
};

export function annotationsFor(method: HttpMethod, title?: string): ToolAnnotations {
  return title ? { title, ...BY_METHOD[method] } : { ...BY_METHOD[method] };
}
