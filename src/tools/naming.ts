/**
 * Tool names: the operationId when it is usable, else `method_path` (`get_pets_by_petId`), sanitized to the
 * MCP name rule `^[A-Za-z0-9_.-]{1,64}$`, shortened with a stable hash when longer than the registry's limit (the
 * hosts' budget for the server key, src/tools/host-limits.ts), and made unique case-insensitively (some clients fold
 * case) with `_2`, `_3`… in spec order. A name within the limit is never changed.
 */
import { createHash } from 'node:crypto';

export const TOOL_NAME_PATTERN = /^[A-Za-z0-9_.-]{1,64}$/;
export const DEFAULT_MAX_NAME_LENGTH = 64;

export function baseToolName(operationId: string | undefined, method: string, path: string): string {
  if (operationId) {
    const clean = sanitizeName(operationId);
    if (clean) return clean;
  }
  return sanitizeName(`${method}_${pathWords(path)}`) || method;
}

/** `/pets/{petId}/photos` → `pets_by_petId_photos`. */
function pathWords(path: string): string {
  return path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/\{([^}]+)\}/g, 'by_$1'))
    .join('_');
}

/** Letters with accents lose them; anything else outside `[A-Za-z0-9_.-]` becomes `_`. */
export function sanitizeName(raw: string): string {
  return raw
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9_.-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^[_.-]+|[_.-]+$/g, '');
}

export function shortenName(name: string, maxLength: number): string {
  if (name.length <= maxLength) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 6);
  return `${name.slice(0, maxLength - hash.length - 1).replace(/[_.-]+$/, '')}_${hash}`;
}

/** Hands out unique names; a name already taken (ignoring case) gets a numeric suffix. */
export class NameRegistry {
  private readonly taken = new Set<string>();

  constructor(private readonly maxLength = DEFAULT_MAX_NAME_LENGTH) {}

  claim(base: string): string {
    let name = shortenName(base, this.maxLength);
    for (let n = 2; this.taken.has(name.toLowerCase()); n++) {
      const suffix = `_${n}`;
      name = `${shortenName(base, this.maxLength - suffix.length)}${suffix}`;
    }
    this.taken.add(name.toLowerCase());
    return name;
  }
}
