/**
 * The size and shape of the input the server reads, whatever the transport. Both limits protect the server
 * from one caller: past them a message is refused with an error, and the server goes on serving the others.
 */

/**
 * The largest JSON-RPC message read: an HTTP request body, and by default a stdio line
 * (MCP_STDIO_MAX_MESSAGE_BYTES). 4 MiB is the SDK's own default body limit, and many times what a model writes
 * in one tool call (a model's whole answer is a fraction of it). One limit for both transports, so that a
 * call that works over one works over the other.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The deepest tool arguments read, counting each object or array as a level (`{ "body": { "tags": [] } }` is
 * 3). Real API bodies rarely go past twenty levels; recursive code (JSON Schema validation of a recursive
 * schema, JSON.stringify, structuredClone, redaction) runs out of stack in the thousands. Arguments deeper
 * than this are refused before any of that code sees them.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/**
 * Why arguments are refused, when they are nested deeper than MAX_ARGUMENT_DEPTH; undefined when they are
 * not. Its own recursion stops at the limit, so it is safe on a value of any depth.
 */
export function argumentsTooDeep(args: unknown): string | undefined {
  return deeperThan(args, MAX_ARGUMENT_DEPTH)
    ? `the arguments are nested more than ${MAX_ARGUMENT_DEPTH} levels deep, the most this server reads`
    : undefined;
}

function deeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const member of Array.isArray(value) ? value : Object.values(value))
    if (deeperThan(member, levels - 1)) return true;
  return false;
}
