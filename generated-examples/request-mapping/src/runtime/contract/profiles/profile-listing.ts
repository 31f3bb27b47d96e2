/**
 * Tools as one profile lists them: each listed tool's inputSchema lowered by the profile's rules, its output
 * schema left out where the host drops it, the rest of the tool as is. Free of SDK imports: the generator lists
 * profiles for its report and for --client-profile.
 */
import type { Catalog, ToolMode } from '../catalog.js';
import type { ListedTool, ModeListing } from '../listing.js';
import { listedInputSchema, listedTool, modeListing } from '../listing.js';
import { lowerSchema, RULE_ORDER, type LoweredSchema, type RuleId } from './lower-schema.js';
import type { ClientProfile } from './profiles.js';

export interface LoweredTool {
  tool: ListedTool;
  lowering?: LoweredSchema;
}

/**
 * The tool as the profile lists it; `full` (no rules) lists it unchanged. A profile whose host never hands
 * output schemas to its model (`omitOutputSchemas`) is listed none: nothing declared, so every
 * structuredContent the server returns is valid against it.
 */
export function lowerTool(tool: ListedTool, profile: ClientProfile): LoweredTool {
  if (!profile.rules) return { tool };
  const listed = profile.omitOutputSchemas && tool.outputSchema ? withoutOutputSchema(tool) : tool;
  const lowering = lowerSchema(listed.inputSchema, profile.rules);
  if (lowering.fired.length === 0) return { tool: listed };
  return { tool: { ...listed, inputSchema: lowering.schema as ListedTool['inputSchema'] }, lowering };
}

function withoutOutputSchema(tool: ListedTool): ListedTool {
  const { outputSchema: _omitted, ...rest } = tool;
  return rest;
}

/**
 * The mode a profile's client gets: the server's, unless that lists more tools than the host sends the model;
 * then the hybrid listing (at most 15 core tools plus the meta-tools, so it always fits).
 */
export function profileMode(
  catalog: Pick<Catalog, 'core' | 'server'>,
  names: readonly string[],
  mode: ToolMode,
  profile: ClientProfile,
): { mode: ToolMode; listing: ModeListing; capped: boolean } {
  const listing = modeListing(catalog, names, mode);
  if (listing.direct.length + listing.meta.length <= profile.maxTools || mode === 'dynamic' || mode === 'code')
    return { mode, listing, capped: false };
  return { mode: 'hybrid', listing: modeListing(catalog, names, 'hybrid'), capped: true };
}

/** Every tool a profile's clients are listed, lowered, from a whole catalog (the generator's report and tests). */
export function profileTools(
  catalog: Catalog,
  mode: ToolMode,
  profile: ClientProfile,
): { mode: ToolMode; tools: LoweredTool[] } {
  const names = catalog.tools.map((t) => t.name);
  const chosen = profileMode(catalog, names, mode, profile);
  const listed = [
    ...chosen.listing.direct.map((i) =>
      listedTool(catalog.tools[i]!, listedInputSchema(catalog.tools[i]!, catalog.defs, chosen.listing.compact)),
    ),
    ...chosen.listing.meta,
  ];
  return { mode: chosen.mode, tools: listed.map((tool) => lowerTool(tool, profile)) };
}

/** Per profile, for the generation report: how many listed tools needed lowering, and how often each rule fired. */
export interface ProfileLoweringReport {
  profile: string;
  tools: number;
  lowered: number;
  rules: Partial<Record<RuleId, number>>;
  /** The mode this profile's clients get (hybrid when the server's mode lists more than the host's cap). */
  mode: ToolMode;
  maxTools: number;
}

export function loweringReport(
  profile: ClientProfile,
  mode: ToolMode,
  tools: readonly LoweredTool[],
): ProfileLoweringReport {
  const counts = new Map<RuleId, number>();
  let lowered = 0;
  for (const { lowering } of tools) {
    if (!lowering) continue;
    lowered++;
    for (const rule of lowering.fired) counts.set(rule, (counts.get(rule) ?? 0) + 1);
  }
  const rules = Object.fromEntries(RULE_ORDER.filter((r) => counts.has(r)).map((r) => [r, counts.get(r)!])) as Partial<
    Record<RuleId, number>
  >;
  return { profile: profile.name, tools: tools.length, lowered, rules, mode, maxTools: profile.maxTools };
}
