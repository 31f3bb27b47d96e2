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

/** The first sentence of `text` as plain text, cut at `max` characters. */
export function firstSentence(text: string, max: number): string {
  const plain = plainText(text);
  const match = new RegExp(`^(.{1,${max}}?[.!?])(\\s|$)`).exec(plain);
  const sentence = match ? match[1]! : plain;
  return sentence.length > max ? `${sentence.slice(0, max - 3).trimEnd()}...` : sentence;
}
