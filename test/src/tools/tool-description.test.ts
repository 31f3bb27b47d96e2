/** src/tools/tool-description.ts: what the model reads opens with what the operation does, within a budget. */
import { describe, expect, it } from 'vitest';
import {
  opensWith,
  TOOL_DESCRIPTION_BUDGET_BYTES,
  toolDescription,
  withinBudget,
} from '../../../src/tools/tool-description.js';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('toolDescription', () => {
  it('puts the summary in front of a description that does not open with it', () => {
    expect(
      toolDescription({
        summary: 'Finds Pets by status',
        description: 'Multiple status values can be provided with comma separated strings',
      }),
    ).toBe('Finds Pets by status.\n\nMultiple status values can be provided with comma separated strings');
  });

  it('does not repeat a summary the description already opens with, in any inflection', () => {
    expect(toolDescription({ summary: 'Get a repository', description: 'Get a repository. It has a name.' })).toBe(
      'Get a repository. It has a name.',
    );
    expect(toolDescription({ summary: 'Get a repository', description: 'Gets a repository by its name.' })).toBe(
      'Gets a repository by its name.',
    );
    expect(toolDescription({ summary: 'List pets', description: '**List pets** of the store.' })).toBe(
      'List pets of the store.',
    );
  });

  it('says a description equal to the summary once', () => {
    expect(toolDescription({ summary: 'Delete a pet.', description: 'Delete a pet' })).toBe('Delete a pet');
  });

  it('uses the description alone when there is no summary, and the summary alone when there is no description', () => {
    expect(toolDescription({ description: '<p>Creates a new customer object.</p>' })).toBe(
      'Creates a new customer object.',
    );
    expect(toolDescription({ summary: 'Get the **authenticated** user' })).toBe('Get the authenticated user');
    expect(toolDescription({})).toBe('');
  });

  it('keeps a summary that ends with punctuation as it is', () => {
    expect(toolDescription({ summary: 'Is it alive?', description: 'Pings.' })).toBe('Is it alive?\n\nPings.');
  });

  it('cuts a huge description at a sentence within the budget, summary first', () => {
    const sentence = 'This sentence says one more thing about the operation. ';
    const text = toolDescription({ summary: 'Get an issue', description: sentence.repeat(100_000) });
    expect(bytes(text)).toBeLessThanOrEqual(TOOL_DESCRIPTION_BUDGET_BYTES);
    expect(text.startsWith('Get an issue.\n\nThis sentence says')).toBe(true);
    expect(text.endsWith('operation.')).toBe(true);
  });

  it('reads the GitHub shape: admonitions and link targets gone, the spec words kept', () => {
    const description =
      'The `parent` and `source` objects are present when the repository is a fork.\n\n' +
      '> [!NOTE]\n> - In order to see the `security_and_analysis` block you must be an admin. For more, see ' +
      '"[Managing security managers](https://docs.github.com/organizations/managing-security-managers)."';
    const text = toolDescription({ summary: 'Get a repository', description });
    expect(text).toMatch(/^Get a repository\.\n\nThe `parent` and `source` objects are present/);
    expect(text).not.toContain('https://');
    expect(text).not.toContain('[!NOTE]');
  });

  it('budgets non-English text by bytes, cut at its own sentence marks', () => {
    const text = toolDescription({ summary: '获取仓库', description: '这是关于仓库的一句很长的说明。'.repeat(200) });
    expect(bytes(text)).toBeLessThanOrEqual(TOOL_DESCRIPTION_BUDGET_BYTES);
    expect(text.startsWith('获取仓库。\n\n这是')).toBe(true);
    expect(text.endsWith('。')).toBe(true);
  });
});

describe('withinBudget', () => {
  it('returns text within the budget unchanged', () => {
    expect(withinBudget('Short. Text.', 100)).toBe('Short. Text.');
  });

  it('cuts a first sentence longer than the budget at a word, marked', () => {
    const text = withinBudget(`Word ${'longword '.repeat(200)}end.`, 100);
    expect(bytes(text)).toBeLessThanOrEqual(100);
    expect(text).toMatch(/longword\.\.\.$/);
  });

  it('never leaves half a surrogate pair', () => {
    const text = withinBudget('😀'.repeat(100), 21);
    expect(text).toBe(`${'😀'.repeat(4)}...`);
  });

  it('drops a last sentence that only announces what was cut', () => {
    const text = withinBudget(`Lists tasks. The token must have these permissions:\n- ${'x'.repeat(200)}`, 80);
    expect(text).toBe('Lists tasks.');
  });
});

describe('opensWith', () => {
  it('compares stems of words, ignoring case and markup', () => {
    expect(opensWith('Creates a customer.', 'Create a customer')).toBe(true);
    expect(opensWith('`Get` the user', 'get the user')).toBe(true);
    expect(opensWith('Returns all pets', 'List pets')).toBe(false);
    expect(opensWith('anything', '')).toBe(true);
  });
});
