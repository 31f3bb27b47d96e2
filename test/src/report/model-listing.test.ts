/** What a model reads of a listed tool (src/report/model-listing.ts), as Claude Code hands it over. */
import { describe, expect, it } from 'vitest';
import type { ListedTool } from '../../../templates/runtime/contract/listing.js';
import {
  budgetTokens,
  costliestToolTokens,
  modelTokens,
  modelToolText,
  profileToolText,
} from '../../../src/report/model-listing.js';
import { PROFILES } from '../../../templates/runtime/contract/profiles/profiles.js';

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

describe('costliestToolTokens', () => {
  const count = (text: string) => text.length;
  const optional: ListedTool = {
    name: 'pets_list',
    description: 'List pets.',
    inputSchema: { type: 'object', properties: { limit: { type: 'integer', format: 'int32' } } },
    annotations: { readOnlyHint: true },
  };

  it("is the tool as its costliest profile lists it: here openai-strict's nullable, required, closed object", () => {
    const strict = profileToolText(optional, PROFILES['openai-strict']);
    expect(JSON.parse(strict).input_schema).toMatchObject({
      required: ['limit'],
      additionalProperties: false,
      properties: { limit: { type: ['integer', 'null'] } },
    });
    for (const profile of Object.values(PROFILES))
      expect(count(profileToolText(optional, profile))).toBeLessThanOrEqual(count(strict));
    expect(costliestToolTokens(optional, count)).toBe(count(strict));
    expect(costliestToolTokens(optional, count)).toBeGreaterThan(count(modelToolText(optional)));
  });

  it('sums per tool into the budget measure, which bounds every profile', () => {
    const tools = [tool, optional];
    const total = budgetTokens(tools, count);
    expect(total).toBe(costliestToolTokens(tool, count) + costliestToolTokens(optional, count));
    for (const profile of Object.values(PROFILES))
      expect(tools.reduce((n, t) => n + count(profileToolText(t, profile)), 0)).toBeLessThanOrEqual(total);
  });
});
