import { nftFetchFailure, type NftFetchFailure } from './fetch-error.ts';

// A token's metadata document (ERC-721/ERC-1155 metadata JSON, with OpenSea's common fields): kept
// as given for `raw.metadata`, and the fields an answer shows picked from it. URIs in it may be
// relative to the document (the local world's `"image": "1.svg"`): they are resolved against the
// document's base URI (load-uri.ts); absolute ones are kept exactly as written.

export interface MetadataDocument {
  ok: true;
  /** The document as given (`raw.metadata`): a JSON object read within the metadata size cap, nested at most MAX_DEPTH deep. */
  raw: Record<string, unknown>;
  name: string | null;
  description: string | null;
  /** `image`, else `image_url`, else `image_data` (inline SVG, made a data: URI); absolute; null when none can be had. */
  image: string | null;
  /** `animation_url`, absolute; null when none. */
  animationUrl: string | null;
  /** The objects of `attributes` when it is a list; null otherwise. */
  attributes: Record<string, unknown>[] | null;
}

/** Deeper documents are refused: nothing in metadata needs it, and a deep one is costly to store and serve. */
export const MAX_DEPTH = 32;

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

export function parseMetadataDocument(bytes: Uint8Array, baseUri: string): MetadataDocument | NftFetchFailure {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return nftFetchFailure('not_json', 'not JSON');
  }
  if (!isObject(value)) return nftFetchFailure('not_json', 'not a JSON object');
  if (depthOver(value, MAX_DEPTH)) return nftFetchFailure('not_json', `JSON nested deeper than ${MAX_DEPTH}`);
  const uri = (field: string) => resolveReference(value[field], baseUri);
  return {
    ok: true,
    raw: value,
    name: text(value.name),
    description: text(value.description),
    image: uri('image') ?? uri('image_url') ?? imageDataUri(value.image_data),
    animationUrl: uri('animation_url'),
    attributes: Array.isArray(value.attributes) ? value.attributes.filter(isObject) : null,
  };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string with something in it, else null. */
const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** An absolute URI as written; a relative one against the base (null where the base has no hierarchy, as data: has not). */
function resolveReference(value: unknown, baseUri: string): string | null {
  const reference = text(value)?.trim();
  if (reference === undefined) return null;
  if (SCHEME.test(reference)) return reference;
  return URL.canParse(reference, baseUri) ? new URL(reference, baseUri).href : null;
}

/** `image_data`: SVG markup, made a data: URI of its bytes (an absolute URI there is taken as it is). */
function imageDataUri(value: unknown): string | null {
  const data = text(value)?.trim();
  if (data === undefined) return null;
  if (SCHEME.test(data)) return data;
  return /<svg[\s>]/i.test(data) ? `data:image/svg+xml;base64,${Buffer.from(data, 'utf8').toString('base64')}` : null;
}

/** Whether any value inside is nested deeper than `limit` (iterative: a deep document must not exhaust the stack). */
function depthOver(root: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > limit) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}
