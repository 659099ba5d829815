// A byte scan that finds how deeply a JSON text nests before anything parses it. JSON.parse of
// a 2 MiB body of `[[[[…` holds the main thread for about a second, and nothing is charged for
// a body that is not a request yet; a scan is a single pass of a few milliseconds over the
// same bytes, so the server refuses such a body without parsing it (README, "Server limits").

/** The nesting a JSON body may have unless a setting says otherwise (JSON_MAX_DEPTH). */
export const DEFAULT_JSON_MAX_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `text` opens more than `maxDepth` objects or arrays inside one another. Brackets
 * inside strings do not count. The scan does not validate: malformed JSON within the limit
 * is left for JSON.parse to refuse.
 */
export function exceedsJsonDepth(text: string | Uint8Array, maxDepth: number): boolean {
  return jsonDepthScan(maxDepth)(text);
}

/**
 * The same scan over a text that arrives in pieces (a body as it is read, so that reading can
 * stop at the piece that passes the limit): pass each piece in order; true from the piece on
 * which the nesting passed `maxDepth`.
 */
export function jsonDepthScan(maxDepth: number): (piece: string | Uint8Array) => boolean {
  let depth = 0;
  let inString = false;
  // A backslash in a string escapes the next character, which may be in the next piece.
  let escaped = false;
  let exceeded = false;
  return (piece) => {
    if (exceeded) return true;
    const bytes = typeof piece === 'string' ? null : piece;
    const length = bytes ? bytes.length : (piece as string).length;
    for (let i = 0; i < length; i++) {
      const c = bytes ? bytes[i]! : (piece as string).charCodeAt(i);
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
      } else if (c === QUOTE) inString = true;
      else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        if (++depth > maxDepth) return (exceeded = true);
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
    }
    return false;
  };
}
