/**
 * Handlebars, configured so templates hold layout only: strict (missing fields throw), no HTML escaping.
 *
 * `npm run build` precompiles the templates (scripts/precompile-templates.ts), and a generation renders them
 * with Handlebars' runtime alone; without a build, or for a template changed since the build, each template is
 * compiled on first use. The golden tests hold both to the same bytes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type HandlebarsModule from 'handlebars';
import { packageRoot } from '../util/package-root.js';

type Handlebars = typeof HandlebarsModule;
type TemplateSpec = Parameters<Handlebars['template']>[0];

/** Compile-time options, the same for precompiled templates and those compiled here. */
export const COMPILE_OPTIONS = { strict: true, noEscape: true, knownHelpers: { json: true }, knownHelpersOnly: true };

/** Where the build writes the precompiled templates (found from the package root, as the validators are). */
export const PRECOMPILED_TEMPLATES = join(packageRoot(), 'dist', 'src', 'emit', 'templates.precompiled.cjs');

const require = createRequire(import.meta.url);

/** What the build wrote for one template: its source then, and the compiled form. */
interface PrecompiledTemplate {
  source: string;
  spec: TemplateSpec;
}

const precompiled = loadPrecompiled();
/** Renders precompiled templates: Handlebars' runtime alone when the build precompiled them. */
const runtime = withHelpers(
  precompiled ? (require('handlebars/runtime') as Handlebars) : (require('handlebars') as Handlebars),
);
/** Compiles the templates that were not precompiled, or that changed since the build (loaded only then). */
let compiler: Handlebars | undefined;

const cache = new Map<string, HandlebarsTemplateDelegate>();

export function renderTemplate(relativePath: string, view: object): string {
  let template = cache.get(relativePath);
  if (!template) {
    template = loadTemplate(relativePath);
    cache.set(relativePath, template);
  }
  return template(view);
}

function loadTemplate(relativePath: string): HandlebarsTemplateDelegate {
  const source = readProjectFile(relativePath);
  const entry = precompiled?.[relativePath];
  // A template edited after the build is compiled from its source: the output never lags behind it.
  if (entry?.source === source) return runtime.template(entry.spec);
  compiler ??= precompiled ? withHelpers(require('handlebars') as Handlebars) : runtime;
  return compiler.compile(source, COMPILE_OPTIONS);
}

export function readProjectFile(relativePath: string): string {
  return readFileSync(join(packageRoot(), 'templates', 'project', relativePath), 'utf8');
}

function withHelpers(base: Handlebars): Handlebars {
  const instance = base.create();
  instance.registerHelper('json', (value: unknown) => JSON.stringify(value));
  return instance;
}

function loadPrecompiled(): Record<string, PrecompiledTemplate> | undefined {
  try {
    return require(PRECOMPILED_TEMPLATES) as Record<string, PrecompiledTemplate>;
  } catch {
    return undefined;
  }
}
