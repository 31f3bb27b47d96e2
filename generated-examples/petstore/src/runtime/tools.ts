/**
 * The tool registry: built once per process from the catalog. tools/list returns a precomputed array;
 * tools/call looks the tool up in a Map and compiles its input validator on first use only, so neither
 * start-up nor per-request cost grows with the number of tools.
 */
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import type { Catalog, CatalogTool, JsonSchema } from './catalog.js';

export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema: { type: 'object'; [key: string]: unknown };
  outputSchema?: { type: 'object'; [key: string]: unknown };
  annotations: CatalogTool['annotations'];
  _meta?: Record<string, unknown>;
}

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
    let validate = this.validators.get(tool.name);
    if (!validate) {
      validate = this.validatorProvider.getValidator(this.inputSchemas.get(tool.name)!);
      this.validators.set(tool.name, validate);
    }
    const result = validate(args);
    return result.valid ? undefined : (result.errorMessage ?? 'invalid arguments');
  }
}

/** A self-contained inputSchema: the tool's schema plus the shared `$defs` it needs (shared by reference). */
export function assembleInputSchema(tool: CatalogTool, defs: Catalog['defs']): JsonSchema {
  if (tool.defs.length === 0) return tool.inputSchema;
  const own: Record<string, JsonSchema> = {};
  for (const name of tool.defs) if (defs[name]) own[name] = defs[name];
  return { ...tool.inputSchema, $defs: own };
}

function listedTool(tool: CatalogTool, inputSchema: JsonSchema): ListedTool {
  const listed: ListedTool = {
    name: tool.name,
    description: tool.description,
    inputSchema: inputSchema as ListedTool['inputSchema'],
    annotations: tool.annotations,
  };
  if (tool.title) listed.title = tool.title;
  if (tool.outputSchema) listed.outputSchema = tool.outputSchema as ListedTool['outputSchema'];
  return listed;
}
