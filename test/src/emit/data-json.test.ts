import { describe, expect, it } from 'vitest';
import { asciiJson, dataJson, StringifiedEntries } from '../../../src/emit/data-json.js';

describe('dataJson (catalog.json, search-index.json)', () => {
  const value = {
    format: 1,
    server: { title: 'Café — API ✓' },
    tools: [{ name: 'a', description: 'naïve 😀' }, { name: 'b' }],
    defs: { X: { type: 'string' } },
    none: undefined,
  };

  it('parses back to the same value', () => {
    expect(JSON.parse(dataJson(value, ['tools', 'defs']))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('is ASCII only, so the server can read it without UTF-8 decoding', () => {
    // eslint-disable-next-line no-control-regex -- the range starts at NUL: every ASCII character
    expect(/[^\x00-\x7f]/.test(dataJson(value, ['tools']))).toBe(false);
    expect(asciiJson('é😀')).toBe('"\\u00e9\\ud83d\\ude00"');
  });

  it('puts each listed entry on its own line, and nothing else on more than one', () => {
    const lines = dataJson(value, ['tools', 'defs']).trimEnd().split('\n');
    expect(lines).toContain(
      '{"name":"a","description":"naïve 😀"},'.replace('ï', '\\u00ef').replace('😀', '\\ud83d\\ude00'),
    );
    expect(lines).toContain('{"name":"b"}');
    expect(lines).toContain('"X":{"type":"string"}');
    expect(lines[0]).toBe('{"format":1,');
    expect(lines.at(-1)).toBe('}}');
  });

  it('keeps empty lists on one line', () => {
    expect(dataJson({ tools: [], defs: {} }, ['tools', 'defs'])).toBe('{"tools":[],\n"defs":{}}\n');
    expect(dataJson({ tools: new StringifiedEntries([]) }, ['tools'])).toBe('{"tools":[]}\n');
  });

  it('writes entries stringified by the caller as it writes the same entries given as values', () => {
    const stringified = { ...value, tools: new StringifiedEntries(value.tools.map((t) => JSON.stringify(t))) };
    expect(dataJson(stringified, ['tools', 'defs'])).toBe(dataJson(value, ['tools', 'defs']));
  });
});
