import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { parseMediaPath, mediaUrl } from '../../../../src/nfts/media/media-urls.ts';
import { PNG_SIDE, renderImage, THUMBNAIL_SIDE, type RenderedImage } from '../../../../src/nfts/media/render.ts';

const rendered = async (bytes: Uint8Array): Promise<RenderedImage> => {
  const result = await renderImage(bytes);
  if (!result.ok) throw new Error(result.error.reason);
  return result;
};
const size = async (bytes: Uint8Array) => {
  const { format, width, height } = await sharp(bytes).metadata();
  return { format, width, height };
};
const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#335577' } });

describe('renderImage', () => {
  it('measures the type from the bytes: PNG, JPEG, GIF, WebP, SVG', async () => {
    expect((await rendered(await solid(10, 10).png().toBuffer())).contentType).toBe('image/png');
    expect((await rendered(await solid(10, 10).jpeg().toBuffer())).contentType).toBe('image/jpeg');
    expect((await rendered(await solid(10, 10).gif().toBuffer())).contentType).toBe('image/gif');
    expect((await rendered(await solid(10, 10).webp().toBuffer())).contentType).toBe('image/webp');
    expect((await rendered(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>'))).contentType).toBe('image/svg+xml');
  });

  it('a thumbnail within 256 px and a PNG within 1024 px, in proportion; never enlarged', async () => {
    const large = await rendered(await solid(2048, 512).jpeg().toBuffer());
    expect(await size(large.thumbnail.bytes)).toEqual({ format: 'webp', width: THUMBNAIL_SIDE, height: 64 });
    expect(large.thumbnail.contentType).toBe('image/webp');
    expect(await size(large.png)).toEqual({ format: 'png', width: PNG_SIDE, height: 256 });
    expect([large.width, large.height]).toEqual([2048, 512]);
    const small = await rendered(await solid(30, 20).png().toBuffer());
    expect(await size(small.thumbnail.bytes)).toMatchObject({ width: 30, height: 20 });
  });

  it('draws a small SVG at the size it is shown at: no 8-px PNG of an 8-px icon', async () => {
    const icon = await rendered(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 8 4" width="8" height="4"><rect width="8" height="4"/></svg>'),
    );
    expect(await size(icon.thumbnail.bytes)).toMatchObject({ width: 256, height: 128 });
    expect(await size(icon.png)).toMatchObject({ format: 'png', width: 1024, height: 512 });
  });

  it('refuses what is no image, naming why', async () => {
    expect(await renderImage(Buffer.from('{"name":"not an image"}'))).toEqual({ ok: false, error: { code: 'not_image', reason: 'not an image' } });
    expect(await renderImage(new Uint8Array(0))).toMatchObject({ ok: false, error: { code: 'not_image' } });
  });

  it('refuses an image that declares more pixels than it may, without decoding it', async () => {
    // A 1-px PNG whose header says 10,000 x 5,000: a decompression bomb's shape, 70 bytes.
    const png = Buffer.from(await solid(1, 1).png().toBuffer());
    png.writeUInt32BE(10_000, 16);
    png.writeUInt32BE(5_000, 20);
    png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
    expect(await renderImage(png)).toEqual({ ok: false, error: { code: 'not_image', reason: 'more than 40000000 pixels' } });
  });
});

describe('media URLs', () => {
  const hash = 'ab'.repeat(32);
  it('are absolute on the site origin, one per rendering, and parse back', () => {
    expect(mediaUrl('https://crucible.example', hash, 'original')).toBe(`https://crucible.example/nft-media/${hash}`);
    expect(mediaUrl('https://crucible.example/', hash, 'thumbnail')).toBe(`https://crucible.example/nft-media/${hash}/thumbnail`);
    expect(parseMediaPath(`/nft-media/${hash}/png`)).toEqual({ sha256: hash, variant: 'png' });
    expect(parseMediaPath(`/nft-media/${hash}`)).toEqual({ sha256: hash, variant: 'original' });
  });

  it('name nothing else', () => {
    for (const path of [`/nft-media/${hash}/`, `/nft-media/${hash.toUpperCase()}`, `/nft-media/${hash}/original`, '/nft-media/abc', `/nft-media/${hash}0`]) {
      expect(parseMediaPath(path)).toBeNull();
    }
  });
});
