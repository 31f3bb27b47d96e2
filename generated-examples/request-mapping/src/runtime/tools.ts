/**
 * The tool registry: built once per process from the catalog. tools/list returns a precomputed array;
 * tools/call looks the tool up in a Map and compiles its input validator on first use only, so neither
 * start-up nor per-request cost grows with the number of tools.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { Catalog, CatalogTool, JsonSchema } from './catalog.js';
import { assembleInputSchema, listedTool, type ListedTool } from './listing.js';

type Validate = (input: unknown) => { valid: boolean; errorMessage?: string | undefined };

export class ToolRegistry {
  readonly listed: ListedTool[];
  private readonly byName: Map<string, CatalogTool>;
  private readonly inputSchemas = new Map<string, JsonSchema>();
  private readonly validators = new Map<string, Validate>();
  private readonly validatorProvider = new AjvJsonSchemaValidator();

  constructor(readonly catalog: Catalog) {
    this.byName = new Map(catalog.tools.map((t) => [t.name, t]));
    this.listed = catalog.tools.map((tool) => {
      const inputSchema = assembleInputSchema(tool, catalog.defs);
      this.inputSchemas.set(tool.name, inputSchema);
      return listedTool(tool, inputSchema);
    });
  }

  get(name: string): CatalogTool | undefined {
    return this.byName.get(name);
  }

  /** Validates arguments against the tool's inputSchema; the validator is compiled on the first call. */
  validate(tool: CatalogTool, args: unknown): string | undefined {
    return this.validateAgainst(tool.name, this.inputSchemas.get(tool.name)!, args);
  }

  /** Validates against any schema, compiled once per key (meta-tools use this too). */
  validateAgainst(key: string, schema: JsonSchema, args: unknown): string | undefined {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.validatorProvider.getValidator(schema);
      this.validators.set(key, validate);
    }
    const result = validate(args);
    return result.valid ? undefined : (result.errorMessage ?? 'invalid arguments');
  }
}
