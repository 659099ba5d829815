import { sql, type Kysely } from 'kysely';

// NFT contract facts (src/nfts/contracts/, docs/nft-data.md#contract-facts), cached per network, chain and contract: the
// chain is named by its genesis hash, so a reset devnet's contracts are never answered with the old
// chain's facts. What cannot change (the deployment once found, ERC-165's answer) is kept; name,
// symbol, total supply and what the index says are read again after a TTL.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('nft_contracts')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('genesis_hash', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    // By ERC-165: ERC721, ERC1155, none (it says neither); no-code: nothing deployed at the address when read.
    .addColumn('standard', 'text', (column) => column.notNull().check(sql`standard in ('ERC721', 'ERC1155', 'none', 'no-code')`))
    .addColumn('name', 'text')
    .addColumn('symbol', 'text')
    .addColumn('total_supply', 'text')
    .addColumn('token_uri_host', 'text')
    .addColumn('read_block', 'bigint', (column) => column.notNull())
    .addColumn('read_at', 'bigint', (column) => column.notNull())
    .addColumn('deployed_block', 'bigint')
    .addColumn('deployer', 'text')
    // settled: the deployment is known for good; unknown: the node could not say, asked again after the TTL.
    .addColumn('deployment', 'text', (column) => column.notNull().check(sql`deployment in ('settled', 'unknown')`))
    .addColumn('nft_transfers', 'bigint', (column) => column.notNull())
    .addColumn('event_kinds', 'text', (column) => column.notNull())
    .addColumn('fresh_mint_transaction', 'text')
    .addColumn('fresh_mint_recipients', 'integer')
    .addPrimaryKeyConstraint('nft_contracts_key', ['network', 'genesis_hash', 'contract'])
    .execute();
}
