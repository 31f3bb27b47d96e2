/** Descriptions as one plain line, for search results and browsing: no HTML, no Markdown, first sentence. */

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Text without HTML tags, entities, Markdown links and emphasis, on one line. */
export function plainText(text: string): string {
  return text
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[*_`#>]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The plain text of about the first `chars` characters of `text`. Markup is dropped only from a slice a few
 * times longer than wanted: descriptions run to kilobytes, and only their start is ever shown or indexed.
 */
export function plainStart(text: string, chars: number): string {
  return plainText(text.length > chars * MARKUP_ALLOWANCE ? text.slice(0, chars * MARKUP_ALLOWANCE) : text).slice(
    0,
    chars,
  );
}

const MARKUP_ALLOWANCE = 4;

/** The first sentence of `text` as plain text, cut at `max` characters. */
export function firstSentence(text: string, max: number): string {
  const plain = plainStart(text, max);
  const match = sentencePattern(max).exec(plain);
  const sentence = match ? match[1]! : plain;
  return sentence.length > max ? `${sentence.slice(0, max - 3).trimEnd()}...` : sentence;
}

/** One pattern per length (a handful in all): compiled once, not once per description. */
const sentencePatterns = new Map<number, RegExp>();

function sentencePattern(max: number): RegExp {
  let pattern = sentencePatterns.get(max);
  if (!pattern) sentencePatterns.set(max, (pattern = new RegExp(`^(.{1,${max}}?[.!?])(\\s|$)`)));
  return pattern;
}
