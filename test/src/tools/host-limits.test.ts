import { describe, expect, it } from 'vitest';
import { hostsRefusing, toolNameBudget } from '../../../src/tools/host-limits.js';

describe('tool name budget', () => {
  it('is what Claude Code leaves after mcp__<key>__, the tightest host rule', () => {
    expect(toolNameBudget('github')).toBe(64 - 'mcp__github__'.length);
    expect(toolNameBudget('just-eat-uk')).toBe(46);
    expect(toolNameBudget('')).toBe(57);
  });

  it('fits every host at the limit and breaks Claude Code and Codex one character over', () => {
    for (const key of ['a', 'github', 'my-very-long-project']) {
      const budget = toolNameBudget(key);
      expect(hostsRefusing(key, 'x'.repeat(budget))).toEqual([]);
      expect(`mcp__${key}__${'x'.repeat(budget)}`).toHaveLength(64);
      expect(key.length + budget).toBeLessThan(60);
      expect(`mcp_${key}_${'x'.repeat(budget)}`.length).toBeLessThanOrEqual(63);
      expect(hostsRefusing(key, 'x'.repeat(budget + 1)).map((r) => r.host)).toEqual(['Claude Code', 'Codex']);
    }
  });

  it('names Cursor and Gemini CLI once their own limits are passed', () => {
    // ComposioHQ/composio#2788: key `g` and a 59-character tool are "(60) exceeds 60" in Cursor.
    expect(hostsRefusing('g', 'x'.repeat(59)).map((r) => r.host)).toEqual([
      'Claude Code',
      'Codex',
      'Cursor',
      'Gemini CLI',
    ]);
    expect(hostsRefusing('g', 'x'.repeat(58)).map((r) => r.host)).toEqual(['Claude Code', 'Codex', 'Gemini CLI']);
    expect(hostsRefusing('g', 'x'.repeat(57)).map((r) => r.host)).toEqual(['Claude Code', 'Codex']);
  });
});
