/**
 * The tool registry: built once per process from the catalog. Tools are parsed, listed and given a
 * validator only when first needed (tools/list pages, tools/call), so neither start-up nor per-request
 * cost grows with the number of tools.
 */
import type { jsonSchemaValidator } from '@modelcontextprotocol/server';
import type { CatalogHeader, CatalogTool, JsonSchema } from '../contract/catalog.js';
import { assembleInputSchema, listedInputSchema, listedTool, type ListedTool } from '../contract/listing.js';
import type { ToolTable } from './tool-table.js';
import { explainInvalid } from './validation-message.js';

type Validate = (input: unknown) => { valid: boolean; errorMessage?: string | undefined };

export class ToolRegistry {
  readonly catalog: CatalogHeader;
  private readonly tools: ToolTable;
  private readonly listedByIndex: Array<ListedTool | undefined> = [];
  /** As a listing that offers describe_operation shows them (compact input schemas where the catalog has one). */
  private readonly compactByIndex: Array<ListedTool | undefined> = [];
  private readonly validators = new Map<string, Validate>();
  private validatorProvider: jsonSchemaValidator | undefined;

  /**
   * From catalog.json's header and its lazily parsed tools (tool-table.ts: parseCatalog). Arguments are
   * validated with Ajv, its patterns in linear time (argument-validator.ts), unless a `validatorProvider` is
   * given (Workers: the SDK's CfWorkerJsonSchemaValidator, since Ajv compiles to code and workerd forbids code
   * from strings).
   */
  constructor(catalog: { header: CatalogHeader; tools: ToolTable }, validatorProvider?: jsonSchemaValidator) {
    this.validatorProvider = validatorProvider;
    this.catalog = catalog.header;
    this.tools = catalog.tools;
  }

  get size(): number {
    return this.tools.length;
  }

  names(): readonly string[] {
    return this.tools.names();
  }

  get(name: string): CatalogTool | undefined {
    const index = this.tools.indexOf(name);
    return index < 0 ? undefined : this.tools.at(index);
  }

  /** -1 when there is no tool of that name. */
  indexOf(name: string): number {
    return this.tools.indexOf(name);
  }

  at(index: number): CatalogTool {
    return this.tools.at(index);
  }

  /**
   * What tools/list shows of the tool at this index (its inputSchema carries the shared $defs it uses); with
   * `compact`, as a listing that offers describe_operation shows it (its compact input schema, if it has one).
   */
  listedAt(index: number, compact = false): ListedTool {
    const cache = compact ? this.compactByIndex : this.listedByIndex;
    let listed = cache[index];
    if (listed === undefined) {
      const tool = this.tools.at(index);
      listed =
        compact && !tool.compactInputSchema
          ? this.listedAt(index)
          : listedTool(tool, listedInputSchema(tool, this.catalog.defs, compact));
      cache[index] = listed;
    }
    return listed;
  }

  /** Validates arguments against the tool's whole inputSchema (never a compact one); compiled on the first call. */
  validate(tool: CatalogTool, args: unknown): string | undefined {
    const index = this.tools.indexOf(tool.name);
    const schema = index >= 0 ? this.listedAt(index).inputSchema : assembleInputSchema(tool, this.catalog.defs);
    return this.validateAgainst(tool.name, schema, args);
  }

  /**
   * Loads the default validator, before the first validation: Ajv, its formats and RE2 are about 50 ms of imports
   * that no tools/list needs, so a server starts without them.
   */
  async loadValidator(): Promise<void> {
    this.validatorProvider ??= (await import('./argument-validator.js')).linearTimeValidator();
  }

  /**
   * Validates against any schema, compiled once per key (meta-tools use this too). The message names each
   * failing argument and what it must be (validation-message.ts).
   */
  validateAgainst(key: string, schema: JsonSchema, args: unknown): string | undefined {
    let validate = this.validators.get(key);
    if (!validate) {
      if (!this.validatorProvider) throw new Error('ToolRegistry: validation before loadValidator()');
      validate = this.validatorProvider.getValidator(schema);
      this.validators.set(key, validate);
    }
    const result = validate(args);
    return result.valid ? undefined : explainInvalid(result.errorMessage ?? 'invalid arguments', schema, args);
  }
}
