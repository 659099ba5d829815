import type { Kysely } from 'kysely';
import { bulkInsert } from '../db/bulk-insert.ts';
import type { DatabaseSchema, WebhookAddressRow } from '../db/schema.ts';
import { WebhookInputError } from './errors.ts';
import { lowercaseAddress } from './webhook.ts';

// The addresses of ADDRESS_ACTIVITY webhooks (docs/webhooks.md#address-activity): rows of
// webhook_addresses, changed in place inside the caller's transaction, and matched against a block's
// transfers by one index seek per address the block touches (by network and address), so a block
// costs the same whether the webhooks list ten addresses or a hundred thousand.

/** Addresses one statement inserts or deletes. */
const ROWS_PER_STATEMENT = 1000;

const insertAddresses = bulkInsert<WebhookAddressRow>(['webhook_id', 'network', 'address'], (executor, rows) =>
  executor
    .insertInto('webhook_addresses')
    .values(rows)
    .onConflict((conflict) => conflict.columns(['webhook_id', 'address']).doNothing()),
);

/** Addresses as stored: lowercase, each once, in the order first given; a malformed one is refused naming `field`. */
export function parseAddresses(addresses: readonly string[], field: string): string[] {
  return [...new Set(addresses.map((address) => lowercaseAddress(address, field)))];
}

/**
 * Adds and removes a webhook's addresses (an address in both is removed) and returns how many it
 * then has: refused, and so rolled back with the caller's transaction, past `max`.
 */
export async function changeAddresses(
  db: Kysely<DatabaseSchema>,
  trx: Kysely<DatabaseSchema>,
  webhook: { id: string; network: string },
  change: { add: readonly string[]; remove: readonly string[] },
  max: number,
): Promise<number> {
  const rows = change.add.map((address) => ({ webhook_id: webhook.id, network: webhook.network, address }));
  for (let offset = 0; offset < rows.length; offset += ROWS_PER_STATEMENT) await insertAddresses.run(db, trx, rows.slice(offset, offset + ROWS_PER_STATEMENT));
  for (let offset = 0; offset < change.remove.length; offset += ROWS_PER_STATEMENT) {
    await trx
      .deleteFrom('webhook_addresses')
      .where('webhook_id', '=', webhook.id)
      .where('address', 'in', change.remove.slice(offset, offset + ROWS_PER_STATEMENT))
      .execute();
  }
  const { count } = await trx
    .selectFrom('webhook_addresses')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('webhook_id', '=', webhook.id)
    .executeTakeFirstOrThrow();
  const total = Number(count);
  if (total > max) throw new WebhookInputError('addresses', `would then number ${total}, more than the ${max} a webhook may listen to`);
  return total;
}

/** Every address of a webhook goes. */
export async function clearAddresses(trx: Kysely<DatabaseSchema>, webhookId: string): Promise<void> {
  await trx.deleteFrom('webhook_addresses').where('webhook_id', '=', webhookId).execute();
}

/** A page of a webhook's addresses in address order, after `after` (the last of the page before). */
export async function addressPage(
  db: Kysely<DatabaseSchema>,
  webhookId: string,
  page: { limit: number; after?: string },
): Promise<{ addresses: string[]; next: string | null }> {
  let query = db
    .selectFrom('webhook_addresses')
    .select('address')
    .where('webhook_id', '=', webhookId)
    .orderBy('address')
    .limit(page.limit + 1);
  if (page.after !== undefined) query = query.where('address', '>', page.after.toLowerCase());
  const rows = await query.execute();
  const shown = rows.slice(0, page.limit).map((row) => row.address);
  return { addresses: shown, next: rows.length > page.limit ? shown.at(-1)! : null };
}

/**
 * The active ADDRESS_ACTIVITY webhooks of a network listening to any of `addresses` (lowercase):
 * for each webhook, which of them it lists.
 */
export async function listenersOf(trx: Kysely<DatabaseSchema>, network: string, addresses: readonly string[]): Promise<Map<string, Set<string>>> {
  const listeners = new Map<string, Set<string>>();
  for (let offset = 0; offset < addresses.length; offset += ROWS_PER_STATEMENT) {
    const rows = await trx
      .selectFrom('webhook_addresses as a')
      .innerJoin('webhooks as w', 'w.id', 'a.webhook_id')
      .select(['a.webhook_id', 'a.address'])
      .where('a.network', '=', network)
      .where('a.address', 'in', addresses.slice(offset, offset + ROWS_PER_STATEMENT))
      .where('w.state', '=', 'active')
      .where('w.type', '=', 'ADDRESS_ACTIVITY')
      .execute();
    for (const row of rows) {
      const listed = listeners.get(row.webhook_id);
      if (listed) listed.add(row.address);
      else listeners.set(row.webhook_id, new Set([row.address]));
    }
  }
  return listeners;
}
