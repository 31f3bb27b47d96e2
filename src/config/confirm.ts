/**
 * The config's `confirm` policy as the catalog stores it: the words as written, a list of operations as the
 * names of the tools they became (operationIds and `METHOD /path` keys, as `tools` overrides take them). An
 * entry that matches no operation is an error, as everywhere in the config.
 */
import type { ConfirmPolicy } from '../../templates/runtime/contract/catalog.js';
import { DEFAULT_CONFIRM_POLICY } from '../../templates/runtime/contract/confirm-policy.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ToolModel } from '../ir/types.js';
import { matchesOperationKey } from './operation-key.js';

/** Undefined for the default policy (the catalog then leaves the field out). */
export function resolveConfirmPolicy(
  policy: ConfirmPolicy | undefined,
  mapped: readonly ToolModel[],
  kept: readonly ToolModel[],
  file: string,
  diags: Diagnostics,
): ConfirmPolicy | undefined {
  if (policy === undefined || policy === DEFAULT_CONFIRM_POLICY) return undefined;
  if (typeof policy === 'string') return policy;
  const pointers = new Set<string>();
  policy.forEach((key, i) => {
    const matched = mapped.filter((tool) => matchesOperationKey(key, tool));
    if (matched.length === 0) {
      diags.error(
        'OTM_CONFIG_NO_MATCH',
        `${file}#/confirm/${i}`,
        `confirm ${JSON.stringify(key)} matches no operation (entries are operationIds or "METHOD /path")`,
      );
    }
    for (const tool of matched) pointers.add(tool.source.pointer);
  });
  return kept.filter((tool) => pointers.has(tool.source.pointer)).map((tool) => tool.name);
}
