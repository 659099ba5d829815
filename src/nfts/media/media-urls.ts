// Where Crucible serves a stored image (docs/nft-data.md#media): on the site's origin, by the SHA-256 of the
// original bytes, so a URL never changes meaning and is cached for good.

export const MEDIA_PATH_PREFIX = '/nft-media/';

export type MediaVariant = 'original' | 'thumbnail' | 'png';

/** The absolute URL of one rendering of the image `sha256` on `siteOrigin`. */
export function mediaUrl(siteOrigin: string, sha256: string, variant: MediaVariant): string {
  const path = `${MEDIA_PATH_PREFIX}${sha256}${variant === 'original' ? '' : `/${variant}`}`;
  return new URL(path, siteOrigin).href;
}

/** The image and rendering a request path names; null for any other path (a bad hash included). */
export function parseMediaPath(path: string): { sha256: string; variant: MediaVariant } | null {
  const match = /^\/nft-media\/([0-9a-f]{64})(?:\/(thumbnail|png))?$/.exec(path);
  if (!match) return null;
  return { sha256: match[1]!, variant: (match[2] as MediaVariant | undefined) ?? 'original' };
}
