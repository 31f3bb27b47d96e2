/**
 * The registration snippets of the generated README and docs/publish.md, taken as written, give tool names every
 * host accepts: for the server key each snippet registers, `mcp__<key>__<tool>` is at most 64 characters (Claude
 * Code, Codex), key + tool under 60 (Cursor) and `mcp_<key>_<tool>` at most 63 (Gemini CLI). Checked on the real GitHub and
 * Spotify descriptions from ../shared/specs (skipped when absent), generated with the default names.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/pipeline.js';
import type { Catalog } from '../templates/runtime/contract/catalog.js';
import { META_TOOL_NAMES } from '../templates/runtime/contract/meta-definitions.js';
import { REPO_ROOT } from './helpers/generated-project.js';

const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
const SPECS = [
  ['github', 'github/api.github.com.json'],
  ['spotify', 'spotify/fixed-spotify-open-api.yml'],
] as const;

/** Every server key the README's fenced snippets register, host by host, as a reader would copy them. */
function registeredKeys(readme: string): Array<{ host: string; key: string }> {
  const keys: Array<{ host: string; key: string }> = [];
  for (const [, host, lang, body] of readme.matchAll(/^\*\*([^*\n]+)\*\*[^\n]*:\n\n```(\w+)\n([\s\S]*?)\n```/gm)) {
    if (lang === 'json') {
      const config = JSON.parse(body!) as { mcpServers?: object; servers?: object };
      for (const key of Object.keys(config.mcpServers ?? config.servers ?? {})) keys.push({ host: host!, key });
    } else if (lang === 'sh' && body!.startsWith('claude mcp add ')) {
      keys.push({ host: host!, key: body!.split(' ')[3]! });
    } else if (lang === 'toml') {
      keys.push({ host: host!, key: /^\[mcp_servers\.([^\].]+)\]$/m.exec(body!)![1]! });
    }
  }
  return keys;
}

describe.each(SPECS)('registration snippets of the %s README', (_name, file) => {
  it.skipIf(!existsSync(join(SPECS_DIR, file)))(
    'register every tool under names all hosts accept',
    async () => {
      const result = await generate({ spec: join(SPECS_DIR, file), validate: false, write: false });
      const page = (path: string) => result.files.find((f) => f.path === path)!.contents;
      // The README registers the local build; docs/publish.md the published package, with npx.
      const readme = `${page('README.md')}\n${page('docs/publish.md')}`;
      const catalog = JSON.parse(result.files.find((f) => f.path === 'catalog.json')!.contents) as Catalog;
      const keys = registeredKeys(readme);
      // Six hosts, for the local build and for npx.
      expect(keys.map((k) => k.host)).toEqual([
        'Claude Desktop',
        'Claude Code',
        'VS Code',
        'Cursor',
        'Codex',
        'Gemini CLI',
        'Claude Desktop',
        'Claude Code',
        'VS Code',
        'Cursor',
        'Codex',
        'Gemini CLI',
      ]);
      const tools = [...catalog.tools.map((t) => t.name), ...META_TOOL_NAMES];
      const tooLong: string[] = [];
      for (const { host, key } of keys) {
        expect(key).toMatch(/^[a-z0-9-]+$/);
        for (const tool of tools) {
          if (`mcp__${key}__${tool}`.length > 64) tooLong.push(`${host}: mcp__${key}__${tool}`);
          if (key.length + tool.length >= 60) tooLong.push(`${host} (Cursor rule): ${key} + ${tool}`);
          if (`mcp_${key}_${tool}`.length > 63) tooLong.push(`${host} (Gemini CLI rule): mcp_${key}_${tool}`);
        }
      }
      expect(tooLong).toEqual([]);
      expect(result.summary.surface.namesOverHostLimits).toEqual([]);
    },
    240_000,
  );
});
