/** prettier with the generator's pinned config: what generated TypeScript must already look like. */
import { format } from 'prettier';
import { PRETTIER_CONFIG } from '../../src/format/config.js';

export function prettierFormat(text: string, parser: 'typescript' | 'json'): Promise<string> {
  return format(text, { ...PRETTIER_CONFIG, parser });
}
