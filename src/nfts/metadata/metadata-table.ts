import type { Kysely } from 'kysely';
import type { DatabaseSchema, NftMetadataRow } from '../../db/schema.ts';
import { sha256Hex } from '../media/media-table.ts';
import { mediaUrl } from '../media/media-urls.ts';
import { nftKey, type NftMedia, type NftMetadataRecord, type NftRef } from '../nft-sources.ts';
import type { FetchedMetadata } from './fetch-metadata.ts';

// The stored metadata records (nft_metadata), read with their image's outcome (nft_images) and
// media facts (nft_media, never its bytes), as the records the NFT endpoints show.

/** A stored record, with what the store needs besides what an answer shows. */
export interface StoredNftMetadata extends NftMetadataRecord {
  /** Why the image has no media (`timeout`, `too large`, `not an image`, ...); null when it has, or has none, or is not fetched yet. */
  imageError: string | null;
  /** The code of `error` (fetch-error.ts, or `contract`). */
  errorCode: string | null;
  /** When this record was last tried (ms since the epoch). */
  checkedAt: number;
}

const TOKEN_IDS_PER_QUERY = 500;

/** The stored records of `tokens`, by nftKey; media URLs on `siteOrigin`. */
export async function readRecords(db: Kysely<DatabaseSchema>, tokens: readonly Pick<NftRef, 'network' | 'contract' | 'tokenId'>[], siteOrigin: string) {
  const groups = new Map<string, { network: string; contract: string; ids: string[] }>();
  for (const token of tokens) {
    const contract = token.contract.toLowerCase();
    const key = `${token.network}:${contract}`;
    const group = groups.get(key) ?? { network: token.network, contract, ids: [] };
    group.ids.push(token.tokenId);
    groups.set(key, group);
  }
  const records = new Map<string, StoredNftMetadata>();
  for (const group of groups.values()) {
    for (let start = 0; start < group.ids.length; start += TOKEN_IDS_PER_QUERY) {
      const rows = await db
        .selectFrom('nft_metadata as m')
        .leftJoin('nft_images as i', 'i.url_sha256', 'm.image_url_sha256')
        .leftJoin('nft_media as media', 'media.sha256', 'i.media_sha256')
        .selectAll('m')
        .select(['i.media_sha256', 'i.error as image_error', 'media.content_type', 'media.size'])
        .where('m.network', '=', group.network)
        .where('m.contract', '=', group.contract)
        .where('m.token_id', 'in', group.ids.slice(start, start + TOKEN_IDS_PER_QUERY))
        .execute();
      for (const row of rows)
        records.set(nftKey({ network: row.network, contract: row.contract as NftRef['contract'], tokenId: row.token_id }), toRecord(row, siteOrigin));
    }
  }
  return records;
}

type JoinedRow = NftMetadataRow & { media_sha256: string | null; image_error: string | null; content_type: string | null; size: number | null };

function toRecord(row: JoinedRow, siteOrigin: string): StoredNftMetadata {
  return {
    tokenUri: row.token_uri,
    rawTokenUri: row.raw_token_uri,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    error: row.error,
    name: row.name,
    description: row.description,
    image: mediaOf(row, siteOrigin),
    timeLastUpdated: Number(row.time_last_updated),
    imageError: row.media_sha256 === null ? row.image_error : null,
    errorCode: row.error_code,
    checkedAt: Number(row.checked_at),
  };
}

function mediaOf(row: JoinedRow, siteOrigin: string): NftMedia {
  const sha256 = row.content_type === null ? null : row.media_sha256;
  return {
    cachedUrl: sha256 && mediaUrl(siteOrigin, sha256, 'original'),
    thumbnailUrl: sha256 && mediaUrl(siteOrigin, sha256, 'thumbnail'),
    pngUrl: sha256 && mediaUrl(siteOrigin, sha256, 'png'),
    contentType: sha256 && row.content_type,
    size: sha256 ? Number(row.size) : null,
    originalUrl: row.image_url,
  };
}

/** The stored documents of a contract's tokens, by token id; tokens without one are missing. */
export async function readDocuments(db: Kysely<DatabaseSchema>, network: string, contract: string): Promise<Map<string, Record<string, unknown>>> {
  const rows = await db
    .selectFrom('nft_metadata')
    .select(['token_id', 'metadata'])
    .where('network', '=', network)
    .where('contract', '=', contract.toLowerCase())
    .where('metadata', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.token_id, JSON.parse(row.metadata!) as Record<string, unknown>]));
}

/** The row a fetch gives `token`. */
export function metadataRow(token: NftRef, fetched: FetchedMetadata, now: number): NftMetadataRow {
  return {
    network: token.network,
    contract: token.contract.toLowerCase(),
    token_id: token.tokenId,
    kind: token.kind,
    token_uri: fetched.tokenUri,
    raw_token_uri: fetched.rawTokenUri,
    metadata: fetched.metadata === null ? null : JSON.stringify(fetched.metadata),
    error: fetched.error,
    error_code: fetched.errorCode,
    name: fetched.name,
    description: fetched.description,
    image_url: fetched.imageUrl,
    image_url_sha256: fetched.imageUrl === null ? null : sha256Hex(fetched.imageUrl),
    time_last_updated: now,
    checked_at: now,
  };
}

const whereToken = (token: Pick<NftRef, 'network' | 'contract' | 'tokenId'>) =>
  [
    ['network', token.network],
    ['contract', token.contract.toLowerCase()],
    ['token_id', token.tokenId],
  ] as const;

/** Stores a first record; one stored meanwhile (by another process) is kept. */
export async function insertRecord(db: Kysely<DatabaseSchema>, row: NftMetadataRow): Promise<void> {
  await db
    .insertInto('nft_metadata')
    .values(row)
    .onConflict((conflict) => conflict.columns(['network', 'contract', 'token_id']).doNothing())
    .execute();
}

/** Replaces the record checked at `checkedAt`; false when it changed meanwhile (another process refreshed it), and nothing is written. */
export async function replaceRecord(db: Kysely<DatabaseSchema>, row: NftMetadataRow, checkedAt: number): Promise<boolean> {
  let query = db.updateTable('nft_metadata').set(row).where('checked_at', '=', checkedAt);
  for (const [column, value] of whereToken({ network: row.network, contract: row.contract as NftRef['contract'], tokenId: row.token_id })) {
    query = query.where(column, '=', value);
  }
  return (await query.executeTakeFirst()).numUpdatedRows === 1n;
}

/** Marks the record tried at `now` without changing what it holds (a refresh that failed for a while). */
export async function touchRecord(db: Kysely<DatabaseSchema>, token: Pick<NftRef, 'network' | 'contract' | 'tokenId'>, now: number): Promise<void> {
  let query = db.updateTable('nft_metadata').set({ checked_at: now });
  for (const [column, value] of whereToken(token)) query = query.where(column, '=', value);
  await query.execute();
}

/**
 * Drops a network's records (the indexer's onReset: the chain was reset, its tokens are other
 * tokens now). Call it with the index's transaction. Images stay: they are content, shared by URI.
 */
export async function clearNetworkMetadata(db: Kysely<DatabaseSchema>, network: string): Promise<void> {
  await db.deleteFrom('nft_metadata').where('network', '=', network).execute();
}
