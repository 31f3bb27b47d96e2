/**
 * Pipeline stage after tools are mapped: which tools the project gets and what the model sees of them.
 *
 * An operation is left out when `x-mcp: false` applies to it, when `include` is given and none of its
 * selectors matches, or when an `exclude` selector matches. Kept tools get their overrides: the operation's
 * `x-mcp` object first, then the config's entry for its operationId, then the one for `METHOD /path`.
 * A selector value or override key that matches no operation at all is an error (a typo would otherwise
 * silently change nothing), as are override names that are invalid or collide.
 */
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ApiModel, OperationModel, ToolAnnotations, ToolModel, XMcpModel } from '../ir/types.js';
import { TOOL_NAME_PATTERN } from '../tools/naming.js';
import { escapeToken } from '../util/json-pointer.js';
import type { LoadedConfig, Selector, ToolOverride } from './types.js';

export interface SkippedOperation {
  operation: string;
  reason: string;
}

export interface ConfigResult {
  tools: ToolModel[];
  skipped: SkippedOperation[];
}

interface Rule {
  selector: Selector;
  pointer: string;
  label: string;
}

export function applyConfig(
  api: ApiModel,
  tools: readonly ToolModel[],
  loaded: LoadedConfig | undefined,
  diags: Diagnostics,
): ConfigResult {
  const byPointer = new Map<string, OperationModel>(api.operations.map((op) => [op.pointer, op]));
  const config = loaded?.config ?? {};
  const file = loaded?.label ?? 'config';
  const include = rules(config.include, 'include');
  const exclude = rules(config.exclude, 'exclude');
  reportUnmatched([...include, ...exclude], tools, file, diags);
  const overrides = overridesByTool(config.tools ?? {}, tools, file, diags);

  const kept: ToolModel[] = [];
  const skipped: SkippedOperation[] = [];
  /** Tool source pointer → where its name was overridden, for collision messages. */
  const namedAt = new Map<string, string>();
  for (const tool of tools) {
    const op = byPointer.get(tool.source.pointer);
    const reason = exclusionReason(tool, op?.xMcp, include, exclude, file);
    if (reason) {
      skipped.push({ operation: `${tool.name} (${operationLabel(tool)})`, reason });
      diags.info('OTM_OPERATION_SKIPPED', tool.source.pointer, `${operationLabel(tool)} is not a tool: ${reason}`);
      continue;
    }
    kept.push(withOverrides(tool, op?.xMcp, overrides.get(tool) ?? [], diags, namedAt));
  }
  checkNames(kept, diags, namedAt);
  return { tools: kept, skipped };
}

function rules(value: Selector | Selector[] | undefined, key: 'include' | 'exclude'): Rule[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return [{ selector: value, pointer: `/${key}`, label: key }];
  return value.map((selector, i) => ({ selector, pointer: `/${key}/${i}`, label: `${key}[${i}]` }));
}

function exclusionReason(
  tool: ToolModel,
  xMcp: XMcpModel | undefined,
  include: Rule[],
  exclude: Rule[],
  file: string,
): string | undefined {
  if (xMcp?.excludedAt === 'operation') return 'x-mcp: false on the operation';
  if (xMcp?.excludedAt === 'path') return 'x-mcp: false on its path';
  if (xMcp?.excludedAt === 'root') return 'x-mcp: false at the spec root';
  if (include.length > 0 && !include.some((r) => matches(r.selector, tool)))
    return `not selected by include in ${file}`;
  const rule = exclude.find((r) => matches(r.selector, tool));
  return rule ? `excluded by ${rule.label} in ${file}` : undefined;
}

function matches(selector: Selector, tool: ToolModel): boolean {
  return (Object.keys(selector) as Array<keyof Selector>).every((field) =>
    (selector[field] ?? []).some((value) => fieldMatches(field, value, tool)),
  );
}

function fieldMatches(field: keyof Selector, value: string, tool: ToolModel): boolean {
  switch (field) {
    case 'tags':
      return tool.tags.some((tag) => glob(value).test(tag));
    case 'operationIds':
      return tool.operationId !== undefined && glob(value).test(tool.operationId);
    case 'paths':
      return glob(value).test(tool.source.path);
    case 'methods':
      return value.toLowerCase() === tool.source.method;
  }
}

const globCache = new Map<string, RegExp>();

/** `*`: any characters except `/`; `**`: any characters. Everything else is literal. */
export function glob(pattern: string): RegExp {
  let re = globCache.get(pattern);
  if (!re) {
    const source = pattern
      .split('**')
      .map((part) =>
        part
          .split('*')
          .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('[^/]*'),
      )
      .join('.*');
    re = new RegExp(`^${source}$`);
    globCache.set(pattern, re);
  }
  return re;
}

function reportUnmatched(all: Rule[], tools: readonly ToolModel[], file: string, diags: Diagnostics): void {
  for (const rule of all) {
    let everyValueMatches = true;
    for (const field of Object.keys(rule.selector) as Array<keyof Selector>) {
      (rule.selector[field] ?? []).forEach((value, i) => {
        if (tools.some((t) => fieldMatches(field, value, t))) return;
        everyValueMatches = false;
        diags.error(
          'OTM_CONFIG_NO_MATCH',
          `${file}#${rule.pointer}/${field}/${i}`,
          `${rule.label} ${field} ${JSON.stringify(value)} matches no operation`,
        );
      });
    }
    if (everyValueMatches && !tools.some((t) => matches(rule.selector, t))) {
      diags.error(
        'OTM_CONFIG_NO_MATCH',
        `${file}#${rule.pointer}`,
        `${rule.label} ${JSON.stringify(rule.selector)} matches no operation (each value matches, their combination does not)`,
      );
    }
  }
}

interface PlacedOverride {
  override: ToolOverride;
  pointer: string;
}

/** Override keys: an operationId, or `METHOD /path` (method in any case). Applied in that order. */
function overridesByTool(
  entries: Record<string, ToolOverride>,
  tools: readonly ToolModel[],
  file: string,
  diags: Diagnostics,
): Map<ToolModel, PlacedOverride[]> {
  const result = new Map<ToolModel, PlacedOverride[]>();
  const byOperationId: Array<[ToolModel, PlacedOverride]> = [];
  const byRoute: Array<[ToolModel, PlacedOverride]> = [];
  for (const [key, override] of Object.entries(entries)) {
    const pointer = `${file}#/tools/${escapeToken(key)}`;
    const route = /^([A-Za-z]+)\s+(\/.*)$/.exec(key.trim());
    const matched = route
      ? tools.filter((t) => t.source.method === route[1]!.toLowerCase() && t.source.path === route[2])
      : tools.filter((t) => t.operationId === key);
    if (matched.length === 0) {
      diags.error(
        'OTM_CONFIG_NO_MATCH',
        pointer,
        `tools ${JSON.stringify(key)} matches no operation (keys are operationIds or "METHOD /path")`,
      );
      continue;
    }
    for (const tool of matched) (route ? byRoute : byOperationId).push([tool, { override, pointer }]);
  }
  for (const [tool, placed] of [...byOperationId, ...byRoute]) result.set(tool, [...(result.get(tool) ?? []), placed]);
  return result;
}

function withOverrides(
  tool: ToolModel,
  xMcp: XMcpModel | undefined,
  placed: PlacedOverride[],
  diags: Diagnostics,
  namedAt: Map<string, string>,
): ToolModel {
  let result = tool;
  if (xMcp && (xMcp.name || xMcp.title || xMcp.description || xMcp.annotations)) {
    if (xMcp.name && !TOOL_NAME_PATTERN.test(xMcp.name)) {
      diags.warn(
        'OTM_X_MCP_INVALID',
        `${tool.source.pointer}/x-mcp/name`,
        `x-mcp name ${JSON.stringify(xMcp.name)} is not a valid tool name (${TOOL_NAME_PATTERN.source}); ignored`,
      );
      result = override(result, { ...xMcp, name: undefined });
    } else {
      if (xMcp.name) namedAt.set(tool.source.pointer, `${tool.source.pointer}/x-mcp/name`);
      result = override(result, xMcp);
    }
  }
  for (const { override: o, pointer } of placed) {
    if (o.name !== undefined && !TOOL_NAME_PATTERN.test(o.name)) {
      diags.error(
        'OTM_CONFIG_INVALID',
        `${pointer}/name`,
        `${JSON.stringify(o.name)} is not a valid tool name (${TOOL_NAME_PATTERN.source})`,
      );
      continue;
    }
    if (o.name !== undefined) namedAt.set(tool.source.pointer, `${pointer}/name`);
    result = override(result, o);
  }
  return result;
}

function override(tool: ToolModel, o: ToolOverride): ToolModel {
  const annotations: ToolAnnotations = { ...tool.annotations, ...(o.annotations ?? {}) };
  const { fullDescription, ...rest } = tool;
  return {
    ...rest,
    ...(o.name !== undefined ? { name: o.name } : {}),
    ...(o.title !== undefined ? { title: o.title } : {}),
    // An owner's description is read verbatim everywhere, describe_operation included: the spec's text goes.
    ...(o.description !== undefined ? { description: o.description } : fullDescription ? { fullDescription } : {}),
    annotations,
  };
}

/** Tool names must stay unique ignoring case, as the naming stage guarantees for generated names. */
function checkNames(kept: readonly ToolModel[], diags: Diagnostics, namedAt: ReadonlyMap<string, string>): void {
  const seen = new Map<string, ToolModel>();
  for (const tool of kept) {
    const other = seen.get(tool.name.toLowerCase());
    if (other) {
      const pointer = namedAt.get(tool.source.pointer) ?? namedAt.get(other.source.pointer) ?? tool.source.pointer;
      diags.error(
        'OTM_CONFIG_INVALID',
        pointer,
        `tool name ${tool.name} is used by both ${operationLabel(other)} and ${operationLabel(tool)} after overrides; names must be unique ignoring case`,
      );
    } else {
      seen.set(tool.name.toLowerCase(), tool);
    }
  }
}

export function operationLabel(tool: ToolModel): string {
  return `${tool.source.method.toUpperCase()} ${tool.source.path}`;
}
