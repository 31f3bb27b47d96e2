/**
 * The layouts written without prettier (src/format/literal-lists.ts and the string literals it prints) are
 * byte for byte what prettier writes with the generator's config, on generated and on random input.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutLists } from '../../../src/format/literal-lists.js';
import { formatSource, prettierFormat } from '../../../src/format/prettier.js';
import { prettierStringLiteral } from '../../../src/format/string-literal.js';

const RUNS = { numRuns: 60 };
/** Characters that exercise quoting and escaping, plus plain and non-ASCII text. */
const asciiTricky = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', "'", '"', '\\', '/', '{', '}', '\n', '\t') });
const tricky = fc.string({
  unit: fc.constantFrom('a', 'Z', '0', ' ', "'", '"', '\\', '/', '{', '}', '\n', '\t', 'é', '\u2028', '😀'),
});
const toolName = fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/);

describe('string literals', () => {
  it('are quoted and escaped as prettier prints them', async () => {
    await fc.assert(
      fc.asyncProperty(tricky, async (text) => {
        const raw = JSON.stringify(JSON.stringify({ text }));
        const formatted = await prettierFormat(`f(${raw});\n`, 'typescript');
        expect(formatted.replace(/^f\(\s*|,?\s*\);\n$/g, '')).toBe(prettierStringLiteral(raw));
      }),
      RUNS,
    );
  });
});

describe('big literal lists', () => {
  const file = (tools: Array<[string, string]>) =>
    [
      '// header',
      '/** Every tool. */',
      'export const TOOLS = {',
      ...tools.map(([k, v]) => `  ${JSON.stringify(k)}: ${JSON.stringify(v)},`),
      '} as const;',
      '',
      'export type ToolName = keyof typeof TOOLS;',
      '',
    ].join('\n');

  const lists = (text: fc.Arbitrary<string>) =>
    fc.array(
      fc.tuple(
        toolName,
        text.map((t) => `GET /${t}`),
      ),
      { minLength: 8, maxLength: 40 },
    );

  it('are laid out as prettier lays them out', async () => {
    await fc.assert(
      fc.asyncProperty(lists(asciiTricky), async (tools) => {
        const text = file(tools.concat([['a_very_long_tool_name_that_needs_its_own_line', `GET /${'x'.repeat(90)}`]]));
        const cut = cutLists(text);
        expect(cut).toBeDefined();
        expect(cut!.splice(await prettierFormat(cut!.skeleton, 'typescript'))).toBe(
          await prettierFormat(text, 'typescript'),
        );
      }),
      { numRuns: 25 },
    );
  });

  it('are formatted as prettier formats them whatever they hold', async () => {
    await fc.assert(
      fc.asyncProperty(lists(tricky), async (tools) => {
        const text = file(tools);
        expect(await formatSource(text, 'typescript')).toBe(await prettierFormat(text, 'typescript'));
      }),
      { numRuns: 15 },
    );
  });

  it('cuts only lists long enough to matter, and only ASCII ones', () => {
    const many = (value: (i: number) => string) =>
      Array.from({ length: 20 }, (_, i) => [`tool_${i}`, value(i)] as [string, string]);
    expect(cutLists(file([['a', 'GET /']]))).toBeUndefined();
    expect(cutLists(file(many((i) => `GET /route/${i}`)))?.skeleton).toContain('otm_splice_0_0');
    expect(cutLists(file(many((i) => `GET /é/${i}`)))).toBeUndefined();
  });

  it('says so when a placeholder does not come out as expected, and formatting then fails', async () => {
    const text = file(Array.from({ length: 10 }, (_, i) => [`tool_${i}`, `GET /items/${i}/${'x'.repeat(20)}`]));
    const cut = cutLists(text)!;
    expect(
      cut.splice((await prettierFormat(cut.skeleton, 'typescript')).replace('otm_splice_0_1', 'moved')),
    ).toBeUndefined();
    // A file that already holds the placeholder's marker is not cut: prettier formats it whole.
    const marked = `${text}// otm_splice\n`;
    expect(cutLists(marked)).toBeUndefined();
    expect(await formatSource(marked, 'typescript')).toBe(await prettierFormat(marked, 'typescript'));
  });
});
