import { jsonDepthScan } from './json-depth.ts';

// A JSON request body read within a size cap, and refused unparsed when it nests too deep (README,
// "Server limits"): the site API's router and the keyed REST door read bodies this way, after the
// client has paid for them.

export type JsonBodyRead =
  | { ok: true; value: unknown }
  /** `too_deep`: nested past `maxDepth`, refused before it was parsed. */
  | { ok: false; reason: 'unparseable' | 'too_large' | 'too_deep' | 'unsupported_media_type'; maxDepth?: number };

/** Whether a Content-Type names JSON (`application/json`, `application/<x>+json`, with parameters). */
export function isJsonContentType(type: string | null): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type ?? '');
}

/** Reads a JSON body of at most `maxBytes` bytes without buffering more than that, and parses it unless it nests deeper than `maxDepth`. */
export async function readJsonBody(
  request: { headers: Headers; body: ReadableStream<Uint8Array> | null },
  maxBytes: number,
  maxDepth: number,
): Promise<JsonBodyRead> {
  if (!isJsonContentType(request.headers.get('content-type'))) return { ok: false, reason: 'unsupported_media_type' };
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return { ok: false, reason: 'too_large' };
  if (!request.body) return { ok: false, reason: 'unparseable' };
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Refused before JSON.parse, as it arrives: a body of deeply nested arrays holds the main thread
  // for up to a second. The rest of it is not read (the answer closes the connection).
  const deep = jsonDepthScan(maxDepth);
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { ok: false, reason: 'too_large' };
    }
    if (deep(value)) {
      reader.releaseLock();
      return { ok: false, reason: 'too_deep', maxDepth };
    }
    chunks.push(value);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, reason: 'unparseable' };
  }
}
