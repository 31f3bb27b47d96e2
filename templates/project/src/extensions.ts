/**
 * Your own tools, resources and prompts, served beside the generated tools. This file is yours:
 * openapi-to-mcp created it once and never overwrites it when it regenerates the project. Every export is
 * optional; the types are in src/runtime/extend/extensions.ts. For example:
 *
 *   export const tools: ExtraTool[] = [
 *     {
 *       name: 'echo',
 *       description: 'Says the text back.',
 *       inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
 *       run: ({ text }) => ({ content: [{ type: 'text', text: String(text) }] }),
 *     },
 *   ];
 *
 * A tool's `run(args, ctx)` gets its arguments (already validated against inputSchema) and a context with
 * the server's `fetch`, `log`, `env`, the request's `signal` and `callTool(name, args)` to call a generated
 * tool. Resources have `read(ctx)`, prompts `get(args, ctx)`. More files of yours under src/ are kept too.
 */
import type { ExtraPrompt, ExtraResource, ExtraTool } from './runtime/extend/extensions.js';

export const tools: ExtraTool[] = [];
export const resources: ExtraResource[] = [];
export const prompts: ExtraPrompt[] = [];
