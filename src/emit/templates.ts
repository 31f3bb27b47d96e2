/** Handlebars, configured so templates hold layout only: strict (missing fields throw), no HTML escaping. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Handlebars from 'handlebars';
import { packageRoot } from '../util/package-root.js';

const handlebars = Handlebars.create();
handlebars.registerHelper('json', (value: unknown) => JSON.stringify(value));

const cache = new Map<string, HandlebarsTemplateDelegate>();

export function renderTemplate(relativePath: string, view: object): string {
  let template = cache.get(relativePath);
  if (!template) {
    const source = readFileSync(join(packageRoot(), 'templates', 'project', relativePath), 'utf8');
    template = handlebars.compile(source, { strict: true, noEscape: true, knownHelpers: { json: true }, knownHelpersOnly: true });
    cache.set(relativePath, template);
  }
  return template(view);
}

export function readProjectFile(relativePath: string): string {
  return readFileSync(join(packageRoot(), 'templates', 'project', relativePath), 'utf8');
}
