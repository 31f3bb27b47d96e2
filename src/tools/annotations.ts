/**
 * MCP tool hints derived from HTTP method semantics (RFC 9110 §9.2), in one table. The title is the tool's
 * own `title`, not repeated here: `annotations.title` predates it, and every protocol revision this server
 * speaks (2025-11-25, 2026-07-28) has the top-level field, which clients prefer.
 */
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

export function annotationsFor(method: HttpMethod): ToolAnnotations {
  return { ...BY_METHOD[method] };
}
