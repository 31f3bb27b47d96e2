/**
 * What the server offers besides tools, as catalog entries and project files: the OpenAPI document
 * (`openapi.json`, the document as loaded and bundled) and the operations guide (`operations.md`) as
 * resources, the config's resource templates, the guide and the config's prompts as prompts.
 */
import type {
  Catalog,
  CatalogPrompt,
  CatalogResources,
  ConfirmPolicy,
} from '../../../templates/runtime/contract/catalog.js';
import type { SearchGroup } from '../../../templates/runtime/contract/search/search-index.js';
import { needsConfirmation } from '../../../templates/runtime/contract/confirm-policy.js';
import { GUIDE_PROMPT_NAME, type ResolvedPrimitives } from '../../config/primitives.js';
import type { ApiModel, ToolModel } from '../../ir/types.js';
import type { EmittedFile } from '../plan.js';

export const OPENAPI_FILE = 'openapi.json';
export const GUIDE_FILE = 'operations.md';

export interface PrimitivesPlan {
  confirm?: ConfirmPolicy;
  resolved: ResolvedPrimitives;
  /**
   * The spec as loaded (bundled), as compact JSON, served as the OpenAPI document resource; undefined when it
   * nests too deeply to serialize (the load warned), and then not served.
   */
  documentJson: string | undefined;
}

export interface PrimitivesOutput {
  catalog: Pick<Catalog, 'resources' | 'prompts'>;
  files: EmittedFile[];
}

export function primitivesOutput(
  plan: PrimitivesPlan | undefined,
  api: ApiModel,
  tools: readonly ToolModel[],
  groups: readonly SearchGroup[],
  serverKey: string,
  confirm: ConfirmPolicy,
  baseUrl: string | undefined,
): PrimitivesOutput {
  if (!plan) return { catalog: {}, files: [] };
  const { apiDescription, guidePrompt, templates, prompts } = plan.resolved;
  const title = api.title.replace(/\s+/g, ' ').trim();
  const files: EmittedFile[] = [];
  if (apiDescription || guidePrompt)
    files.push({ path: GUIDE_FILE, contents: operationsGuide(api, tools, groups, confirm, baseUrl) });
  // Compact: a model reading the resource pays for every space (GitHub's is 13 MB indented), and so does the
  // generation that writes it.
  const servesDocument = apiDescription && plan.documentJson !== undefined;
  if (servesDocument) files.push({ path: OPENAPI_FILE, contents: `${plan.documentJson}\n` });
  const resources: CatalogResources = {
    documents: apiDescription
      ? [
          ...(servesDocument
            ? [
                {
                  uri: `openapi://${serverKey}/${OPENAPI_FILE}`,
                  name: OPENAPI_FILE,
                  title: `${title}: OpenAPI description`,
                  description: `The ${title} API description this server was generated from (as bundled).`,
                  mimeType: 'application/json',
                  file: OPENAPI_FILE,
                },
              ]
            : []),
          {
            uri: `openapi://${serverKey}/${GUIDE_FILE}`,
            name: GUIDE_FILE,
            title: `${title}: operations guide`,
            description: `Every operation of the ${title} API by group, one line each: tool name, method, path, summary and required arguments.`,
            mimeType: 'text/markdown',
            file: GUIDE_FILE,
          },
        ]
      : [],
    templates,
  };
  const served: CatalogPrompt[] = [
    ...(guidePrompt
      ? [
          {
            name: GUIDE_PROMPT_NAME,
            title: `Work with the ${title} API`,
            description: `Puts the ${title} operations guide in the conversation, with an optional task to start on.`,
            arguments: [{ name: 'task', description: 'What to do with the API (optional).', required: false }],
            file: GUIDE_FILE,
          },
        ]
      : []),
    ...prompts,
  ];
  return {
    catalog: {
      ...(resources.documents.length + resources.templates.length > 0 ? { resources } : {}),
      ...(served.length > 0 ? { prompts: served } : {}),
    },
    files,
  };
}

/** Guide lines quote summaries up to this length. */
const SUMMARY_CHARS = 120;
const DESCRIPTION_CHARS = 600;

/** Compact: one line per operation, grouped as search_operations groups them. */
export function operationsGuide(
  api: ApiModel,
  tools: readonly ToolModel[],
  groups: readonly SearchGroup[],
  confirm: ConfirmPolicy,
  baseUrl: string | undefined,
): string {
  const title = api.title.replace(/\s+/g, ' ').trim();
  const about = (api.description ?? '')
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, ' ')
    .trim();
  const asking = tools.filter((t) => needsConfirmation(confirm, t)).map((t) => `\`${t.name}\``);
  const lines = [
    `# ${title} ${api.version}: operations guide`,
    '',
    ...(about ? [cut(about, DESCRIPTION_CHARS), ''] : []),
    `${tools.length} operations in ${groups.length} groups; base URL ${baseUrl ?? '(set API_BASE_URL)'}. Every operation is callable by its tool name: directly when the server lists it as a tool, else through \`call_operation\` (\`search_operations\` finds names).`,
    ...(asking.length > 0 ? ['', `These ask the user to confirm before anything is sent: ${asking.join(', ')}.`] : []),
  ];
  for (const group of groups) {
    lines.push('', `## ${group.name} (${group.operations.length})`, '');
    if (group.description) lines.push(group.description, '');
    for (const index of group.operations) lines.push(operationLine(tools[index]!));
  }
  return `${lines.join('\n')}\n`;
}

function operationLine(tool: ToolModel): string {
  const route = `${tool.source.method.toUpperCase()} ${tool.source.path}`;
  const described = (tool.title ?? tool.description.split('\n')[0] ?? '').trim();
  // An operation without a summary is described by its route, which the line shows already.
  const summary = described === route ? '' : described;
  const required = (tool.inputSchema['required'] ?? []) as string[];
  return `- \`${tool.name}\`: ${route}${summary ? `: ${cut(summary, SUMMARY_CHARS)}` : ''}${required.length > 0 ? ` (required: ${required.join(', ')})` : ''}`;
}

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
