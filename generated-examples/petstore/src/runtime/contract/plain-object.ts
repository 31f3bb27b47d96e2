/** An object that is not null, an array or binary data (a Buffer or another typed array): a JSON object's shape. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}
