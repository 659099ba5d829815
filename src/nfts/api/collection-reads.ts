import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Address } from 'viem';
import type { DatabaseSchema } from '../../db/schema.ts';
import { ZERO_ADDRESS, type NftKind } from '../../transfers/transfer.ts';

// What the NFT lists read from the transfer index (docs/nft-data.md): a contract's tokens, a
// contract's and a token's owners, an owner's contracts, and the NFT contracts of a network. Held
// tokens only (a balance above 0 at the indexed block): a burned token is no longer listed. Token ids
// sort as numbers (shorter first, then by digits), read in that order from the balances' index by
// contract and token id; pages are keyset pages that seek the index where the last one ended.

const tokenLength = sql<number>`length(token_id)`;
/** Owners whose balances one query reads (bound parameters stay far below both engines' limits). */
const OWNERS_PER_QUERY = 500;

function heldBalances(db: Kysely<DatabaseSchema>, network: string, contract: Address) {
  return (
    db
      .selectFrom('indexer_nft_balances')
      .where('network', '=', network)
      .where('contract', '=', contract.toLowerCase())
      // Negative balances come only from contracts whose logs contradict each other: never listed.
      .where('balance', 'not like', '-%')
  );
}

/**
 * Token ids from `start` (decimal) on, as numbers compare: after it, or from it when `inclusive`.
 * The first term seeks the index by contract and token id (both engines read it as a range).
 */
function fromToken(start: string, inclusive: boolean) {
  return sql<SqlBool>`(${tokenLength} >= ${start.length} and (${tokenLength} > ${start.length} or token_id ${sql.raw(inclusive ? '>=' : '>')} ${start}))`;
}

/** A page of a contract's held tokens by token id, with one more to tell whether another page follows. */
export async function contractTokens(
  db: Kysely<DatabaseSchema>,
  network: string,
  contract: Address,
  page: { from?: { tokenId: string; inclusive: boolean }; limit: number },
): Promise<Array<{ tokenId: string; kind: NftKind }>> {
  let query = heldBalances(db, network, contract).select(['token_id', sql<NftKind>`min(kind)`.as('kind')]);
  if (page.from) query = query.where(fromToken(page.from.tokenId, page.from.inclusive));
  // Grouped in the index's order (by contract, then token id as a number), so no sort is needed.
  const rows = await query
    .groupBy([tokenLength, 'token_id'])
    .orderBy(tokenLength)
    .orderBy('token_id')
    .limit(page.limit + 1)
    .execute();
  return rows.map((row) => ({ tokenId: row.token_id, kind: row.kind }));
}

/** A page of a token's owners by address (lowercase), with one more. */
export async function tokenOwners(
  db: Kysely<DatabaseSchema>,
  network: string,
  contract: Address,
  tokenId: string,
  page: { after?: string; limit: number },
): Promise<string[]> {
  let query = heldBalances(db, network, contract).select('owner').where('token_id', '=', tokenId);
  if (page.after) query = query.where('owner', '>', page.after);
  const rows = await query
    .orderBy('owner')
    .limit(page.limit + 1)
    .execute();
  return rows.map((row) => row.owner);
}

export interface OwnerHoldings {
  /** Lowercase. */
  owner: string;
  /** Token ids held, by token id; empty unless asked for. */
  tokens: Array<{ tokenId: string; balance: string }>;
}

/**
 * A page of a contract's owners by address (lowercase) after `after`: at most `maxOwners`, and with
 * `withTokens` at most `maxRows` balances (a page ends with a whole owner, at least one); `next` is
 * the last owner when another page follows.
 */
export async function contractOwners(
  db: Kysely<DatabaseSchema>,
  network: string,
  contract: Address,
  page: { after?: string; maxOwners: number; maxRows: number; withTokens: boolean },
): Promise<{ owners: OwnerHoldings[]; next: string | null }> {
  let counts = heldBalances(db, network, contract).select(['owner', sql<number | string>`count(*)`.as('tokens')]);
  if (page.after) counts = counts.where('owner', '>', page.after);
  const rows = await counts
    .groupBy('owner')
    .orderBy('owner')
    .limit(page.maxOwners + 1)
    .execute();
  let taken = rows.slice(0, page.maxOwners);
  if (page.withTokens) {
    let sum = 0;
    const fits = taken.findIndex((row, i) => (sum += Number(row.tokens)) > page.maxRows && i > 0);
    if (fits !== -1) taken = taken.slice(0, fits);
  }
  const more = rows.length > taken.length;
  const owners: OwnerHoldings[] = taken.map((row) => ({ owner: row.owner, tokens: [] }));
  if (page.withTokens && owners.length > 0) {
    const byOwner = new Map(owners.map((holding) => [holding.owner, holding]));
    // By the balances' key (network, owner, contract, token id), some owners at a time.
    for (let first = 0; first < owners.length; first += OWNERS_PER_QUERY) {
      const some = owners.slice(first, first + OWNERS_PER_QUERY).map((holding) => holding.owner);
      const balances = await heldBalances(db, network, contract).select(['owner', 'token_id', 'balance']).where('owner', 'in', some).execute();
      for (const row of balances) byOwner.get(row.owner)!.tokens.push({ tokenId: row.token_id, balance: row.balance });
    }
    for (const holding of owners)
      holding.tokens.sort((a, b) => a.tokenId.length - b.tokenId.length || (a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : 0));
  }
  return { owners, next: more ? owners.at(-1)!.owner : null };
}

/** How many addresses hold NFTs of the contract. */
export async function contractOwnerCount(db: Kysely<DatabaseSchema>, network: string, contract: Address): Promise<number> {
  const row = await heldBalances(db, network, contract).select(sql<number | string>`count(distinct owner)`.as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** One contract of an owner's: the tokens held and the transfer that last changed one of them. */
export interface OwnedContract {
  /** Lowercase. */
  contract: string;
  kind: NftKind;
  distinctTokens: number;
  /** Decimal: ERC-1155 amounts summed. */
  totalBalance: string;
  /** The lowest token id held. */
  firstTokenId: string;
  lastBlock: number;
  lastLogIndex: number;
}

/** Every contract of which `owner` holds NFTs (one row per held token read, summed here: balances are decimal text). */
export async function ownerContracts(db: Kysely<DatabaseSchema>, network: string, owner: Address): Promise<OwnedContract[]> {
  const rows = await db
    .selectFrom('indexer_nft_balances')
    .select(['contract', 'token_id', 'kind', 'balance', 'last_block', 'last_log_index'])
    .where('network', '=', network)
    .where('owner', '=', owner.toLowerCase())
    .where('balance', 'not like', '-%')
    .execute();
  const contracts = new Map<string, OwnedContract & { sum: bigint }>();
  for (const row of rows) {
    const known = contracts.get(row.contract);
    const block = Number(row.last_block);
    if (!known) {
      contracts.set(row.contract, {
        contract: row.contract,
        kind: row.kind,
        distinctTokens: 1,
        totalBalance: '',
        sum: BigInt(row.balance),
        firstTokenId: row.token_id,
        lastBlock: block,
        lastLogIndex: row.last_log_index,
      });
      continue;
    }
    known.distinctTokens += 1;
    known.sum += BigInt(row.balance);
    if (row.token_id.length < known.firstTokenId.length || (row.token_id.length === known.firstTokenId.length && row.token_id < known.firstTokenId))
      known.firstTokenId = row.token_id;
    if (block > known.lastBlock || (block === known.lastBlock && row.last_log_index > known.lastLogIndex)) {
      known.lastBlock = block;
      known.lastLogIndex = row.last_log_index;
    }
  }
  return [...contracts.values()].map(({ sum, ...contract }) => ({ ...contract, totalBalance: sum.toString() }));
}

/** Whether `owner` holds any NFT of `contract`. */
export async function holdsContract(db: Kysely<DatabaseSchema>, network: string, owner: Address, contract: Address): Promise<boolean> {
  const row = await heldBalances(db, network, contract).select('token_id').where('owner', '=', owner.toLowerCase()).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** How many distinct tokens of the contract are held. */
export async function contractTokenCount(db: Kysely<DatabaseSchema>, network: string, contract: Address): Promise<number> {
  const row = await heldBalances(db, network, contract).select(sql<number | string>`count(distinct token_id)`.as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Every contract of which the index holds an NFT on the network (lowercase), one index probe per contract. */
export async function indexedNftContracts(db: Kysely<DatabaseSchema>, network: string): Promise<string[]> {
  // A loose index scan: the next contract after each one, so the network's balances are not all read.
  const result = await sql<{ contract: string | null }>`
    with recursive contracts(contract) as (
      select min(contract) from indexer_nft_balances where network = ${network}
      union all
      select (select min(contract) from indexer_nft_balances where network = ${network} and contract > contracts.contract)
      from contracts where contracts.contract is not null
    )
    select contract from contracts where contract is not null`.execute(db);
  return result.rows.map((row) => row.contract!);
}

/** How many distinct addresses the mint transaction `transactionHash` (in `blockNumber`) minted tokens of `contract` to. */
export async function mintRecipients(
  db: Kysely<DatabaseSchema>,
  network: string,
  contract: Address,
  mint: { blockNumber: number; transactionHash: string },
): Promise<number> {
  const row = await db
    .selectFrom('indexer_transfers')
    .select(sql<number | string>`count(distinct to_address)`.as('count'))
    .where('network', '=', network)
    .where('block_number', '=', mint.blockNumber)
    .where('transaction_hash', '=', mint.transactionHash)
    .where('contract', '=', contract.toLowerCase())
    .where('from_address', '=', ZERO_ADDRESS)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}
