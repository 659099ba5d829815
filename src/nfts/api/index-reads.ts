import type { Kysely } from 'kysely';
import { getAddress, type Address, type Hex } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import { ZERO_ADDRESS, type NftKind } from '../../transfers/transfer.ts';

// What the NFT answers read from the transfer index besides an owner's page (docs/nft-data.md#nft-object `mint`,
// `acquiredAt`): a token's mint is its first transfer from the zero address; an owner acquired a token
// at the last transfer that gave it to them.

/** A transfer's place on the chain: its block, the block's time (seconds; null when unknown) and its transaction. */
export interface TransferPoint {
  blockNumber: number;
  blockTimestamp: number | null;
  transactionHash: Hex;
}

export interface MintPoint extends TransferPoint {
  /** Whom the token was minted to. */
  to: Address;
}

interface TokenAt {
  contract: Address;
  tokenId: string;
}

const tokenKey = (contract: string, tokenId: string) => `${contract.toLowerCase()}:${tokenId}`;

function transfersOf(db: Kysely<DatabaseSchema>, network: string, tokens: readonly TokenAt[]) {
  const contracts = [...new Set(tokens.map((token) => token.contract.toLowerCase()))];
  const ids = [...new Set(tokens.map((token) => token.tokenId))];
  return db
    .selectFrom('indexer_transfers')
    .select(['contract', 'token_id', 'to_address', 'block_number', 'block_timestamp', 'transaction_hash'])
    .where('network', '=', network)
    .where('contract', 'in', contracts.length ? contracts : [''])
    .where('token_id', 'in', ids.length ? ids : ['']);
}

/** Each token's first mint, by `contract:tokenId` (lowercase contract); tokens never minted in the index are missing. */
export async function mintsOf(db: Kysely<DatabaseSchema>, network: string, tokens: readonly TokenAt[]): Promise<Map<string, MintPoint>> {
  if (tokens.length === 0) return new Map();
  const wanted = new Set(tokens.map((token) => tokenKey(token.contract, token.tokenId)));
  const rows = await transfersOf(db, network, tokens)
    .where('from_address', '=', ZERO_ADDRESS)
    .orderBy('block_number', 'desc')
    .orderBy('log_index', 'desc')
    .orderBy('batch_index', 'desc')
    .execute();
  const mints = new Map<string, MintPoint>();
  // Newest first, so the earliest mint of each token is written last.
  for (const row of rows) {
    const key = tokenKey(row.contract, row.token_id!);
    if (!wanted.has(key)) continue;
    mints.set(key, { to: getAddress(row.to_address), ...pointOf(row) });
  }
  return mints;
}

/** When `owner` last received each token, by `contract:tokenId`. */
export async function acquisitionsOf(
  db: Kysely<DatabaseSchema>,
  network: string,
  owner: Address,
  tokens: readonly TokenAt[],
): Promise<Map<string, TransferPoint & { minted: boolean }>> {
  if (tokens.length === 0) return new Map();
  const wanted = new Set(tokens.map((token) => tokenKey(token.contract, token.tokenId)));
  const rows = await transfersOf(db, network, tokens)
    .select('from_address')
    .where('to_address', '=', owner.toLowerCase())
    .orderBy('block_number', 'asc')
    .orderBy('log_index', 'asc')
    .orderBy('batch_index', 'asc')
    .execute();
  const acquired = new Map<string, TransferPoint & { minted: boolean }>();
  for (const row of rows) {
    const key = tokenKey(row.contract, row.token_id!);
    if (wanted.has(key)) acquired.set(key, { ...pointOf(row), minted: row.from_address === ZERO_ADDRESS });
  }
  return acquired;
}

function pointOf(row: { block_number: number | string; block_timestamp: number | string | null; transaction_hash: string }): TransferPoint {
  return {
    blockNumber: Number(row.block_number),
    blockTimestamp: row.block_timestamp === null ? null : Number(row.block_timestamp),
    transactionHash: row.transaction_hash as Hex,
  };
}

/** The kind of NFT the index saw `tokenId` of `contract` move as, or null when it saw none. */
export async function indexedTokenKind(db: Kysely<DatabaseSchema>, network: string, contract: Address, tokenId: string): Promise<NftKind | null> {
  const row = await db
    .selectFrom('indexer_transfers')
    .select('kind')
    .where('network', '=', network)
    .where('contract', '=', contract.toLowerCase())
    .where('token_id', '=', tokenId)
    .limit(1)
    .executeTakeFirst();
  return row && row.kind !== 'erc20' ? row.kind : null;
}

/** The kind of NFT the index saw `contract` move, or null when it saw no NFT of it. */
export async function indexedContractKind(db: Kysely<DatabaseSchema>, network: string, contract: Address): Promise<NftKind | null> {
  const row = await db
    .selectFrom('indexer_nft_balances')
    .select('kind')
    .where('network', '=', network)
    .where('contract', '=', contract.toLowerCase())
    .limit(1)
    .executeTakeFirst();
  return row?.kind ?? null;
}

/**
 * The contracts of which `owner` holds NFTs, each with whether the owner got every one of them by a
 * mint to them (no transfer from another holder): what the AIRDROPS filter reads.
 */
export async function ownerContracts(db: Kysely<DatabaseSchema>, network: string, owner: Address): Promise<Map<string, { onlyMinted: boolean }>> {
  const held = await db
    .selectFrom('indexer_nft_balances')
    .select(['contract', 'token_id'])
    .where('network', '=', network)
    .where('owner', '=', owner.toLowerCase())
    .where('balance', 'not like', '-%')
    .execute();
  const tokens = held.map((row) => ({ contract: getAddress(row.contract), tokenId: row.token_id }));
  const acquired = await acquisitionsOf(db, network, owner, tokens);
  const contracts = new Map<string, { onlyMinted: boolean }>();
  for (const token of tokens) {
    const contract = token.contract.toLowerCase();
    const minted = acquired.get(tokenKey(contract, token.tokenId))?.minted ?? false;
    contracts.set(contract, { onlyMinted: (contracts.get(contract)?.onlyMinted ?? true) && minted });
  }
  return contracts;
}
