import { nftFetchFailure, type NftFetchFailure } from './fetch-error.ts';

// data: URIs (RFC 2397) decoded without a request: `data:[<media type>][;base64],<data>`. Token
// URIs built on-chain are often not valid URLs (raw JSON with spaces, `#` or a stray `%`), so
// the data is taken as given: percent-decoded where `%` starts two hex digits, else byte for
// byte, with no fragment cut off.

export interface InlineResource {
  ok: true;
  /** The declared media type, its type and subtype lowercased; text/plain;charset=US-ASCII when none is given. */
  contentType: string;
  bytes: Uint8Array;
}

const BASE64 = /^[A-Za-z0-9+/]*$/;

export function decodeDataUri(uri: string): InlineResource | NftFetchFailure {
  if (!/^data:/i.test(uri)) return nftFetchFailure('bad_uri', 'not a data: URI');
  const comma = uri.indexOf(',');
  if (comma === -1) return nftFetchFailure('bad_uri', 'data: URI without a comma');
  let header = uri.slice('data:'.length, comma).trim();
  const base64 = /;\s*base64$/i.test(header);
  if (base64) header = header.slice(0, header.lastIndexOf(';')).trim();
  const data = percentDecode(uri.slice(comma + 1));
  const bytes = base64 ? decodeBase64(data) : data;
  if (!bytes) return nftFetchFailure('bad_uri', 'data: URI not valid base64');
  return { ok: true, contentType: mediaType(header), bytes };
}

function mediaType(header: string): string {
  if (header === '') return 'text/plain;charset=US-ASCII';
  const [essence = '', ...parameters] = header.split(';');
  return [essence.trim().toLowerCase() || 'text/plain', ...parameters.map((parameter) => parameter.trim())].join(';');
}

const isHexDigit = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66));

/** The URL standard's percent-decode over the text's UTF-8 bytes. */
function percentDecode(text: string): Uint8Array {
  const input = new TextEncoder().encode(text);
  if (!text.includes('%')) return input;
  const output = new Uint8Array(input.length);
  let length = 0;
  for (let i = 0; i < input.length; i++) {
    if (input[i] === 0x25 && isHexDigit(input[i + 1]) && isHexDigit(input[i + 2])) {
      output[length++] = Number.parseInt(String.fromCharCode(input[i + 1]!, input[i + 2]!), 16);
      i += 2;
    } else output[length++] = input[i]!;
  }
  return output.subarray(0, length);
}

/** The URL standard's forgiving-base64 decode: ASCII white space ignored, padding optional; null when not base64. */
function decodeBase64(data: Uint8Array): Uint8Array | null {
  let text = Buffer.from(data)
    .toString('latin1')
    .replace(/[\t\n\f\r ]/g, '');
  if (text.length % 4 === 0) text = text.replace(/={1,2}$/, '');
  if (text.length % 4 === 1 || !BASE64.test(text)) return null;
  return new Uint8Array(Buffer.from(text, 'base64'));
}
