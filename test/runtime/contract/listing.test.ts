/** Code mode's tools/list: two tools whose size does not depend on the API, under 1,500 o200k tokens. */
import { describe, expect, it } from 'vitest';
import { modeListing } from '../../../templates/runtime/contract/listing.js';
import { countListTokens } from '../../../src/report/tokens.js';

describe('code mode listing', () => {
  it('lists search and execute only, in at most 1,500 tokens whatever the title and the operation count', async () => {
    for (const title of ['Petstore', 'A title that goes on and on '.repeat(400)]) {
      const names = Array.from({ length: 20_000 }, (_, i) => `op${i}`);
      const { direct, meta } = modeListing(
        { core: [], server: { name: 'x', version: '1', title, instructions: '' } },
        names,
        'code',
      );
      expect(direct).toEqual([]);
      expect(meta.map((t) => t.name)).toEqual(['search', 'execute']);
      expect(await countListTokens(JSON.stringify({ tools: meta }))).toBeLessThanOrEqual(1_500);
    }
  });
});
