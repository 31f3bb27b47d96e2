/** How an error reads in a diagnostic: its message, and the first line of a long one. */

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? text;
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
