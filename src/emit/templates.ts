/**
 * Handlebars, configured so templates hold layout only: strict (missing fields throw), no HTML escaping. Each
 * template is compiled on first use.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { packageRoot } from '../util/package-root.js';

const COMPILE_OPTIONS = { strict: true, noEscape: true, knownHelpers: { json: true }, knownHelpersOnly: true };

const handlebars = Handlebars.create();
handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value));

const cache = new Map<string, HandlebarsTemplateDelegate>();

export function renderTemplate(relativePath: string, view: object): string {
  let template = cache.get(relativePath);
  if (!template) {
    template = handlebars.compile(readProjectFile(relativePath), COMPILE_OPTIONS);
    cache.set(relativePath, template);
  }
  return template(view);
}

export function readProjectFile(relativePath: string): string {
  return readFileSync(join(packageRoot(), 'templates', 'project', relativePath), 'utf8');
}
