/**
 * README.md is the front door (at most 300 lines, the two commands word for word); its links and the docs' resolve.
 * So do the generated project's README and docs/ pages, in every tool mode.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/pipeline.js';
import { REPO_ROOT } from './helpers/generated-project.js';

const README = join(REPO_ROOT, 'README.md');
const DOCS = join(REPO_ROOT, 'docs');

/** Pages the README links to that other work writes (the options table, the runtime map): only their anchors wait. */
const PAGES_WRITTEN_ELSEWHERE = new Set<string>();

const pages = [
  README,
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];

it('stays a front door of at most 300 lines', () => {
  expect(readFileSync(README, 'utf8').split('\n').length).toBeLessThanOrEqual(300);
});

it('holds the two commands, word for word', () => {
  const readme = readFileSync(README, 'utf8');
  expect(readme).toContain(
    '```sh\nnpm install && npx openapi-to-mcp fixtures/specs/petstore.yaml -o out/petstore-mcp && cd out/petstore-mcp && npm install && npm start\n```',
  );
  expect(readme).toContain('Run the tests:\n\n```sh\nnpm test\n```');
});

describe.each(pages.map((p) => [relative(REPO_ROOT, p), p]))('%s', (_name, page) => {
  it('links only to files and headings that exist', () => {
    const broken = links(readFileSync(page, 'utf8')).filter((link) => {
      const [file, anchor] = link.split('#') as [string, string | undefined];
      const target = file === '' ? page : join(dirname(page), file);
      const fromRoot = relative(REPO_ROOT, target);
      if (!existsSync(target)) return !PAGES_WRITTEN_ELSEWHERE.has(fromRoot);
      if (anchor === undefined || !target.endsWith('.md')) return false;
      return !headingSlugs(readFileSync(target, 'utf8')).has(anchor);
    });
    expect(broken).toEqual([]);
  });
});

describe.each(['all', 'dynamic', 'hybrid', 'code'] as const)('the generated project in mode %s', (toolMode) => {
  it('links its README to docs pages it has, with headings that exist, and nothing else', async () => {
    const result = await generate({
      spec: join(REPO_ROOT, 'fixtures', 'specs', 'petstore.yaml'),
      out: '/nonexistent/petstore-mcp',
      validate: false,
      write: false,
      toolMode,
    });
    const files = new Map(result.files.map((f) => [f.path, f.contents]));
    const docs = [...files.keys()].filter((path) => path.startsWith('docs/'));
    expect(docs.includes('docs/code-mode.md')).toBe(toolMode === 'code');
    const broken: string[] = [];
    const linked = new Set<string>();
    for (const path of ['README.md', ...docs]) {
      for (const link of links(files.get(path)!)) {
        const [file, anchor] = link.split('#') as [string, string | undefined];
        const target = file === '' ? path : join(dirname(path), file);
        linked.add(target);
        const contents = files.get(target);
        if (contents === undefined) broken.push(`${path}: ${link}`);
        else if (anchor !== undefined && !headingSlugs(contents).has(anchor)) broken.push(`${path}: ${link}`);
      }
    }
    expect(broken).toEqual([]);
    // Every page is reachable from the README.
    expect(docs.filter((page) => !linked.has(page))).toEqual([]);
  });
});

/** Relative link targets of a markdown page (outside code blocks and inline code). */
function links(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((target) => !/^[a-z]+:/i.test(target));
}

/** The anchors GitHub gives a page's headings. */
function headingSlugs(markdown: string): Set<string> {
  const prose = markdown.replace(/```[\s\S]*?```/g, '');
  return new Set(
    [...prose.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}
