/**
 * What the `dynamic` and `hybrid` modes list: the names, schemas and instructions of the search, describe and
 * call meta-tools. Kept apart from their handlers (meta-tools.ts) because the generator imports them (the
 * tool surface it reports, the names it reserves) and must not load the handlers and the call path they import.
 */
import type { ListedTool } from './listing.js';

export const SEARCH_TOOL = 'search_operations';
export const DESCRIBE_TOOL = 'describe_operation';
export const CALL_TOOL = 'call_operation';
export const META_TOOL_NAMES: readonly string[] = [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL];

export const DEFAULT_LIMIT = 10;
export const MAX_LIMIT = 50;

/** `api`: the API as api-name.ts names it ("GitHub API"). */
export function metaToolDefinitions(api: string, operationCount: number): ListedTool[] {
  return [
    {
      name: SEARCH_TOOL,
      title: `Search ${api} operations`,
      description: `Find operations of the ${api} (${operationCount} in all) by what they do. Each result gives the operation's name, HTTP method, path, summary and required arguments (with the operations whose results supply them, e.g. "uri ← search"), best match first. Without a query, lists the groups of operations; with a group, lists every operation in it. Then call ${DESCRIBE_TOOL} for an operation's arguments, and ${CALL_TOOL} to run it.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            description:
              'What you want to do: the action and the thing it acts on, in the API\'s own words where you know them, e.g. "close an issue" or "list pull requests of a repository". Leave out to browse the groups.',
          },
          group: {
            type: 'string',
            description:
              'A group name from the list without a query: lists its operations (with a query, searches only them).',
          },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_LIMIT,
            default: DEFAULT_LIMIT,
            description: 'Most results a search returns.',
          },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE_TOOL,
      title: 'Describe an operation',
      description: `Describe one operation, by the name ${SEARCH_TOOL} returned or a tool's name: its full description (listings show it condensed) and the full JSON Schema of its arguments (listings summarize large ones).`,
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', minLength: 1, description: 'Operation name.' } },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      title: 'Call an operation',
      description: `Call one operation of the ${api} with arguments matching the schema ${DESCRIBE_TOOL} gave. Returns the HTTP response; HTTP errors come back as tool errors.`,
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, description: 'Operation name.' },
          arguments: { type: 'object', description: "The operation's arguments.", default: {} },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
}

export function metaInstructions(mode: 'dynamic' | 'hybrid', core: readonly string[] = []): string {
  const direct =
    mode === 'hybrid' && core.length > 0 ? `The most used operations are direct tools: ${core.join(', ')}. ` : '';
  return `${direct}Every other operation: find it with ${SEARCH_TOOL} (a query naming the action and the thing it acts on; no query lists the groups of operations to browse), read its arguments with ${DESCRIBE_TOOL}, run it with ${CALL_TOOL}.`;
}
