/**
 * Every public spec in ../shared/specs listed as each known client would be (by its clientInfo name, through
 * the server's own profile choice), every listed tool checked by an independent checker of that host's rules
 * (test/helpers/host-rules.ts), and the tool count within the host's cap, in the generated default mode and in
 * mode `all`. Every tool of the catalog, lowered for each profile whether or not its listing shows it, passes too,
 * and so does every compact input schema (src/schema/compact-schema.ts) a hybrid listing shows. What the model
 * reads of the default listing fits the listing budget (src/emit/search/tool-modes.ts) as every profile lists it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/pipeline.js';
import type { Catalog } from '../templates/runtime/contract/catalog.js';
import { listAllTools, listedInputSchema, listedTool } from '../templates/runtime/contract/listing.js';
import { lowerTool, profileTools } from '../templates/runtime/contract/profiles/profile-listing.js';
import {
  KNOWN_CLIENTS,
  PROFILES,
  profileFor,
  readProfileChoice,
} from '../templates/runtime/contract/profiles/profiles.js';
import { REPO_ROOT } from './helpers/generated-project.js';
import { LISTING_TOKEN_BUDGET } from '../src/emit/search/tool-modes.js';
import { profileToolText } from '../src/report/model-listing.js';
import { tokenCounter } from '../src/report/tokens.js';
import { HOST_TOOL_CAPS, hostViolations, type Host } from './helpers/host-rules.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
const manifest = existsSync(join(SPECS_DIR, 'MANIFEST.tsv'))
  ? readFileSync(join(SPECS_DIR, 'MANIFEST.tsv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
  : [];
const { choice } = readProfileChoice({});

describe.skipIf(manifest.length === 0)('every public spec, as each known client lists it', () => {
  it.each(manifest.map((row) => [row[0]!, row[3]!] as const))('%s', async (_name, mainFile) => {
    const result = await generate({ spec: join(SPECS_DIR, mainFile), validate: false, write: false });
    const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
    const failures: string[] = [];
    for (const [client, expected] of Object.entries(KNOWN_CLIENTS)) {
      const profile = profileFor(choice, client);
      expect(profile.name).toBe(expected);
      const host = profile.name as Host | 'portable';
      for (const mode of new Set([catalog.toolMode, 'all' as const])) {
        const { tools } = profileTools(catalog, mode, profile);
        expect(tools.length, `${client} in mode ${mode}`).toBeLessThanOrEqual(HOST_TOOL_CAPS[host]);
        for (const { tool } of tools) {
          for (const v of hostViolations(host, tool.inputSchema))
            failures.push(`${client} (${mode}) ${tool.name}: ${v}`);
        }
      }
    }
    // The compact input schemas of core tools too, which a hybrid listing shows instead of the whole ones.
    const compacted = catalog.tools.flatMap((tool) =>
      tool.compactInputSchema ? [listedTool(tool, listedInputSchema(tool, catalog.defs, true))] : [],
    );
    for (const profile of Object.values(PROFILES)) {
      if (profile.name === 'full') continue;
      for (const tool of [...listAllTools(catalog), ...compacted]) {
        for (const v of hostViolations(profile.name, lowerTool(tool, profile).tool.inputSchema))
          failures.push(`${profile.name} ${tool.name}: ${v}`);
      }
    }
    expect(failures.slice(0, 20)).toEqual([]);
    // What the model reads of the default listing, as each profile lists it, fits the listing budget.
    const count = await tokenCounter();
    for (const profile of Object.values(PROFILES)) {
      const { tools } = profileTools(catalog, catalog.toolMode, profile);
      const read = tools.reduce((n, { tool }) => n + count(profileToolText(tool, PROFILES.full)), 0);
      expect(read, profile.name).toBeLessThanOrEqual(LISTING_TOKEN_BUDGET);
    }
  });
});
