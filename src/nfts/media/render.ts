import sharp, { type Metadata, type Sharp } from 'sharp';
import type { NftFetchErrorCode } from '../fetch-error.ts';

// An NFT image measured and rendered (docs/nft-data.md#media): its type read from the bytes by libvips (never
// from the origin's Content-Type), a thumbnail at most THUMBNAIL_SIDE px on its longer side and a
// PNG at most PNG_SIDE px. SVG is rasterised by librsvg, scripts never run; an animated image's
// renderings are its first frame.

/** docs/nft-data.md#media `thumbnailUrl`: at most this many pixels on the longer side. */
export const THUMBNAIL_SIDE = 256;
/** The PNG rendering's longer side at most: a bound on what one image costs to store and serve. */
export const PNG_SIDE = 1024;
/** Pixels an image may declare before it is refused undecoded (a decompression bomb is a few KiB). */
const MAX_INPUT_PIXELS = 40_000_000;
/** sharp's highest density for vector input. */
const MAX_DENSITY = 100_000;

/** Why an image has no media: the fetch's code, or `not_image` when the bytes are no image served. */
type MediaErrorCode = NftFetchErrorCode | 'not_image';

export interface MediaFailure {
  ok: false;
  error: { code: MediaErrorCode; reason: string };
}

const notImage = (reason: string): MediaFailure => ({ ok: false, error: { code: 'not_image', reason } });

export interface RenderedImage {
  ok: true;
  /** Measured from the bytes. */
  contentType: string;
  width: number | null;
  height: number | null;
  thumbnail: { contentType: string; bytes: Uint8Array };
  png: Uint8Array;
}

/** libvips' loader name, as a MIME type; formats missing here are not served as images. */
const CONTENT_TYPES: Record<string, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heif: 'image/heif',
  jp2: 'image/jp2',
  jxl: 'image/jxl',
};

function contentTypeOf(metadata: Pick<Metadata, 'format' | 'compression'>): string | null {
  if (metadata.format === 'heif' && metadata.compression === 'av1') return CONTENT_TYPES.avif!;
  return (metadata.format && CONTENT_TYPES[metadata.format]) ?? null;
}

export async function renderImage(bytes: Uint8Array): Promise<RenderedImage | MediaFailure> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (error) {
    return notImage(/pixel limit/i.test(String(error)) ? `more than ${MAX_INPUT_PIXELS} pixels` : 'not an image');
  }
  const contentType = contentTypeOf(metadata);
  if (!contentType) return notImage(`not an image format served (${metadata.format})`);
  const { width = null, height = null } = metadata;
  try {
    const [thumbnail, png] = await Promise.all([scaled(input, metadata, THUMBNAIL_SIDE).webp().toBuffer(), scaled(input, metadata, PNG_SIDE).png().toBuffer()]);
    return { ok: true, contentType, width, height, thumbnail: { contentType: 'image/webp', bytes: new Uint8Array(thumbnail) }, png: new Uint8Array(png) };
  } catch (error) {
    return notImage(`image could not be rendered: ${error instanceof Error ? error.message.split('\n', 1)[0] : String(error)}`);
  }
}

/** The image within `side` px on its longer side, upright; a vector image drawn at the density that fills it. */
function scaled(input: Buffer, metadata: Metadata, side: number): Sharp {
  const longer = Math.max(metadata.width ?? 0, metadata.height ?? 0);
  // librsvg draws at 72 dpi by default: a 24-px icon would become a 24-px PNG.
  const density = metadata.format === 'svg' && longer > 0 ? Math.min(MAX_DENSITY, Math.max(1, (72 * side) / longer)) : undefined;
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, ...(density && { density }) })
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true });
}
