/** src/tools/description-text.ts: a spec's Markdown and HTML as the plain text a model reads. */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { descriptionLine, descriptionText } from '../../../src/tools/description-text.js';
import { REPO_ROOT } from '../../helpers/generated-project.js';

describe('descriptionText', () => {
  it('keeps link text and drops the target', () => {
    expect(
      descriptionText('Returns a [`301 Moved Permanently` status](https://docs.github.com/rest#x) if moved.'),
    ).toBe('Returns a `301 Moved Permanently` status if moved.');
  });

  it('drops emphasis, heading marks and the GitHub admonition marker', () => {
    const text = '## Filtering\n\nUse **aggregate** and _window_.\n\n> [!NOTE]\n> This endpoint is in public preview.';
    expect(descriptionText(text)).toBe('Filtering\n\nUse aggregate and window.\n\nThis endpoint is in public preview.');
  });

  it('drops a bold Note: label and keeps what it says', () => {
    expect(descriptionText('**Note:** Only admins can do this.')).toBe('Only admins can do this.');
    expect(descriptionText('**Warning**: irreversible.')).toBe('irreversible.');
  });

  it('reduces HTML: tags out, block tags part paragraphs, <code> as backticks, entities decoded', () => {
    expect(
      descriptionText('<p>Creates a <a href="/docs/x">customer</a>.</p><p>Uses <code>id</code> &amp; more.</p>'),
    ).toBe('Creates a customer.\n\nUses `id` & more.');
  });

  it('reads nested HTML, comments and scripts without leaving markup behind', () => {
    const html =
      '<div><ul><li><b><i>Deep</i></b> item</li><!-- hidden --><li>two</li></ul><script>alert(1)</script></div>';
    const text = descriptionText(html);
    expect(text).not.toMatch(/[<>]/);
    expect(text).toContain('Deep item');
    expect(text).toContain('two');
    expect(text).not.toContain('alert');
    expect(text).not.toContain('hidden');
  });

  it('decodes entities as text, so an escaped tag stays visible', () => {
    expect(descriptionText('Use &lt;b&gt; for bold &mdash; or not.')).toBe('Use <b> for bold -- or not.');
  });

  it('drops fenced code and tables; keeps list items one a line', () => {
    const text = 'Lists:\n\n- one\n- two\n\n```bash\ncurl https://x\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd.';
    expect(descriptionText(text)).toBe('Lists:\n\n- one\n- two\n\nEnd.');
  });

  it('keeps an indented block as words: in YAML specs that is mostly prose indented by mistake', () => {
    expect(descriptionText('Intro.\n\n    indented prose here')).toBe('Intro.\n\nindented prose here');
  });

  it('survives unclosed Markdown and HTML', () => {
    expect(descriptionText('Start **bold [link](http://x and `code')).toBe('Start **bold [link](http://x and `code');
    expect(descriptionText('Text <b unclosed and <p>more')).not.toContain('<p>');
    expect(descriptionText('```\nnever closed fence\n\nstill code')).toBe('');
  });

  it('keeps non-English text and makes typographic punctuation ASCII', () => {
    expect(descriptionText('获取仓库。**详细**信息。')).toBe('获取仓库。详细信息。');
    expect(descriptionText('Récupère l’utilisateur “courant”.')).toBe('Récupère l\'utilisateur "courant".');
  });
});

describe('descriptionLine', () => {
  it('puts everything on one line', () => {
    expect(descriptionLine('Get a\n**repository**\n\n- now')).toBe('Get a repository - now');
  });
});

/**
 * A line of plain ASCII words and punctuation is taken as its own plain text without lexing it: the same
 * text with a line break after it goes through marked's lexer, and must read the same.
 */
describe('a plain line, read without the lexer', () => {
  const SPECS_DIR = join(REPO_ROOT, '..', 'shared', 'specs');
  const CORPUS = ['github/api.github.com.json', 'kubernetes/swagger.json', 'box/openapi.json'];

  function texts(node: unknown, into: string[] = []): string[] {
    if (Array.isArray(node)) for (const item of node) texts(item, into);
    else if (node && typeof node === 'object')
      for (const [key, value] of Object.entries(node))
        if ((key === 'summary' || key === 'description') && typeof value === 'string') into.push(value);
        else texts(value, into);
    return into;
  }

  it.each([
    'See https://example.com/a/b?c=d for more.',
    'Visit www.example.com today',
    'Key: value; (note) - the rest',
    "A user's repos / orgs",
    'Trailing spaces  ',
  ])('%j reads as the lexer reads it', (line) => {
    expect(descriptionText(line)).toBe(descriptionText(`${line}\n`));
  });

  it.skipIf(!existsSync(SPECS_DIR))(
    'reads every summary and description of three public specs as the lexer does',
    () => {
      let plain = 0;
      for (const file of CORPUS) {
        for (const text of texts(JSON.parse(readFileSync(join(SPECS_DIR, file), 'utf8')))) {
          if (!text.includes('\n')) plain++;
          expect(descriptionText(text), text).toBe(descriptionText(`${text}\n`));
        }
      }
      expect(plain).toBeGreaterThan(2000);
    },
  );
});
