import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DatabaseSchema, NftImageRow } from '../../db/schema.ts';
import type { MediaVariant } from './media-urls.ts';
import type { MediaFailure, RenderedImage } from './render.ts';

// The images in the database (blob on SQLite, bytea on PostgreSQL): every server process serves
// what any worker stored. nft_media is content-addressed by the SHA-256 of the original bytes, so
// tokens with the same image share one row; nft_images records what each image URI gave.

export const sha256Hex = (data: Uint8Array | string): string => createHash('sha256').update(data).digest('hex');

/** An image URI's stored outcome; null when it was never fetched. */
export async function readImageOutcome(db: Kysely<DatabaseSchema>, url: string): Promise<NftImageRow | null> {
  return (await db.selectFrom('nft_images').selectAll().where('url_sha256', '=', sha256Hex(url)).executeTakeFirst()) ?? null;
}

/** Stores what fetching `url` gave: the image and its renderings (once per content), or the failure. Returns the outcome stored. */
export async function storeImageOutcome(
  db: Kysely<DatabaseSchema>,
  url: string,
  outcome: { original: Uint8Array; rendered: RenderedImage } | MediaFailure,
  now: number,
): Promise<NftImageRow> {
  const row: NftImageRow = { url_sha256: sha256Hex(url), media_sha256: null, error: null, error_code: null, fetched_at: now };
  if ('rendered' in outcome) row.media_sha256 = sha256Hex(outcome.original);
  else Object.assign(row, { error: outcome.error.reason, error_code: outcome.error.code });
  await db.transaction().execute(async (trx) => {
    if ('rendered' in outcome) {
      const { original, rendered } = outcome;
      await trx
        .insertInto('nft_media')
        .values({
          sha256: row.media_sha256!,
          content_type: rendered.contentType,
          size: original.byteLength,
          width: rendered.width,
          height: rendered.height,
          original: Buffer.from(original),
          thumbnail_type: rendered.thumbnail.contentType,
          thumbnail: Buffer.from(rendered.thumbnail.bytes),
          png: Buffer.from(rendered.png),
          created_at: now,
        })
        .onConflict((conflict) => conflict.column('sha256').doNothing())
        .execute();
    }
    await trx
      .insertInto('nft_images')
      .values(row)
      .onConflict((conflict) =>
        conflict.column('url_sha256').doUpdateSet({ media_sha256: row.media_sha256, error: row.error, error_code: row.error_code, fetched_at: now }),
      )
      .execute();
  });
  return row;
}

export interface MediaBody {
  contentType: string;
  bytes: Uint8Array;
}

/** One rendering of a stored image; null when no image has that hash. */
export async function readMediaBody(db: Kysely<DatabaseSchema>, sha256: string, variant: MediaVariant): Promise<MediaBody | null> {
  const query = db.selectFrom('nft_media').where('sha256', '=', sha256);
  switch (variant) {
    case 'original': {
      const row = await query.select(['content_type', 'original']).executeTakeFirst();
      return row ? { contentType: row.content_type, bytes: row.original } : null;
    }
    case 'thumbnail': {
      const row = await query.select(['thumbnail_type', 'thumbnail']).executeTakeFirst();
      return row ? { contentType: row.thumbnail_type, bytes: row.thumbnail } : null;
    }
    case 'png': {
      const row = await query.select(['png']).executeTakeFirst();
      return row ? { contentType: 'image/png', bytes: row.png } : null;
    }
  }
}
