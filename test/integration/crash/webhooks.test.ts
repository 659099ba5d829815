import { rm } from 'node:fs/promises';
import type { Address, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { readCheckpoint } from '../../../src/indexer/checkpoints.ts';
import type { ActivityItem } from '../../../src/webhooks/payload.ts';
import { createWebhookStore } from '../../../src/webhooks/store.ts';
import { startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEnv, until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { freePort } from '../../support/free-port.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { writeTokenHistory, type TokenHistory } from '../../support/token-history.ts';
import { firstReceipts, startReceiver, type TestReceiver } from '../webhooks/receiver.ts';

// The production server, indexing a chain of 40 blocks of NFT transfers (with the indexer in the
// server) and delivering to three webhooks (with the delivery worker in the server), killed
// (SIGKILL) as the receiver on loopback takes the 30th delivery, which it never answers; started
// again on the same database. Every outbox row (one per webhook and block with its transfers) is
// then delivered at least once, in order per webhook, signed; the receiver, counting by delivery
// id, saw every one and nothing else; only a delivery the dead process was sending arrives twice.

const NETWORK = 'crucible-testnet';
const OWNER = 'acct_crash';
const KILL_AT_DELIVERY = 30;

let anvil: TestAnvil;
let history: TokenHistory;
let fixture: FixtureDist;
beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: 7357001 });
  [history, fixture] = await Promise.all([writeTokenHistory(anvil.client, { blocks: 40, emptyBlocks: 10 }), writeFixtureDist()]);
});
afterAll(async () => {
  await anvil?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe.each(databaseEngines())('webhook deliveries killed mid-burst on $name', (engine) => {
  it('delivers every outbox row at least once after a restart, none lost', async () => {
    const location = await engine.location();
    // Migrated, with the webhooks registered, before the server starts; read beside it after.
    const database: Database = await openDatabase(location);
    const receiver: TestReceiver = await startReceiver();
    let server: BuiltSite | undefined;
    try {
      const store = createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } });
      const filters: Record<string, Address[]> = { all: [], relics: [history.tokens.relics], materials: [history.tokens.materials] };
      const hooks = new Map<string, keyof typeof filters>();
      for (const [name, contractAddresses] of Object.entries(filters)) {
        const hook = await store.create(OWNER, { type: 'NFT_ACTIVITY', network: NETWORK, url: receiver.url, filters: { contractAddresses } });
        receiver.keys.set(hook.id, hook.signingKey);
        hooks.set(hook.id, name);
      }
      const env = {
        ...databaseEnv(location),
        PORT: String(await freePort()),
        INDEXER_IN_SERVER: 'on',
        INDEXER_NETWORKS: NETWORK,
        NODE_UPSTREAMS_CRUCIBLE_TESTNET: anvil.rpcUrl,
        INDEXER_MAX_BLOCK_RANGE: '4',
        INDEXER_BLOCKS_PER_STEP: '4',
        INDEXER_REORG_WINDOW: '4',
        INDEXER_POLL_INTERVAL_MS: '50',
        INDEXER_LEASE_MS: '1500',
        WEBHOOK_POLL_INTERVAL_MS: '20',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_CLAIM_MS: '1500',
        WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50',
        // Nothing in this server may start a devnet of its own: it would outlive the kill.
        PRICES_IN_SERVER: 'off',
        NFT_METADATA_IN_SERVER: 'off',
      };

      let killed: Promise<void> | undefined;
      let held: string | undefined;
      /** The deliveries the receiver took (answered 2xx), by id. */
      const accepted = new Set<string>();
      receiver.respond = (count, entry) => {
        if (killed || count < KILL_AT_DELIVERY) {
          accepted.add(entry.payload.id);
          return 200;
        }
        held = entry.payload.id;
        killed = first.kill();
        return 'hold';
      };
      server = await startBuiltSite({ distDir: fixture.distDir, env });
      const first = server;
      await until(`the receiver at its ${KILL_AT_DELIVERY}th delivery`, async () => killed !== undefined);
      await killed;
      const expected = history.nftBlocks.length * hooks.size;
      const storedAtKill = await deliveryRows(database);
      // Killed mid-burst: the index or the deliveries were not done.
      expect(storedAtKill.filter((row) => row.status === 'delivered').length).toBeLessThan(expected);

      server = await startBuiltSite({ distDir: fixture.distDir, env });
      const head = await anvil.client.getBlock({ blockNumber: BigInt(history.head) });
      await until('the index at the head and every delivery delivered', async () => {
        const checkpoint = await readCheckpoint(database.db, NETWORK);
        if (checkpoint?.block?.hash.toLowerCase() !== (head.hash as Hex).toLowerCase()) return false;
        const rows = await deliveryRows(database);
        return rows.length === expected && rows.every((row) => row.status === 'delivered');
      });

      // The outbox: one row per webhook and block with its transfers, each block once.
      const rows = await deliveryRows(database);
      for (const [hookId, name] of hooks) {
        const blocks = rows.filter((row) => row.webhook_id === hookId).map((row) => Number(row.block_number));
        expect({ name, blocks }).toEqual({ name, blocks: history.nftBlocks.map((block) => block.number) });
      }
      // The receiver, by delivery id: took every row, saw nothing else, each webhook's in its order.
      expect(accepted).toEqual(new Set(rows.map((row) => row.id)));
      expect(new Set(firstReceipts(receiver.received))).toEqual(accepted);
      for (const hookId of hooks.keys()) {
        const order = rows.filter((row) => row.webhook_id === hookId).map((row) => row.id);
        expect(firstReceipts(receiver.received.filter((entry) => entry.payload.webhookId === hookId))).toEqual(order);
      }
      // Twice only what the dead process sent without recording the answer: an attempt it left
      // `sending`, marked abandoned by the next claimer (one at most per webhook, each sending its
      // deliveries one at a time), the unanswered one among them.
      const attempts = await database.db.selectFrom('webhook_attempts').select(['delivery_id', 'outcome']).orderBy('attempt').execute();
      const abandoned = attempts.filter((attempt) => attempt.outcome === 'abandoned').map((attempt) => attempt.delivery_id);
      expect(abandoned).toContain(held);
      expect(abandoned.length).toBeLessThanOrEqual(hooks.size);
      expect(attempts.filter((attempt) => attempt.delivery_id === held).map((attempt) => attempt.outcome)).toEqual(['abandoned', 'delivered']);
      const ids = receiver.received.map((entry) => entry.payload.id);
      const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
      for (const id of repeated) expect(abandoned, `delivery ${id} received again`).toContain(id);
      expect(new Set(repeated).size).toBe(repeated.length);
      expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
      // Each payload carries its block's transfers, as the webhook's filter selects them.
      for (const entry of receiver.received) {
        const activity = (entry.payload.event as { activity: ActivityItem[] }).activity;
        const block = history.nftBlocks.find((candidate) => candidate.number === Number(activity[0]?.blockNum))!;
        const wanted = { all: block.erc721 + block.erc1155, relics: block.erc721, materials: block.erc1155 }[hooks.get(entry.payload.webhookId)!];
        expect(activity.length).toBe(wanted);
      }
    } finally {
      await server?.stop();
      await receiver.close();
      await database.close();
    }
  });
});

/** The outbox, each webhook's rows in their order. */
function deliveryRows(database: Database) {
  return database.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'webhook_id', 'seq', 'block_number', 'status'])
    .orderBy('webhook_id')
    .orderBy('seq')
    .execute();
}
