/**
 * tools/list answers over stdio, written from bytes the generator serialized: tools-list.json holds every
 * tool as tools/list shows it in mode all, one per line, in catalog order. A page is those lines copied
 * side by side, so a large API's first tools/list neither parses its tools, nor builds their listings, nor
 * stringifies and encodes the answer: for GitHub's first page that is most of a cold start's extra time.
 *
 * The SDK serializes every message itself (JSON.stringify), so the page travels through it as a placeholder:
 * an empty tools array registered here with its bytes. The stdio transport (stdio.ts) writes the message with
 * the bytes in the placeholder's place. An empty array is a valid tools list to the SDK's encoders, and the
 * generator writes only object-rooted output schemas, so the 2025-11-25 encoder has nothing to wrap.
 */

export interface SerializedListing {
  /** Tool `index`'s tools/list entry; undefined when the file's line is not that tool's (a stale file). */
  at(index: number, name: string): Buffer | undefined;
}

const OPEN = Buffer.from('{"tools":[\n');
const NEWLINE = 0x0a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

/** The listing in tools-list.json's bytes; undefined when they are not in the generator's layout. */
export function serializedListing(bytes: Buffer): SerializedListing | undefined {
  if (!bytes.subarray(0, OPEN.length).equals(OPEN)) return undefined;
  const starts: number[] = [];
  const ends: number[] = [];
  let next = OPEN.length;
  const range = (index: number): [number, number] | undefined => {
    while (starts.length <= index && next < bytes.length) {
      const newline = bytes.indexOf(NEWLINE, next);
      const end = newline < 0 ? bytes.length : newline;
      // Lines end with the comma between entries, except the last; the closing `]}` has a line of its own.
      if (bytes[next] !== OPEN_BRACE) break;
      starts.push(next);
      ends.push(bytes[end - 1] === COMMA ? end - 1 : end);
      next = end + 1;
    }
    return index < starts.length ? [starts[index]!, ends[index]!] : undefined;
  };
  return {
    at(index, name) {
      const found = range(index);
      if (!found) return undefined;
      const [start, end] = found;
      const head = `{"name":${JSON.stringify(name)},`;
      // Generated names are ASCII, so the line's first bytes read as latin1 are its first characters. A line
      // that does not end its object (a file cut short or rewritten) is not sent.
      if (bytes[end - 1] !== CLOSE_BRACE || bytes.toString('latin1', start, Math.min(start + head.length, end)) !== head) return undefined;
      return bytes.subarray(start, end);
    },
  };
}

/** The text of tools-list.json for these tools/list entries, each already stringified (the generator writes it). */
export function serializedListingText(entries: readonly string[]): string {
  return `{"tools":[\n${entries.join(',\n')}\n]}\n`;
}

const serializedPages = new WeakMap<object, Buffer>();
/** Stands in for the entries while the message is stringified. NUL characters, which JSON escapes, keep the rest
 * of the message (server info, cursors) from ever serializing to the same text. */
const MARKER = '\u0000serialized tools\u0000';
const QUOTED_MARKER = JSON.stringify(MARKER);

/** A placeholder tools array standing for these entries (already joined by commas) until the message is written. */
export function serializedTools(entries: Buffer): never[] {
  const placeholder: never[] = [];
  serializedPages.set(placeholder, entries);
  return placeholder;
}

/**
 * A JSON-RPC message whose result's tools are a placeholder (serializedTools), as the parts of its bytes: the
 * message's text up to the tools, the entries, the rest, newline-terminated as stdio frames messages. The
 * entries are not copied again. Undefined for any other message.
 */
export function spliceSerializedTools(message: unknown): Buffer[] | undefined {
  const result = (message as { result?: { tools?: unknown } } | undefined)?.result;
  const tools = result?.tools;
  const entries = typeof tools === 'object' && tools !== null ? serializedPages.get(tools) : undefined;
  if (!entries) return undefined;
  const text = JSON.stringify({ ...(message as object), result: { ...result, tools: MARKER } });
  const at = text.indexOf(QUOTED_MARKER);
  return [Buffer.from(`${text.slice(0, at)}[`), entries, Buffer.from(`]${text.slice(at + QUOTED_MARKER.length)}\n`)];
}
