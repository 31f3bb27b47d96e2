/** The shape of the config's `resources` and `prompts` keys (load.ts checks the rest of the file). */
import { escapeToken } from '../util/json-pointer.js';
import { isPlainObject } from '../util/stable.js';

export interface ShapeProblem {
  pointer: string;
  message: string;
}

const PROMPT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function resourcesProblems(value: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  if (!isPlainObject(value)) return [{ pointer: '/resources', message: 'resources must be an object' }];
  for (const [key, entry] of Object.entries(value)) {
    const at = `/resources/${escapeToken(key)}`;
    if (key === 'apiDescription') {
      if (typeof entry !== 'boolean') problems.push({ pointer: at, message: 'apiDescription must be true or false' });
    } else if (key === 'templates') {
      if (!isPlainObject(entry)) {
        problems.push({ pointer: at, message: 'templates must be an object keyed by operationId or "METHOD /path"' });
        continue;
      }
      for (const [operation, template] of Object.entries(entry)) {
        const uri = isPlainObject(template) ? template['uri'] : template;
        const extra = isPlainObject(template)
          ? Object.keys(template).filter((k) => !['uri', 'name', 'description'].includes(k))
          : [];
        if (typeof uri !== 'string' || !/^[a-z][a-z0-9+.-]*:/i.test(uri) || !uri.includes('{') || extra.length > 0)
          problems.push({
            pointer: `${at}/${escapeToken(operation)}`,
            message:
              'a template is a URI template with a scheme and {variables} (e.g. "github://repos/{owner}/{repo}"), or { uri, name?, description? }',
          });
      }
    } else {
      problems.push({ pointer: at, message: `unknown resources field ${key} (expected apiDescription, templates)` });
    }
  }
  return problems;
}

export function promptsProblems(value: unknown): ShapeProblem[] {
  const problems: ShapeProblem[] = [];
  if (!isPlainObject(value)) return [{ pointer: '/prompts', message: 'prompts must be an object' }];
  for (const [key, entry] of Object.entries(value)) {
    const at = `/prompts/${escapeToken(key)}`;
    if (key === 'operationsGuide') {
      if (typeof entry !== 'boolean') problems.push({ pointer: at, message: 'operationsGuide must be true or false' });
    } else if (key === 'custom') {
      if (!Array.isArray(entry)) problems.push({ pointer: at, message: 'custom must be a list of prompts' });
      else entry.forEach((prompt, i) => problems.push(...promptProblems(prompt, `${at}/${i}`)));
    } else {
      problems.push({ pointer: at, message: `unknown prompts field ${key} (expected operationsGuide, custom)` });
    }
  }
  return problems;
}

function promptProblems(prompt: unknown, at: string): ShapeProblem[] {
  if (!isPlainObject(prompt)) return [{ pointer: at, message: 'a prompt is an object with name and text' }];
  const problems: ShapeProblem[] = [];
  const problem = (field: string, message: string) => problems.push({ pointer: `${at}/${field}`, message });
  for (const [field, v] of Object.entries(prompt)) {
    if (field === 'name') {
      if (typeof v !== 'string' || !PROMPT_NAME.test(v)) problem(field, `name must match ${PROMPT_NAME.source}`);
    } else if (field === 'title' || field === 'description' || field === 'text') {
      if (typeof v !== 'string' || v.trim() === '') problem(field, `${field} must be a non-empty string`);
    } else if (field === 'arguments') {
      if (!Array.isArray(v)) problem(field, 'arguments must be a list of { name, description?, required? }');
      else
        v.forEach((arg, i) => {
          const ok =
            isPlainObject(arg) &&
            typeof arg['name'] === 'string' &&
            /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg['name']) &&
            (arg['description'] === undefined || typeof arg['description'] === 'string') &&
            (arg['required'] === undefined || typeof arg['required'] === 'boolean') &&
            Object.keys(arg).every((k) => ['name', 'description', 'required'].includes(k));
          if (!ok) problem(`arguments/${i}`, 'an argument is { name, description?, required? } with a plain name');
        });
    } else {
      problem(escapeToken(field), `unknown prompt field ${field} (expected name, title, description, arguments, text)`);
    }
  }
  if (typeof prompt['name'] !== 'string') problem('name', 'a prompt needs a name');
  if (typeof prompt['text'] !== 'string') problem('text', 'a prompt needs a text');
  return problems;
}
