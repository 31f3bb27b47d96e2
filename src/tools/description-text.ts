/**
 * A spec's description (CommonMark with HTML, as OpenAPI allows) as the plain text a model reads: the words
 * kept, the markup dropped. marked's lexer reads the Markdown; what it leaves raw (HTML) and the entities it
 * leaves encoded are reduced here.
 */
import { decodeHTML } from 'entities/decode';
import { Lexer, type Token, type Tokens } from 'marked';
import { plainPunctuation } from '../schema/to-json-schema.js';

/**
 * Plain text of `markdown`: paragraphs apart by a blank line, list items one a line (`- item`). Link
 * targets, emphasis, headings' `#`, admonition markers (`> [!NOTE]`, `**Note:**`), HTML tags and entities
 * are dropped; fenced code and tables too (examples and reference detail, long and read by few models;
 * the full text stays with `describe_operation`). Inline code keeps its backticks: they mark identifiers.
 */
export function descriptionText(markdown: string): string {
  if (PLAIN_LINE.test(markdown)) return oneLine(withoutLabel(markdown));
  const blocks = blockTexts(new Lexer({ gfm: true }).lex(markdown));
  return plainPunctuation(blocks.filter((b) => b !== '').join('\n\n'));
}

/**
 * One line of ASCII words and punctuation, starting with a letter: Markdown reads it as one paragraph of plain
 * text (none of these characters opens a block, emphasis, code, a link, HTML, an entity or an escape; a bare URL
 * becomes a link of the same text), so its plain text is the line itself and it is not lexed. All of GitHub's
 * summaries and Kubernetes' descriptions are such lines, and lexing them cost some 25 ms a generation on each;
 * test/src/tools/description-text.test.ts reads the public specs' texts both ways.
 */
const PLAIN_LINE = /^[A-Za-z][A-Za-z0-9 ,.'()/?;:-]*$/;

/** The text on one line (summaries): the same reduction, every break a space. */
export function descriptionLine(markdown: string): string {
  return descriptionText(markdown).replace(/\s+/g, ' ').trim();
}

function blockTexts(tokens: readonly Token[]): string[] {
  return tokens.flatMap(blockText);
}

function blockText(token: Token): string[] {
  switch (token.type) {
    case 'paragraph':
    case 'heading':
      return [oneLine(withoutLabel(inlineText((token as Tokens.Paragraph).tokens)))];
    case 'text': {
      const text = token as Tokens.Text;
      return [oneLine(text.tokens ? inlineText(text.tokens) : decodeHTML(text.text))];
    }
    case 'blockquote':
      return withoutAlertMarker(blockTexts((token as Tokens.Blockquote).tokens));
    case 'list':
      return [
        (token as Tokens.List).items
          .map((item) => `- ${blockTexts(item.tokens).join(' ')}`)
          .filter((line) => line !== '- ')
          .join('\n'),
      ];
    case 'html':
      return htmlText((token as Tokens.HTML).text)
        .split(/\n\s*\n/)
        .map(oneLine);
    case 'code':
      // An indented block is more often prose a YAML author indented than an example: its words are kept.
      return (token as Tokens.Code).codeBlockStyle === 'indented' ? [oneLine((token as Tokens.Code).text)] : [];
    default:
      // Fenced code, tables, rules, link definitions, blank space: nothing a short description needs.
      return [];
  }
}

function inlineText(tokens: readonly Token[] | undefined): string {
  return (tokens ?? []).map(inlineTokenText).join('');
}

function inlineTokenText(token: Token): string {
  switch (token.type) {
    case 'text':
    case 'escape': {
      const text = token as Tokens.Text;
      return text.tokens ? inlineText(text.tokens) : decodeHTML(text.text);
    }
    case 'strong':
    case 'em':
    case 'del':
    case 'link':
      return inlineText((token as Tokens.Strong).tokens);
    case 'codespan':
      return `\`${decodeHTML((token as Tokens.Codespan).text)}\``;
    case 'br':
      return ' ';
    case 'html':
      return htmlText((token as Tokens.HTML).text);
    default:
      // Images (their alt text rarely says more than the sentence around them) and checkboxes.
      return '';
  }
}

/**
 * Text of raw HTML: tags out (block-level ones leave a break, so `</p><p>` still parts sentences; `<code>`
 * becomes the backtick it stands for), comments, scripts and styles out whole, entities decoded last (so
 * `&lt;b&gt;` stays text). marked hands HTML over unparsed; these few patterns are all that plain text needs
 * of it, where an HTML parser would be a second dependency doing the same.
 */
function htmlText(html: string): string {
  return decodeHTML(
    html
      .replace(/<!--[\s\S]*?(-->|$)/g, ' ')
      .replace(/<(script|style)\b[\s\S]*?(<\/\1\s*>|$)/gi, ' ')
      .replace(BLOCK_TAG, '\n\n')
      .replace(CODE_TAG, '`')
      .replace(TAG, ''),
  );
}

const BLOCK_TAG =
  /<\/?(p|div|br|li|ul|ol|dl|dt|dd|h[1-6]|table|tr|blockquote|pre|section|article|header|footer|hr)\b[^<>]*>/gi;
const CODE_TAG = /<\/?code\b[^<>]*>/gi;
const TAG = /<\/?[A-Za-z][\w:-]*(\s[^<>]*)?\/?>/g;

/** GitHub's admonitions: a blockquote whose first line is `[!NOTE]`, `[!WARNING]`, …; the marker goes. */
function withoutAlertMarker(blocks: string[]): string[] {
  if (blocks.length === 0) return blocks;
  const [first, ...rest] = blocks;
  return [first!.replace(/^\[!(note|tip|important|warning|caution)\]\s*/i, ''), ...rest];
}

/** `**Note:** …`, `Warning: …` opening a paragraph: the label marks an aside; the words after it are the text. */
function withoutLabel(text: string): string {
  return text.replace(/^\s*(note|notes|warning|tip|important|caution|info)\s*:\s*/i, '');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
