/**
 * Per client profile (templates/runtime/contract/profiles/profiles.ts): the listing its clients get from the generated server
 * in its default mode, how many of those tools needed lowering and which rules fired.
 */
import type { Catalog } from '../../templates/runtime/contract/catalog.js';
import type { ListedTool } from '../../templates/runtime/contract/listing.js';
import {
  loweringReport,
  profileTools,
  type ProfileLoweringReport,
} from '../../templates/runtime/contract/profiles/profile-listing.js';
import { PROFILES, type ProfileName } from '../../templates/runtime/contract/profiles/profiles.js';

export function profileReports(catalog: Catalog): ProfileLoweringReport[] {
  return Object.values(PROFILES)
    .filter((profile) => profile.rules !== undefined)
    .map((profile) => {
      const { mode, tools } = profileTools(catalog, catalog.toolMode, profile);
      return loweringReport(profile, mode, tools);
    });
}

/** What tools/list shows a client of this profile, as `{ profile, mode, tools }` (for --client-profile). */
export function profileListingJson(catalog: Catalog, name: ProfileName): string {
  const { mode, tools } = profileTools(catalog, catalog.toolMode, PROFILES[name]);
  const listed: ListedTool[] = tools.map((t) => t.tool);
  return `${JSON.stringify({ profile: name, mode, tools: listed }, null, 2)}\n`;
}

/** One summary line per profile: `cursor: 12 of 18 tools lowered (inline-refs 12, merge-unions 3), hybrid (cap 40)`. */
export function formatProfileReports(reports: readonly ProfileLoweringReport[], serverMode: string): string[] {
  return reports.map((r) => {
    const rules = Object.entries(r.rules)
      .map(([rule, n]) => `${rule} ${n}`)
      .join(', ');
    const mode = r.mode === serverMode ? '' : `; lists ${r.mode} (over the host's ${r.maxTools} tools)`;
    return `    ${r.profile}: ${r.lowered} of ${r.tools} tools lowered${rules ? ` (${rules})` : ''}${mode}`;
  });
}
