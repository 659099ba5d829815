import type { Kysely } from 'kysely';

// The delivery worker finds each webhook's first pending delivery (src/webhooks/claim.ts) by one
// seek of this index per webhook; without it every claim compared each queued delivery with every
// earlier one of its webhook, a cost that grew with the queue (BENCHMARKS.md, "Webhooks: delivery",
// whose throughput run drains a queue of 2,000).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('webhook_deliveries_heads').on('webhook_deliveries').columns(['webhook_id', 'status', 'seq']).execute();
}
