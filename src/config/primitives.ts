/**
 * The config's `resources` and `prompts`, resolved against the tools: resource templates checked against
 * their GET operation's arguments, `{{tool:operationId}}` in prompt texts replaced by the tool's final name.
 * What the server then offers is written into the catalog (src/emit/primitives/primitives.ts).
 */
import type { CatalogPrompt, CatalogResourceTemplate } from '../../templates/runtime/contract/catalog.js';
import type { Diagnostics } from '../diagnostics/diagnostics.js';
import type { ToolModel } from '../ir/types.js';
import { escapeToken } from '../util/json-pointer.js';
import { matchesOperationKey } from './operation-key.js';
import type { ProjectConfig } from './types.js';

export interface ResolvedPrimitives {
  /** The OpenAPI document and the operations guide as resources. */
  apiDescription: boolean;
  /** The operations guide as a prompt. */
  guidePrompt: boolean;
  templates: CatalogResourceTemplate[];
  prompts: CatalogPrompt[];
}

/** The prompt the operations guide is served as (the config's own prompts may not take the name). */
export const GUIDE_PROMPT_NAME = 'operations_guide';

export function resolvePrimitives(
  config: ProjectConfig,
  kept: readonly ToolModel[],
  file: string,
  diags: Diagnostics,
): ResolvedPrimitives {
  return {
    apiDescription: config.resources?.apiDescription ?? true,
    guidePrompt: config.prompts?.operationsGuide ?? true,
    templates: resourceTemplates(config.resources?.templates ?? {}, kept, file, diags),
    prompts: customPrompts(config.prompts?.custom ?? [], kept, file, diags),
  };
}

function resourceTemplates(
  entries: NonNullable<NonNullable<ProjectConfig['resources']>['templates']>,
  kept: readonly ToolModel[],
  file: string,
  diags: Diagnostics,
): CatalogResourceTemplate[] {
  const templates: CatalogResourceTemplate[] = [];
  for (const [key, entry] of Object.entries(entries)) {
    const pointer = `${file}#/resources/templates/${escapeToken(key)}`;
    const { uri, name, description } = typeof entry === 'string' ? { uri: entry } : entry;
    const tool = kept.find((t) => matchesOperationKey(key, t));
    if (!tool) {
      diags.error('OTM_CONFIG_NO_MATCH', pointer, `resources.templates ${JSON.stringify(key)} matches no tool`);
      continue;
    }
    const problem = templateProblem(uri, tool);
    if (problem) {
      diags.error('OTM_CONFIG_INVALID', pointer, `resource template ${uri} for ${tool.name}: ${problem}`);
      continue;
    }
    templates.push({
      uriTemplate: uri,
      name: name ?? tool.name,
      ...(tool.title ? { title: tool.title } : {}),
      description:
        description ?? `${tool.description.split('\n')[0]} (read through ${tool.name}: GET ${tool.source.path})`,
      mimeType: tool.request.accept ?? 'application/json',
      tool: tool.name,
    });
  }
  return templates;
}

/** A template reads through a GET operation; its variables are exactly arguments, the required ones all in it. */
function templateProblem(uri: string, tool: ToolModel): string | undefined {
  if (tool.source.method !== 'get')
    return `only GET operations can be read as resources, not ${tool.source.method.toUpperCase()}`;
  const properties = Object.keys((tool.inputSchema['properties'] ?? {}) as Record<string, unknown>);
  const variables = templateVariables(uri);
  const unknown = variables.filter((v) => !properties.includes(v));
  if (unknown.length > 0)
    return `${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not an argument of the tool (arguments: ${properties.join(', ')})`;
  const required = ((tool.inputSchema['required'] ?? []) as string[]).filter((r) => !variables.includes(r));
  if (required.length > 0) return `the required argument(s) ${required.join(', ')} must be template variables`;
  return undefined;
}

/** RFC 6570 variable names: `{a}`, `{+a}`, `{?a,b}`, `{/a*}`, `{a:3}`. */
export function templateVariables(uri: string): string[] {
  return [...uri.matchAll(/\{[+#./;?&]?([^}]*)\}/g)].flatMap((m) =>
    m[1]!.split(',').map((name) => name.replace(/(\*|:\d+)$/, '').trim()),
  );
}

function customPrompts(
  entries: NonNullable<NonNullable<ProjectConfig['prompts']>['custom']>,
  kept: readonly ToolModel[],
  file: string,
  diags: Diagnostics,
): CatalogPrompt[] {
  const names = new Set<string>([GUIDE_PROMPT_NAME]);
  return entries.flatMap((prompt, i) => {
    const pointer = `${file}#/prompts/custom/${i}`;
    if (names.has(prompt.name)) {
      diags.error('OTM_CONFIG_INVALID', `${pointer}/name`, `prompt name ${prompt.name} is taken`);
      return [];
    }
    names.add(prompt.name);
    const args = prompt.arguments ?? [];
    let ok = true;
    const text = prompt.text.replace(/\{\{\s*([^}]*?)\s*\}\}/g, (whole, inner: string) => {
      const toolKey = /^tool:(.+)$/.exec(inner)?.[1]?.trim();
      if (toolKey !== undefined) {
        const tool = kept.find((t) => matchesOperationKey(toolKey, t));
        if (tool) return tool.name;
        diags.error('OTM_CONFIG_NO_MATCH', `${pointer}/text`, `{{tool:${toolKey}}} matches no tool`);
      } else if (args.some((a) => a.name === inner)) {
        return whole;
      } else {
        diags.error(
          'OTM_CONFIG_INVALID',
          `${pointer}/text`,
          `{{${inner}}} is not an argument of prompt ${prompt.name}`,
        );
      }
      ok = false;
      return whole;
    });
    if (!ok) return [];
    return [
      {
        name: prompt.name,
        ...(prompt.title ? { title: prompt.title } : {}),
        ...(prompt.description ? { description: prompt.description } : {}),
        arguments: args,
        text,
      },
    ];
  });
}
