/**
 * Values a request carries (an e-mail address, an IP address, a date, a file name) as evidence of which
 * operation is meant: an operation whose parameters accept that kind of value fits the request better. The
 * server detects the kinds in a request; the generator classifies each operation's parameters into the kinds
 * they accept (src/emit/search/value-kinds.ts). Both meet in the index's `kinds` field as kind terms (`#email`),
 * which no analyzed word can be (words never hold `#`).
 */

export type ValueKind =
  | 'url'
  | 'email'
  | 'uuid'
  | 'date'
  | 'cidr'
  | 'ipv4'
  | 'ipv6'
  | 'coordinates'
  | 'phone'
  | 'money'
  | 'file'
  | 'domain'
  | 'key'
  | 'sha'
  | 'mention'
  | 'channel'
  | 'name'
  | 'span'
  | 'postcode'
  | 'id';

interface KindPattern {
  kind: ValueKind;
  /** Matched against a request (global flags are added); `\b` edges keep it to whole values. */
  pattern: RegExp;
}

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const FILE_EXTENSIONS =
  'pdf|docx?|xlsx?|pptx?|csv|tsv|txt|rtf|md|json|xml|ya?ml|html?|png|jpe?g|gif|svg|webp|heic|bmp|tiff?|mp3|mp4|wav|m4a|mov|avi|zip|tar|gz|tgz|7z|rar|apk|ipa|exe|dmg|iso|log|sql|py|js|ts|go|rb|java|sh';

/**
 * The kinds and how each is written, in the order they are tried: a span of the request taken by one kind is
 * not read again (an e-mail address holds a domain, a URL a file name, a date-time a time).
 */
export const VALUE_PATTERNS: readonly KindPattern[] = [
  { kind: 'url', pattern: /\b(?:https?|ftp|wss?):\/\/[^\s"'<>]+/i },
  { kind: 'email', pattern: /[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b/i },
  { kind: 'uuid', pattern: /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/i },
  {
    kind: 'date',
    pattern: /\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:z|[+-]\d{2}:?\d{2})?)?(?![\w-])/i,
  },
  { kind: 'cidr', pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\/\d{1,2}\b/ },
  { kind: 'ipv4', pattern: /\b(?:\d{1,3}\.){3}\d{1,3}\b/ },
  // Two colons at least, and "::" or eight groups: "10:30:00" is a time.
  {
    kind: 'ipv6',
    pattern: /(?<![\w:])(?=[0-9a-f:]*::|(?:[0-9a-f]{1,4}:){7})(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{0,4}(?![\w:])/i,
  },
  { kind: 'coordinates', pattern: /(?<![\w.])-?\d{1,2}\.\d{2,}\s*,\s*-?\d{1,3}\.\d{2,}\b/ },
  { kind: 'date', pattern: /\b\d{1,2}[/.]\d{1,2}[/.](?:\d{4}|\d{2})\b/ },
  { kind: 'phone', pattern: /(?<![\w+])\+\d[\d ().-]{6,}\d\b|\(\d{3}\)\s?\d{3}-\d{4}\b|\b\d{3}-\d{3}-\d{4}\b/ },
  {
    kind: 'money',
    pattern:
      /[$€£¥]\s?\d[\d,]*(?:\.\d+)?(?:[km]\b)?|\b\d[\d,]*(?:\.\d+)?\s?(?:usd|eur|gbp|dollars?|euros?|pounds|cents?)\b/i,
  },
  { kind: 'file', pattern: new RegExp(String.raw`(?<![\w.])[\w-]+(?:\.[\w-]+)*\.(?:${FILE_EXTENSIONS})\b`, 'i') },
  { kind: 'domain', pattern: /\b(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}\b/i },
  // Issue-tracker keys are written in capitals: "ABC-12", not "covid-19".
  { kind: 'key', pattern: /\b[A-Z][A-Z0-9]{1,9}-\d+\b/ },
  { kind: 'sha', pattern: /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b/i },
  { kind: 'mention', pattern: /(?<![\w.])@[a-z0-9][\w.-]*/i },
  { kind: 'channel', pattern: /(?<![\w&#])#[a-z][\w-]*/i },
  { kind: 'name', pattern: /"[^"]+"|“[^”]+”|(?<!\w)'[^']{2,}'(?!\w)/ },
  {
    kind: 'span',
    pattern:
      /\b\d+\s?(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|[smhdw])\b(?!\s*(?:ago|old)\b)/i,
  },
  // A day said in words is a value only as a bound ("since yesterday"); "yesterday's version" tells a story.
  {
    kind: 'date',
    pattern: new RegExp(
      String.raw`\b${MONTH}\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?\b|\b\d{1,2}(?:st|nd|rd|th)?\s+${MONTH}\b(?:,?\s+\d{4})?|\b(?:since|before|after|until|from)\s+(?:\d+\s?(?:days?|weeks?|months?|years?)\s+ago|yesterday|today|tomorrow|last\s+(?:week|month|year|monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b`,
      'i',
    ),
  },
  // A British postcode ("SW1A 1AA") or a US ZIP+4; a bare five-digit ZIP cannot be told from a number.
  { kind: 'postcode', pattern: /\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|\b\d{5}-\d{4}\b/ },
  // "#17", "cus_9", "api-7f9c", and a bare number that is not a count of something ("issue 42", not "20%").
  {
    kind: 'id',
    pattern:
      /#\d+\b|\b(?=[\w-]*\d)(?=[\w-]*[a-z])(?=[\w-]*[_-])[\w-]+\b|(?<![$\d.,])\b\d+\b(?![%.,\d]|\s*(?:gi|gb|mb|kb|am|pm|%)\b)/i,
  },
];

/** A value found in a text: its kind and where it is. */
export interface FoundValue {
  kind: ValueKind;
  start: number;
  end: number;
}

const GLOBAL_PATTERNS = VALUE_PATTERNS.map(({ kind, pattern }) => ({
  kind,
  pattern: new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`),
}));

/** The values in `text`, in order of position; each span belongs to the first kind (VALUE_PATTERNS' order) that reads it. */
export function findValues(text: string): FoundValue[] {
  const found: FoundValue[] = [];
  const taken = (start: number, end: number) => found.some((f) => start < f.end && f.start < end);
  for (const { kind, pattern } of GLOBAL_PATTERNS) {
    pattern.lastIndex = 0;
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (!taken(start, end)) found.push({ kind, start, end });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/**
 * The distinct kinds of the values in a request, in order of first appearance. Some patterns take time in
 * proportion to the square of a run without spaces: the search reads only a request's start (search.ts).
 */
export function valueKinds(text: string): ValueKind[] {
  return [...new Set(findValues(text).map((f) => f.kind))];
}

/** The kind of a whole value (a parameter's example), if the value is one thing of one kind. */
export function kindOfValue(value: string): ValueKind | undefined {
  const trimmed = value.trim();
  const [only, ...rest] = findValues(trimmed);
  return only && rest.length === 0 && only.start === 0 && only.end === trimmed.length ? only.kind : undefined;
}

/** The index term of a kind: `#` keeps it apart from every analyzed word. */
export function kindTerm(kind: ValueKind): string {
  return `#${kind}`;
}

/**
 * A typical value of each kind, to test a parameter's `pattern` against: a pattern that accepts a kind's
 * sample accepts that kind.
 */
export const KIND_SAMPLES: Readonly<Record<ValueKind, readonly string[]>> = {
  url: ['https://example.com/path'],
  email: ['ann@example.org'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000'],
  date: ['2024-03-01', '2024-03-01T10:00:00Z'],
  cidr: ['10.0.0.0/24'],
  ipv4: ['198.51.100.4'],
  ipv6: ['2001:db8::1'],
  coordinates: ['51.5072,-0.1276'],
  phone: ['+14155550100'],
  money: ['25.00'],
  file: ['report.pdf'],
  domain: ['www.example.com'],
  key: ['ABC-12'],
  sha: ['9fceb02d0ae598e95dc970b74767f19372d61af8'],
  mention: ['@ann'],
  channel: ['#general'],
  name: ['Quarterly report'],
  span: ['30d', 'PT1H'],
  postcode: ['SW1A 1AA', '94107'],
  id: ['42'],
};
