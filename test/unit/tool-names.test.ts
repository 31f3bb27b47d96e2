/** src/tools.ts: ts-morph's structure filled with the tools gives the bytes ts-morph gives for the whole file. */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillToolNames, toolNamesSkeleton, toolNamesSource, type ToolNameEntry } from '../../src/emit/code.js';

const text = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', "'", '"', '\\', '/', '{', '}', '`', '$', '\n', '\r', '\u2028', '\t', 'é', '😀') });
const entry: fc.Arbitrary<ToolNameEntry> = fc.tuple(fc.stringMatching(/^[A-Za-z0-9_.-]{1,64}$/), text.map((t) => `GET /${t}`));

describe('src/tools.ts', () => {
  it('is the skeleton filled with the header and the tools, byte for byte what ts-morph writes', async () => {
    const skeleton = await toolNamesSkeleton();
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 30 }), text.map((t) => `Generated from "${t.replace(/\s+/g, ' ')}"`), async (entries, header) => {
        expect(fillToolNames(skeleton, entries, header)).toBe(await toolNamesSource(entries, header));
      }),
      { numRuns: 40 },
    );
  });

  it('is not filled when the placeholders are not where expected', () => {
    expect(fillToolNames('// no placeholders\n', [['a', 'GET /']], 'h')).toBeUndefined();
  });

  it('is left to ts-morph for a header that spans lines', async () => {
    expect(fillToolNames(await toolNamesSkeleton(), [['a', 'GET /']], 'one\ntwo')).toBeUndefined();
  });

  it('ships with the build: the skeleton npm run build wrote is the one ts-morph builds now', async () => {
    // The generator reads dist/src/emit/tools-skeleton.txt instead of loading ts-morph (npm test builds first).
    const prebuilt = readFileSync(new URL('../../dist/src/emit/tools-skeleton.txt', import.meta.url), 'utf8');
    expect(prebuilt.slice(prebuilt.indexOf('\n') + 1)).toBe(await toolNamesSkeleton());
    // Its key is the built code's own (the key hashes the compiled functions, so it is checked against dist).
    const built = (await import(new URL('../../dist/src/emit/code.js', import.meta.url).href)) as typeof import('../../src/emit/code.js');
    expect(prebuilt).toBe(await built.prebuiltSkeletonFile());
  });
});
