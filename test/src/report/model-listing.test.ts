/** What a model reads of a listed tool (src/report/model-listing.ts), as Claude Code hands it over. */
import { describe, expect, it } from 'vitest';
import type { ListedTool } from '../../../templates/runtime/contract/listing.js';
import { modelTokens, modelToolText } from '../../../src/report/model-listing.js';

const tool: ListedTool = {
  name: 'pets_create',
  title: 'Create a pet',
  description: 'Create a pet.',
  inputSchema: {
    type: 'object',
    oneOf: [
      { properties: { cat: { type: 'string' } }, required: ['cat'] },
      { properties: { dog: { type: 'string' } }, required: ['dog'] },
    ],
  },
  outputSchema: { type: 'object', properties: { id: { type: ['integer', 'null'] } } },
  annotations: { readOnlyHint: false },
};

describe('modelToolText', () => {
  it('is the Anthropic API tool definition: name, description, input_schema, lowered as for claude-code', () => {
    const text = JSON.parse(modelToolText(tool)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(text)).toEqual(['name', 'description', 'input_schema']);
    // The claude profile merges a root union (the Anthropic API refuses one).
    expect(text['input_schema']!['oneOf']).toBeUndefined();
    expect(Object.keys(text['input_schema']!['properties'] as object)).toEqual(['cat', 'dog']);
  });

  it('sums per tool', () => {
    const count = (text: string) => text.length;
    expect(modelTokens([tool, tool], count)).toBe(2 * modelToolText(tool).length);
  });
});
