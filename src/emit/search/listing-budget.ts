/**
 * The listing budget at generation: what each core candidate costs the model as its costliest client profile
 * lists it (src/report/model-listing.ts), with its compact input schema where its whole one is over the per-tool budget
 * (src/schema/compact-schema.ts), and the room the meta-tools leave for the core (LISTING_TOKEN_BUDGET).
 */
import type { Catalog, CatalogTool, JsonSchema } from '../../../templates/runtime/contract/catalog.js';
import { assembleInputSchema, listedTool, modeListing } from '../../../templates/runtime/contract/listing.js';
import { budgetTokens, costliestToolTokens } from '../../report/model-listing.js';
import { compactInputSchema } from '../../schema/compact-schema.js';
import type { CoreBudget } from './hybrid-core.js';
import { LISTING_TOKEN_BUDGET } from './tool-modes.js';

/** Each catalog tool's compact input schema, made when first asked for; undefined where the whole one fits. */
export class CompactSchemas {
  private readonly made = new Map<number, JsonSchema | undefined>();

  constructor(private readonly catalog: Pick<Catalog, 'tools' | 'defs'>) {}

  of(index: number): JsonSchema | undefined {
    if (!this.made.has(index)) {
      const tool = this.catalog.tools[index]!;
      this.made.set(index, compactInputSchema(assembleInputSchema(tool, this.catalog.defs)));
    }
    return this.made.get(index);
  }

  /** The input schema a hybrid listing shows of the tool at this index. */
  listedSchema(index: number): JsonSchema {
    return this.of(index) ?? assembleInputSchema(this.catalog.tools[index]!, this.catalog.defs);
  }

  /** `tools` (the catalog's, in its order), the core ones carrying their compact schema where they need one. */
  withCompactSchemas(tools: readonly CatalogTool[], core: readonly string[]): CatalogTool[] {
    const names = new Set(core);
    return tools.map((tool, index) => {
      const compact = names.has(tool.name) ? this.of(index) : undefined;
      if (!compact) return tool;
      // Beside the schema it stands for, so a reader of catalog.json finds both together.
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(tool)) {
        out[key] = value;
        if (key === 'defs') out['compactInputSchema'] = compact;
      }
      return out as unknown as CatalogTool;
    });
  }
}

/**
 * The default core's budget: LISTING_TOKEN_BUDGET less what the meta-tools cost; each candidate costs what the
 * model reads of it in a hybrid listing (its compact schema where it has one), as its costliest profile lowers
 * it. `count`: o200k_base tokens. `wholeCost`, when given, is that cost of a tool listed with its whole schema,
 * already counted (ModeAllListing.costliestTokens): the same figure, not counted twice.
 */
export function coreBudget(
  catalog: Catalog,
  compact: CompactSchemas,
  count: (text: string) => number,
  wholeCost?: (index: number) => number,
): CoreBudget {
  const { meta } = modeListing(
    catalog,
    catalog.tools.map((t) => t.name),
    'hybrid',
  );
  const costs = new Map<number, number>();
  return {
    tokens: LISTING_TOKEN_BUDGET - budgetTokens(meta, count),
    cost: (index) => {
      let cost = costs.get(index);
      if (cost === undefined) {
        if (wholeCost && compact.of(index) === undefined) cost = wholeCost(index);
        else cost = costliestToolTokens(listedTool(catalog.tools[index]!, compact.listedSchema(index)), count);
        costs.set(index, cost);
      }
      return cost;
    },
  };
}
