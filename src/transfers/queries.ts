import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { getAddress, type Address, type Hex } from 'viem';
import type { DatabaseSchema } from '../db/schema.ts';
import type { NftKind } from './transfer.ts';

// What the products read from the index (docs/token-data.md#transfer-indexer), the same queries on both engines. Pages are
// keyset pages: a caller passes back the last item's key (its `after`), never an offset, so a page
// costs the same however deep it is. Token ids sort as numbers (shorter first, then by digits).

/** The last block the index holds for a network: what an answer built from it is valid at. */
export interface IndexedBlock {
  number: number;
  hash: Hex;
  /** Seconds since the epoch; null when the node did not give it. */
  timestamp: number | null;
}

export async function indexedBlock(db: Kysely<DatabaseSchema>, network: string): Promise<IndexedBlock | null> {
  const row = await db
    .selectFrom('indexer_checkpoints')
    .select(['block_number', 'block_hash', 'block_timestamp'])
    .where('network', '=', network)
    .executeTakeFirst();
  return row?.block_hash ? { number: row.block_number, hash: row.block_hash as Hex, timestamp: row.block_timestamp } : null;
}

/** The genesis hash of the chain the index holds for a network; null before the network is first led. */
export async function indexedGenesisHash(db: Kysely<DatabaseSchema>, network: string): Promise<Hex | null> {
  const row = await db.selectFrom('indexer_checkpoints').select('genesis_hash').where('network', '=', network).executeTakeFirst();
  return row ? (row.genesis_hash as Hex) : null;
}

/** The ERC-20 contracts `holder` ever received or sent on `network`, by address, those after `after`, at most `limit`. */
export async function tokensOfHolder(
  db: Kysely<DatabaseSchema>,
  network: string,
  holder: Address,
  page: { after?: Address; limit: number },
): Promise<Address[]> {
  let query = db
    .selectFrom('indexer_holder_tokens')
    .select('contract')
    .where('network', '=', network)
    .where('holder', '=', holder.toLowerCase())
    .orderBy('contract')
    .limit(page.limit);
  if (page.after) query = query.where('contract', '>', page.after.toLowerCase());
  return (await query.execute()).map((row) => getAddress(row.contract));
}

interface OwnedNft {
  contract: Address;
  /** Decimal. */
  tokenId: string;
  kind: NftKind;
  /** Decimal; 1 for ERC-721 and legacy NFTs. */
  balance: string;
  /** The transfer that last changed this balance. */
  lastBlock: number;
  lastLogIndex: number;
}

/** Where the next page starts: the last item of this one. */
type NftCursor = Pick<OwnedNft, 'contract' | 'tokenId' | 'lastBlock' | 'lastLogIndex'>;

export interface NftsOfOwnerQuery {
  /** Only these contracts. */
  contracts?: readonly Address[];
  /** `contract` (default): by contract, then token id; `transferTime`: newest transfer first (docs/nft-data.md#getnfts-and-getnftsforowner). */
  orderBy?: 'contract' | 'transferTime';
  after?: NftCursor;
  limit: number;
}

export interface NftPage {
  nfts: OwnedNft[];
  /** Every NFT the owner holds under the same filter. */
  totalCount: number;
  /** The block the page reflects; null when nothing is indexed. */
  validAt: IndexedBlock | null;
  /** null on the last page. */
  next: NftCursor | null;
}

/** Reads of the page and of its block are repeated when a step was committed between them. */
const CONSISTENT_READ_ATTEMPTS = 3;

/** The NFTs `owner` holds on `network` (balance above 0), one page of them, with the block they are valid at. */
export async function nftsOfOwner(db: Kysely<DatabaseSchema>, network: string, owner: Address, query: NftsOfOwnerQuery): Promise<NftPage> {
  for (let attempt = 1; ; attempt++) {
    const before = await indexedBlock(db, network);
    const [rows, totalCount] = await Promise.all([ownedPage(db, network, owner, query), ownedCount(db, network, owner, query.contracts)]);
    const after = await indexedBlock(db, network);
    if (before?.hash !== after?.hash && attempt < CONSISTENT_READ_ATTEMPTS) continue;
    const nfts = rows.slice(0, query.limit);
    const last = nfts.at(-1);
    const next =
      rows.length > query.limit && last ? { contract: last.contract, tokenId: last.tokenId, lastBlock: last.lastBlock, lastLogIndex: last.lastLogIndex } : null;
    return { nfts, totalCount, validAt: after, next };
  }
}

function ownedFilter(db: Kysely<DatabaseSchema>, network: string, owner: Address, contracts: readonly Address[] | undefined) {
  let query = db
    .selectFrom('indexer_nft_balances')
    .where('network', '=', network)
    .where('owner', '=', owner.toLowerCase())
    // Negative balances come only from contracts whose logs contradict each other: never listed.
    .where('balance', 'not like', '-%');
  if (contracts !== undefined) query = query.where('contract', 'in', contracts.length > 0 ? contracts.map((contract) => contract.toLowerCase()) : ['']);
  return query;
}

async function ownedCount(db: Kysely<DatabaseSchema>, network: string, owner: Address, contracts: readonly Address[] | undefined): Promise<number> {
  const row = await ownedFilter(db, network, owner, contracts).select(sql<number | string>`count(*)`.as('count')).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** One row more than the page, to know whether another follows. */
async function ownedPage(db: Kysely<DatabaseSchema>, network: string, owner: Address, query: NftsOfOwnerQuery): Promise<OwnedNft[]> {
  const tokenLength = sql<number>`length(token_id)`;
  const byTransfer = query.orderBy === 'transferTime';
  const order: KeyPart[] = [
    ...(byTransfer
      ? [
          { expression: sql.ref('last_block'), descending: true, value: query.after?.lastBlock },
          { expression: sql.ref('last_log_index'), descending: true, value: query.after?.lastLogIndex },
        ]
      : []),
    { expression: sql.ref('contract'), descending: false, value: query.after?.contract.toLowerCase() },
    { expression: tokenLength, descending: false, value: query.after?.tokenId.length },
    { expression: sql.ref('token_id'), descending: false, value: query.after?.tokenId },
  ];
  let select = ownedFilter(db, network, owner, query.contracts).select(['contract', 'token_id', 'kind', 'balance', 'last_block', 'last_log_index']);
  if (query.after) select = select.where(keysetAfter(order));
  for (const part of order) select = select.orderBy(part.expression, part.descending ? 'desc' : 'asc');
  const rows = await select.limit(query.limit + 1).execute();
  return rows.map((row) => ({
    contract: getAddress(row.contract),
    tokenId: row.token_id,
    kind: row.kind,
    balance: row.balance,
    lastBlock: row.last_block,
    lastLogIndex: row.last_log_index,
  }));
}

interface KeyPart {
  expression: RawBuilder<unknown>;
  descending: boolean;
  value: unknown;
}

/** Rows after the key in this order: (a > x) or (a = x and ((b > y) or (b = y and ...))). */
function keysetAfter(parts: readonly KeyPart[]): RawBuilder<SqlBool> {
  const [first, ...rest] = parts;
  if (!first) return sql<SqlBool>`false`;
  const beyond = sql<SqlBool>`${first.expression} ${sql.raw(first.descending ? '<' : '>')} ${first.value}`;
  if (rest.length === 0) return beyond;
  return sql<SqlBool>`(${beyond} or (${first.expression} = ${first.value} and ${keysetAfter(rest)}))`;
}

export const INDEX_STATES = ['waiting', 'backfilling', 'following', 'failing', 'stopped'] as const;
type IndexState = (typeof INDEX_STATES)[number];

export interface NetworkIndexStatus {
  network: string;
  /**
   * waiting: never indexed; backfilling: reading old blocks in ranges; following: at the confirmed
   * head; failing: the last step failed (lastError); stopped: no process leads the network.
   */
  state: IndexState;
  headBlock: number | null;
  indexedBlock: number | null;
  /** headBlock − indexedBlock. */
  lag: number | null;
  /** When the leader last moved the checkpoint or saw the head, ms since the epoch. */
  updatedAt: number | null;
  lastError: string | null;
}

/** Each network's progress as the database holds it (any process may ask). `networks`: also list these, as waiting, when never indexed. */
export async function indexerStatus(db: Kysely<DatabaseSchema>, options: { networks?: readonly string[]; now?: number } = {}): Promise<NetworkIndexStatus[]> {
  const now = options.now ?? Date.now();
  const rows = await db
    .selectFrom('indexer_checkpoints as checkpoint')
    .leftJoin('indexer_leases as lease', 'lease.network', 'checkpoint.network')
    .select([
      'checkpoint.network',
      'checkpoint.block_number',
      'checkpoint.block_hash',
      'checkpoint.head_number',
      'checkpoint.state',
      'checkpoint.updated_at',
      'checkpoint.last_error',
      'checkpoint.last_error_at',
      'lease.expires_at',
    ])
    .orderBy('checkpoint.network')
    .execute();
  const statuses = new Map<string, NetworkIndexStatus>();
  for (const row of rows) {
    const indexed = row.block_hash === null ? null : row.block_number;
    const failing = row.last_error_at !== null && row.last_error_at >= row.updated_at;
    const leading = row.expires_at !== null && row.expires_at > now;
    statuses.set(row.network, {
      network: row.network,
      state: !leading ? 'stopped' : failing ? 'failing' : row.state,
      headBlock: row.head_number,
      indexedBlock: indexed,
      lag: indexed === null ? null : Math.max(0, row.head_number - indexed),
      updatedAt: row.updated_at,
      lastError: failing ? row.last_error : null,
    });
  }
  for (const network of options.networks ?? []) {
    if (!statuses.has(network)) {
      statuses.set(network, { network, state: 'waiting', headBlock: null, indexedBlock: null, lag: null, updatedAt: null, lastError: null });
    }
  }
  const listed = options.networks ? options.networks.map((network) => statuses.get(network)!) : [...statuses.values()];
  return listed.sort((a, b) => a.network.localeCompare(b.network));
}
