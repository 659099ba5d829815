import type { Kysely } from 'kysely';
import { getAddress, type Address, type Hex } from 'viem';
import type { DatabaseSchema, NftContractRow } from '../../db/schema.ts';
import type { IndexReset } from '../../transfers/index-events.ts';
import type { NftKind } from '../../transfers/transfer.ts';
import type { ContractChainFacts } from './contract-reads.ts';
import type { Deployment } from './deployment.ts';
import type { IndexEvidence } from './index-evidence.ts';

// The cache of contract facts (nft_contracts), one row per network, chain (its genesis hash) and
// contract, the same on both engines: what was read from the chain and the index, and when.

export interface StoredContract {
  network: string;
  genesisHash: Hex;
  contract: Address;
  /** null: no code at the address when read. */
  chain: ContractChainFacts | null;
  readBlock: number;
  /** ms since the epoch. */
  readAt: number;
  deployment: Deployment;
  evidence: Omit<IndexEvidence, 'sample'>;
}

/** Rows per statement: well under both engines' limits on bound parameters (18 columns a row). */
const ROWS_PER_STATEMENT = 50;

/** Contracts one read names (bound parameters stay far below both engines' limits). */
const CONTRACTS_PER_READ = 500;

/** The stored facts of these contracts (every stored one without `contracts`) on the chain `genesisHash`, by lowercase address. */
export async function readStoredContracts(
  db: Kysely<DatabaseSchema>,
  network: string,
  genesisHash: Hex,
  contracts?: readonly Address[],
): Promise<Map<string, StoredContract>> {
  const stored = new Map<string, StoredContract>();
  const read = async (some?: readonly Address[]) => {
    let query = db.selectFrom('nft_contracts').selectAll().where('network', '=', network).where('genesis_hash', '=', genesisHash.toLowerCase());
    if (some)
      query = query.where(
        'contract',
        'in',
        some.map((contract) => contract.toLowerCase()),
      );
    for (const row of await query.execute()) stored.set(row.contract, storedOf(row));
  };
  if (!contracts) await read();
  for (let start = 0; contracts && start < contracts.length; start += CONTRACTS_PER_READ) await read(contracts.slice(start, start + CONTRACTS_PER_READ));
  return stored;
}

export async function storeContracts(db: Kysely<DatabaseSchema>, stored: readonly StoredContract[]): Promise<void> {
  for (let start = 0; start < stored.length; start += ROWS_PER_STATEMENT) {
    const rows = stored.slice(start, start + ROWS_PER_STATEMENT).map(rowOf);
    await db
      .insertInto('nft_contracts')
      .values(rows)
      .onConflict((conflict) =>
        conflict.columns(['network', 'genesis_hash', 'contract']).doUpdateSet((update) => ({
          standard: update.ref('excluded.standard'),
          name: update.ref('excluded.name'),
          symbol: update.ref('excluded.symbol'),
          total_supply: update.ref('excluded.total_supply'),
          token_uri_host: update.ref('excluded.token_uri_host'),
          read_block: update.ref('excluded.read_block'),
          read_at: update.ref('excluded.read_at'),
          deployed_block: update.ref('excluded.deployed_block'),
          deployer: update.ref('excluded.deployer'),
          deployment: update.ref('excluded.deployment'),
          nft_transfers: update.ref('excluded.nft_transfers'),
          event_kinds: update.ref('excluded.event_kinds'),
          fresh_mint_transaction: update.ref('excluded.fresh_mint_transaction'),
          fresh_mint_recipients: update.ref('excluded.fresh_mint_recipients'),
        })),
      )
      .execute();
  }
}

/**
 * The indexer's `onReset` hook: a network's index is rebuilt, so its contracts' rows go too (rows
 * are keyed by genesis hash, so none would be served for a new chain; this only frees them).
 */
export async function forgetContractsOnReset(event: IndexReset, trx: Kysely<DatabaseSchema>): Promise<void> {
  await trx.deleteFrom('nft_contracts').where('network', '=', event.network).execute();
}

function rowOf(stored: StoredContract): NftContractRow {
  const { chain, deployment, evidence } = stored;
  return {
    network: stored.network,
    genesis_hash: stored.genesisHash.toLowerCase(),
    contract: stored.contract.toLowerCase(),
    standard: chain?.standard ?? 'no-code',
    name: chain?.name ?? null,
    symbol: chain?.symbol ?? null,
    total_supply: chain?.totalSupply ?? null,
    token_uri_host: chain?.tokenUriHost ?? null,
    read_block: stored.readBlock,
    read_at: stored.readAt,
    deployed_block: deployment.blockNumber,
    deployer: deployment.deployer?.toLowerCase() ?? null,
    deployment: deployment.settled ? 'settled' : 'unknown',
    nft_transfers: evidence.nftTransfers,
    event_kinds: JSON.stringify(evidence.kinds),
    fresh_mint_transaction: evidence.largestFreshMint?.transactionHash ?? null,
    fresh_mint_recipients: evidence.largestFreshMint?.recipients ?? null,
  };
}

function storedOf(row: NftContractRow): StoredContract {
  return {
    network: row.network,
    genesisHash: row.genesis_hash as Hex,
    contract: getAddress(row.contract),
    chain:
      row.standard === 'no-code'
        ? null
        : { standard: row.standard, name: row.name, symbol: row.symbol, totalSupply: row.total_supply, tokenUriHost: row.token_uri_host },
    readBlock: row.read_block,
    readAt: row.read_at,
    deployment: {
      blockNumber: row.deployed_block,
      deployer: row.deployer === null ? null : getAddress(row.deployer),
      settled: row.deployment === 'settled',
    },
    evidence: {
      nftTransfers: row.nft_transfers,
      kinds: JSON.parse(row.event_kinds) as NftKind[],
      largestFreshMint:
        row.fresh_mint_transaction === null || row.fresh_mint_recipients === null
          ? null
          : { transactionHash: row.fresh_mint_transaction as Hex, recipients: row.fresh_mint_recipients },
    },
  };
}
