/**
 * A JavaScript string literal as prettier prints it with `singleQuote: true` (its `printString` for
 * TypeScript): single quotes unless the text holds more single than double quotes; a literal already in the
 * chosen quotes is kept as written; otherwise the enclosing quote is escaped and needless escapes of the
 * other quote are dropped. Any other escape is kept as written.
 */
export function prettierStringLiteral(raw: string): string {
  const content = raw.slice(1, -1);
  const quote = preferredQuote(content);
  if (raw.startsWith(quote)) return raw;
  const other = quote === "'" ? '"' : "'";
  const body = content.replace(/\\(["'\\])|(["'])/g, (match, escaped: string | undefined, bare: string | undefined) => {
    if (escaped) return escaped === other ? other : match;
    return bare === quote ? `\\${bare}` : bare!;
  });
  return `${quote}${body}${quote}`;
}

function preferredQuote(content: string): "'" | '"' {
  let singles = 0;
  let doubles = 0;
  for (let i = 0; i < content.length; i++) {
    const code = content.charCodeAt(i);
    if (code === 39) singles++;
    else if (code === 34) doubles++;
  }
  return singles > doubles ? '"' : "'";
}
