/** The o200k_base token count of a text, with gpt-tokenizer's o200k_base encoding (loaded on first use). */
let encoding: Promise<typeof import('gpt-tokenizer/encoding/o200k_base')> | undefined;

export async function countListTokens(text: string): Promise<number> {
  encoding ??= import('gpt-tokenizer/encoding/o200k_base');
  // Specs can contain text that looks like a special token (Box's does): count it as plain text.
  return (await encoding).countTokens(text, { disallowedSpecial: new Set() });
}
