/**
 * What code mode lists: `search` (operations as TypeScript declarations) and `execute` (a program calling
 * them as `api.*`). Kept apart from their handlers (code-mode.ts) because the generator imports them (the
 * tool surface it reports, the names it reserves) and must not load the handlers and the call path they import.
 */
import type { ListedTool } from './listing.js';
import { DEFAULT_LIMIT, MAX_LIMIT } from './meta-definitions.js';

export const CODE_SEARCH_TOOL = 'search';
export const CODE_EXECUTE_TOOL = 'execute';
export const CODE_TOOL_NAMES: readonly string[] = [CODE_SEARCH_TOOL, CODE_EXECUTE_TOOL];

/**
 * code-declarations.json, which the generator writes for a project generated in code mode: per operation name,
 * its declaration as a method of `api`. Here, not in code-mode/, because the server core hands it over as data.
 */
export interface DeclarationsFile {
  format: 1;
  declarations: Record<string, string>;
}

/** `api`: the API as api-name.ts names it ("GitHub API"). */
export function codeToolDefinitions(api: string, operationCount: number): ListedTool[] {
  return [
    {
      name: CODE_SEARCH_TOOL,
      title: `Search ${api} operations`,
      description: `Find operations of the ${api} (${operationCount} in all) by what they do. Returns, best match first, each operation's TypeScript declaration as a method of \`api\`: what it does, its arguments with their descriptions, and the shape of what it returns. Without a query, lists the groups of operations; with a group, the operations in it. Then run a program with ${CODE_EXECUTE_TOOL}.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: {
            type: 'string',
            description:
              'What you want to do: the action and the thing it acts on, in the API\'s own words where you know them (e.g. "list open pull requests"), or an operation name. Leave out to browse the groups.',
          },
          group: { type: 'string', description: 'A group name from the list without a query.' },
          limit: {
            type: 'integer',
            minimum: 1,
            maximum: MAX_LIMIT,
            default: DEFAULT_LIMIT,
            description: 'Most operations returned.',
          },
        },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    {
      name: CODE_EXECUTE_TOOL,
      title: `Run a program against the ${api}`,
      description: `Runs a JavaScript or TypeScript program in a sandbox and returns what it returns (as JSON). The program is the body of an async function: call operations found with ${CODE_SEARCH_TOOL} as \`await api.<name>(args)\`, which resolves to the parsed response body; chain, filter and page in code, and return only what is needed. A failed call throws an ApiError with \`status\` and \`body\`. console.log lines are returned too. There is no fetch, no import, no timers; Date gives the start time. Time, memory, API calls and result size are limited, and by default only read-only operations may be called.`,
      inputSchema: {
        type: 'object',
        properties: {
          code: {
            type: 'string',
            minLength: 1,
            description:
              "e.g. const runs = await api.list_runs({ owner: 'o', repo: 'r' }); return runs.items.filter((r) => r.status === 'failed').map((r) => r.id);",
          },
        },
        required: ['code'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
    },
  ];
}

export function codeInstructions(): string {
  return `Find operations with ${CODE_SEARCH_TOOL} (a query naming the action and the thing it acts on; it returns their TypeScript declarations), then run a program with ${CODE_EXECUTE_TOOL} that calls them as \`await api.<name>(args)\` and returns what you need.`;
}
