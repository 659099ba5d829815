import { sql, type Kysely } from 'kysely';
import type { Address, Hex } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import { ZERO_ADDRESS, type NftKind } from '../../transfers/transfer.ts';
import type { SampleToken } from './contract-reads.ts';

// What the transfer index knows of a contract (docs/nft-data.md#contract-facts), for its token type when ERC-165 says
// nothing and for the spam rules: the kinds of NFT event it emitted, how many, its largest mint to
// newcomers, and one token someone holds. The same queries on both engines.

export interface MassMint {
  transactionHash: Hex;
  /** Distinct recipients the transaction minted to whose first transfer with the contract this was. */
  recipients: number;
}

export interface IndexEvidence {
  /** NFT transfers indexed for the contract (ERC-721, ERC-1155 ids, legacy); 0: none yet. */
  nftTransfers: number;
  /** The NFT event kinds it emitted, most used first. */
  kinds: NftKind[];
  /** The transaction that minted to the most addresses new to the contract; null when it minted nothing. */
  largestFreshMint: MassMint | null;
  /** One token with an owner, whose URI is read. */
  sample: SampleToken | null;
}

export async function readIndexEvidence(db: Kysely<DatabaseSchema>, network: string, contract: Address): Promise<IndexEvidence> {
  const address = contract.toLowerCase();
  const [kinds, largestFreshMint, sample] = await Promise.all([
    db
      .selectFrom('indexer_transfers')
      .select(['kind', sql<number | string>`count(*)`.as('transfers')])
      .where('network', '=', network)
      .where('contract', '=', address)
      .where('token_id', 'is not', null)
      .groupBy('kind')
      .execute(),
    largestMintToNewcomers(db, network, address),
    db
      .selectFrom('indexer_nft_balances')
      .select(['token_id', 'kind'])
      .where('network', '=', network)
      .where('contract', '=', address)
      .where('balance', 'not like', '-%')
      .orderBy('token_id')
      .limit(1)
      .executeTakeFirst(),
  ]);
  const counted = kinds
    .map((row) => ({ kind: row.kind as NftKind, transfers: Number(row.transfers) }))
    .sort((a, b) => b.transfers - a.transfers || a.kind.localeCompare(b.kind));
  return {
    nftTransfers: counted.reduce((sum, row) => sum + row.transfers, 0),
    kinds: counted.map((row) => row.kind),
    largestFreshMint,
    sample: sample ? { tokenId: sample.token_id, kind: sample.kind } : null,
  };
}

/**
 * Each address's first NFT transfer with the contract, as sender or recipient (window functions,
 * which SQLite and PostgreSQL share); the mints among them counted per transaction, the largest kept.
 */
async function largestMintToNewcomers(db: Kysely<DatabaseSchema>, network: string, contract: string): Promise<MassMint | null> {
  const { rows } = await sql<{ transaction_hash: string; recipients: number | string }>`
    with parties as (
      select to_address as party, block_number, log_index, batch_index, transaction_hash,
        case when from_address = ${ZERO_ADDRESS} then 1 else 0 end as minted
      from indexer_transfers
      where network = ${network} and contract = ${contract} and token_id is not null
      union all
      select from_address, block_number, log_index, batch_index, transaction_hash, 0
      from indexer_transfers
      where network = ${network} and contract = ${contract} and token_id is not null and from_address <> ${ZERO_ADDRESS}
    ),
    firsts as (
      select transaction_hash, minted,
        row_number() over (partition by party order by block_number, log_index, batch_index) as position
      from parties
    )
    select transaction_hash, count(*) as recipients
    from firsts
    where position = 1 and minted = 1
    group by transaction_hash
    order by recipients desc, transaction_hash
    limit 1
  `.execute(db);
  const [row] = rows;
  return row ? { transactionHash: row.transaction_hash as Hex, recipients: Number(row.recipients) } : null;
}
