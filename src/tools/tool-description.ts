/**
 * The description a model reads for an operation: what it does first (the summary, unless the description
 * already opens with it), then the spec's description as plain text, cut at a sentence within a budget.
 * Hosts show models the name, the description and the input schema, never the title: a summary only in
 * `title` is a summary no model reads.
 */
import { stemWord } from '../../templates/runtime/contract/search/search-text.js';
import { descriptionLine, descriptionText } from './description-text.js';

/**
 * The budget of a tool's description, in UTF-8 bytes (o200k spends about a token on 4 bytes of English and
 * on 1 to 3 bytes of other scripts, so bytes follow tokens across languages better than characters do).
 * Chosen by measurement over the 4,859 operations of the 16 public specs (`node bench/descriptions.mjs
 * --budgets 200,300,400,500,600,800`): at 400 bytes (about 90 tokens at most, 29 a tool on average) 89% of
 * descriptions are whole, and the rest keep their opening sentences, the part that says what the operation
 * is for; 300 cuts 18% of them, and 600 costs 14% more tokens to keep 5% more whole (caveats, examples).
 */
export const TOOL_DESCRIPTION_BUDGET_BYTES = 400;

/**
 * Markdown past this many characters is not read: only the opening fits the budget (markup, code and tables
 * included, 16 times the budget leaves room), and a description of megabytes (a hostile spec) would otherwise
 * be lexed whole for each tool.
 */
const READ_CHARS = TOOL_DESCRIPTION_BUDGET_BYTES * 16;

export interface OperationText {
  summary?: string;
  description?: string;
}

/** What the model reads: the summary, then the description, plain, within `budget` bytes. */
export function toolDescription(
  { summary, description }: OperationText,
  budget = TOOL_DESCRIPTION_BUDGET_BYTES,
): string {
  const lead = summary ? descriptionLine(summary) : '';
  const body = description ? descriptionText(description.slice(0, READ_CHARS)) : '';
  if (!body) return withinBudget(lead, budget);
  if (!lead || opensWith(body, lead)) return withinBudget(body, budget);
  return withinBudget(`${asSentence(lead)}\n\n${body}`, budget);
}

/**
 * Whether `text` opens with the words of `summary`, compared as stems ("Gets a repository." opens with "Get
 * a repository"): then the summary in front would say the same thing twice.
 */
export function opensWith(text: string, summary: string): boolean {
  const wanted = stems(summary);
  if (wanted.length === 0) return true;
  const opening = stems(text.slice(0, summary.length * 2 + 16));
  return wanted.every((s, i) => opening[i] === s);
}

/**
 * The search's cached Porter2 stem (the same wink stemmer): summaries and openings repeat the same few
 * thousand words, and stemming each one afresh cost ~65 ms on GitHub's 1,100 operations.
 */
function stems(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map(stemWord);
}

/** A summary is a phrase ("Get a repository"); in front of more text it ends as a sentence, in its own script. */
function asSentence(text: string): string {
  if (/[.!?:\u3002\uff01\uff1f]$/.test(text)) return text;
  return /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u.test(text) ? `${text}\u3002` : `${text}.`;
}

/**
 * Whole sentences from the start while they fit `budget` bytes. When not even the first fits, it is cut at
 * a word and marked (`...`): a description must say something.
 */
export function withinBudget(text: string, budget: number): string {
  if (byteLength(text) <= budget) return text;
  const kept: string[] = [];
  let used = 0;
  sentences ??= new Intl.Segmenter('en', { granularity: 'sentence' });
  for (const { segment } of sentences.segment(text)) {
    if (used + byteLength(segment.trimEnd()) > budget) break;
    kept.push(segment);
    used += byteLength(segment);
  }
  // A last sentence that announces what follows ("… the following permissions:") says nothing once that is cut.
  if (kept.length > 1 && kept.at(-1)!.trimEnd().endsWith(':')) kept.pop();
  return kept.length > 0 ? kept.join('').trimEnd() : cutAtWord(text, budget);
}

/**
 * Sentence breaks as ICU finds them, for every script (`。` too); a line break always ends a sentence. Made on
 * first use: making it took 8 ms, and many specs have no description over the budget.
 */
let sentences: Intl.Segmenter | undefined;

function cutAtWord(text: string, budget: number): string {
  const room = budget - 3;
  let cut = text.slice(0, room);
  while (byteLength(cut) > room) cut = cut.slice(0, -1);
  // Never half a surrogate pair (an emoji, a rare CJK character): it would not survive as UTF-8.
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1);
  const space = cut.search(/\s\S*$/);
  return `${(space > room / 2 ? cut.slice(0, space) : cut).trimEnd()}...`;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
