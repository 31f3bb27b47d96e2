/** The o200k_base token count of a text (the tokenizer is loaded on first use: it is a large module). */
export async function countListTokens(text: string): Promise<number> {
  const { countTokens } = await import('gpt-tokenizer/encoding/o200k_base');
  // Specs can contain text that looks like a special token (Box's does): count it as plain text.
  return countTokens(text, { disallowedSpecial: new Set() });
}
