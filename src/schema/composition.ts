/** allOf / oneOf / anyOf / not. allOf of plain inline objects is merged; everything else is kept. */
import type { JsonSchema } from '../ir/types.js';
import { isPlainObject } from '../util/stable.js';

const MERGEABLE_KEYS = new Set(['type', 'properties', 'required', 'description', 'additionalProperties']);

/**
 * Merges `allOf` members when that changes nothing about what validates: every member is an inline object
 * schema using only properties/required/description, with no property defined twice. Shared members
 * (`$ref`s) stay as references so they are not copied into every tool.
 */
export function mergeAllOf(members: JsonSchema[]): JsonSchema | undefined {
  if (members.length === 1 && members[0]) return members[0];
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const descriptions: string[] = [];
  for (const member of members) {
    if (!Object.keys(member).every((k) => MERGEABLE_KEYS.has(k))) return undefined;
    if (member['type'] !== undefined && member['type'] !== 'object') return undefined;
    if (member['additionalProperties'] !== undefined) return undefined;
    const props = member['properties'];
    if (props !== undefined && !isPlainObject(props)) return undefined;
    for (const [name, schema] of Object.entries(props ?? {})) {
      if (name in properties) return undefined;
      properties[name] = schema;
    }
    if (Array.isArray(member['required'])) for (const r of member['required']) required.add(String(r));
    if (typeof member['description'] === 'string') descriptions.push(member['description']);
  }
  const merged: JsonSchema = { type: 'object', properties };
  if (required.size > 0) merged['required'] = [...required];
  if (descriptions.length > 0) merged['description'] = descriptions.join('\n');
  return merged;
}

export function isEmptySchema(schema: JsonSchema): boolean {
  return Object.keys(schema).length === 0;
}
