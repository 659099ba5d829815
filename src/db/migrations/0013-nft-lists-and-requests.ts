import { sql, type Kysely } from 'kysely';

// The NFT API's lists and requests (docs/nft-data.md): a contract's tokens in token-id order and its
// owners in address order are read from two new indexes of the NFT balances, so a page costs the
// same however large the contract; spam reports callers send, one row per reporter and contract
// (never trusted by themselves); and contract re-ingestions asked for, whose progress is the
// contract's records fetched since.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Token ids sort as numbers: shorter first, then by digits.
  await sql`create index indexer_nft_balances_by_contract_token on indexer_nft_balances (network, contract, length(token_id), token_id)`.execute(db);
  await db.schema.createIndex('indexer_nft_balances_by_contract_owner').on('indexer_nft_balances').columns(['network', 'contract', 'owner']).execute();

  await db.schema
    .createTable('nft_spam_reports')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    // `app:<id>`, or `demo:<client address>` for the demo key.
    .addColumn('reporter', 'text', (column) => column.notNull())
    .addColumn('reports', 'bigint', (column) => column.notNull())
    .addColumn('first_reported_at', 'bigint', (column) => column.notNull())
    .addColumn('last_reported_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('nft_spam_reports_key', ['network', 'contract', 'reporter'])
    .execute();

  await db.schema
    .createTable('nft_reingestions')
    .addColumn('network', 'text', (column) => column.notNull())
    .addColumn('contract', 'text', (column) => column.notNull())
    .addColumn('requested_at', 'bigint', (column) => column.notNull())
    // The contract's held tokens when it was asked for: what progress counts against.
    .addColumn('tokens', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('nft_reingestions_key', ['network', 'contract'])
    .execute();
}
