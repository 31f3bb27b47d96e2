/**
 * docs/options.md, written from the option tables: the command line's flags and `generate()`'s keys
 * (src/options/generate-options.ts) and the config file's keys (src/config/schema.ts). `npm run docs:options`
 * writes it; test/src/options/options-doc.test.ts fails when the page is stale.
 */
import { CONFIG_KEYS } from '../config/schema.js';
import type { SchemaNode } from '../config/schema-node.js';
import { CONFIG_FILE_NAMES } from '../config/types.js';
import { GENERATE_OPTIONS } from './generate-options.js';
import { flagOf, type OptionSpec } from './option-spec.js';

export function optionsDoc(): string {
  return [
    '# Options',
    '',
    '<!-- Written by `npm run docs:options` from src/options/generate-options.ts and src/config/schema.ts: edit those, not this page. -->',
    '',
    'A generation takes its options from the command line (or `generate()` in code) and from a config file;',
    'no setting is in both. The generated server reads environment variables at run time, which override what',
    "generation baked in where the tables say so (the generated project's README lists them).",
    '',
    '## Command line',
    '',
    '`openapi-to-mcp <spec> [options]`: `<spec>` is a file path or an http(s) URL. In code, `generate({ spec, ... })`',
    'takes the same options under the keys below (all but `--check` and `--dry-run`).',
    '',
    '| Flag | `generate()` key | Values | Default | Description |',
    '| --- | --- | --- | --- | --- |',
    ...GENERATE_OPTIONS.map((spec: OptionSpec) => optionRow(spec)),
    '',
    '## Config file',
    '',
    `\`--config <file>\`, else the first of ${CONFIG_FILE_NAMES.map((n) => `\`${n}\``).join(', ')} in the output`,
    'folder, else in the current directory. A `.mjs` or `.js` file default-exports the config (or a function',
    'returning it). Keys and fields not listed here are errors, as are values of the wrong shape.',
    '',
    '| Key | Values | Default | Description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(CONFIG_KEYS).map(([key, node]) => schemaRow(key, node)),
    ...fieldsSections(),
    '',
  ].join('\n');
}

function optionRow(spec: OptionSpec): string {
  const flag = [`\`--${flagOf(spec)}\``, ...(spec.alias ? [`\`-${spec.alias}\``] : [])].join(', ');
  const key = spec.cliOnly ? '—' : `\`${spec.key}\``;
  const values = spec.choices
    ? spec.choices.map((c) => `\`${c}\``).join(', ')
    : spec.type === 'list'
      ? 'string, repeatable'
      : spec.type === 'boolean' && spec.default === true
        ? `boolean (\`--no-${flagOf(spec)}\`)`
        : spec.type;
  return row([flag, key, values, defaultText(spec.default, spec.defaultDoc), spec.describe]);
}

function defaultText(value: unknown, doc?: string): string {
  if (doc !== undefined) return doc;
  if (value === undefined || (Array.isArray(value) && value.length === 0)) return '';
  return `\`${typeof value === 'string' ? value : JSON.stringify(value)}\``;
}

function schemaRow(name: string, node: SchemaNode): string {
  return row([`\`${name}\``, valuesText(node), defaultText(node.default), node.description ?? '']);
}

/**
 * The fields of each key whose values are objects (directly, per entry of a map, or per selector), in a table
 * of their own; keys sharing a shape (include, exclude) share the table.
 */
function fieldsSections(): string[] {
  const shapes = new Map<SchemaNode, string[]>();
  for (const [key, node] of Object.entries(CONFIG_KEYS) as Array<[string, SchemaNode]>) {
    const shape = [node, node.else, node.additionalProperties || undefined].find((n) => n?.properties);
    if (shape) shapes.set(shape, [...(shapes.get(shape) ?? []), key]);
  }
  return [...shapes].flatMap(([shape, keys]) => [
    '',
    `### ${keys.map((k) => `\`${k}\``).join(', ')}${shape.title ? ` (each ${shape.title})` : ''}`,
    '',
    '| Field | Values | Default | Description |',
    '| --- | --- | --- | --- |',
    ...Object.entries(shape.properties ?? {}).map(([field, fieldNode]) => schemaRow(field, fieldNode)),
  ]);
}

/** A node's accepted values in a few words. */
function valuesText(node: SchemaNode): string {
  if (node.title) return node.title;
  if (node.enum) return node.enum.map((v) => `\`${String(v)}\``).join(', ');
  if (node.if && node.then?.items && node.else)
    return `${valuesText(node.else)}, or a list of ${plural(valuesText(node.then.items))}`;
  if (node.anyOf) return node.anyOf.map(valuesText).join(', or ');
  switch (node.type) {
    case 'array':
      return node.items ? `list of ${plural(valuesText(node.items))}` : 'list';
    case 'integer':
      return node.minimum === 1 ? 'positive integer' : 'integer';
    case 'object':
      if (node.properties) return 'object';
      return node.additionalProperties ? `object of ${plural(valuesText(node.additionalProperties))}` : 'object';
    default:
      return node.type ?? 'any';
  }
}

function plural(text: string): string {
  return /^[a-z]+$/.test(text) ? `${text}s` : text;
}

function row(cells: string[]): string {
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** A table cell's text: pipes escaped, and `<` outside code spans, which Markdown would take for HTML. */
function cell(text: string): string {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 0 ? part.replace(/</g, '&lt;') : part))
    .join('`')
    .replace(/\|/g, '\\|');
}
