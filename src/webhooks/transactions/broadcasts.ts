import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.ts';

// Which app broadcast which transaction (docs/webhooks.md#transaction-webhooks): the gateway
// records each eth_sendRawTransaction a node accepted from an app's key, one row, before it answers
// the caller, so a crash right after leaves the transaction watched. The watcher (watcher.ts) looks
// at each row until the transaction is mined or dropped. The same transaction broadcast again is
// recorded once, for the app that sent it first.

export interface Broadcast {
  network: string;
  appId: string;
  /** The transaction's hash, as the node answered it. */
  hash: string;
  /** The signed transaction as broadcast (0x hex). */
  raw: string;
}

export async function recordBroadcast(db: Kysely<DatabaseSchema>, broadcast: Broadcast, at: number): Promise<void> {
  await db
    .insertInto('broadcast_transactions')
    .values({
      network: broadcast.network,
      hash: broadcast.hash.toLowerCase(),
      app_id: broadcast.appId,
      raw: broadcast.raw,
      status: 'pending',
      broadcast_at: at,
      next_check_at: at,
      sender: null,
      nonce: null,
      block_number: null,
      block_hash: null,
      settled_at: null,
    })
    .onConflict((conflict) => conflict.columns(['network', 'hash']).doNothing())
    .execute();
}
