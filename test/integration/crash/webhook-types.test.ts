import { rm } from 'node:fs/promises';
import { createWalletClient, defineChain, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCheckpoint } from '../../../src/indexer/checkpoints.ts';
import { createWebhookStore } from '../../../src/webhooks/store.ts';
import { randomAddress, startTestAnvil, THIRD_PARTY_KEY, type TestAnvil } from '../../support/anvil.ts';
import { until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { freePort } from '../../support/free-port.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';
import { writeTokenHistory, type TokenHistory } from '../../support/token-history.ts';
import { databaseEnv, prepareAccount } from '../webhooks/notify-site.ts';
import { firstReceipts, startReceiver, type TestReceiver } from '../webhooks/receiver.ts';

// The production server delivering ADDRESS_ACTIVITY (from its indexer) and MINED_TRANSACTION (from
// transactions an app broadcast through its gateway) webhooks, killed (SIGKILL) as the receiver on
// loopback takes its 25th delivery or, if that came before the transactions were sent, the first
// after, which it never answers; started again on the same database.
// Every outbox row is then delivered at least once, in order per webhook, signed; only a delivery
// the dead process was sending arrives twice.

const NETWORK = 'crucible-testnet';
const chain = defineChain({
  id: 7357001,
  name: 'Crucible Testnet',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [] } },
});
const KILL_AT_DELIVERY = 25;
const BROADCASTS = 3;

let anvil: TestAnvil;
let history: TokenHistory;
let fixture: FixtureDist;
beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: chain.id });
  [history, fixture] = await Promise.all([writeTokenHistory(anvil.client, { blocks: 20, emptyBlocks: 4 }), writeFixtureDist()]);
});
afterAll(async () => {
  await anvil?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe.each(databaseEngines())('address and transaction webhooks killed mid-burst on $name', (engine) => {
  it('delivers every outbox row at least once after a restart, none lost', async () => {
    const location = await engine.location();
    const { database, account } = await prepareAccount(location, [NETWORK]);
    const receiver: TestReceiver = await startReceiver();
    let server: BuiltSite | undefined;
    try {
      const store = createWebhookStore(database.db, { networks: [NETWORK], urlRules: { local: true } });
      const [, , bob, carol] = await anvil.client.getAddresses();
      const hooks = [
        await store.create(account.ownerId, { type: 'ADDRESS_ACTIVITY', network: NETWORK, url: receiver.url, addresses: [bob!] }),
        await store.create(account.ownerId, { type: 'ADDRESS_ACTIVITY', network: NETWORK, url: receiver.url, addresses: [carol!] }),
        await store.create(account.ownerId, { type: 'MINED_TRANSACTION', network: NETWORK, url: receiver.url, appId: account.app.id }),
      ];
      for (const hook of hooks) receiver.keys.set(hook.id, hook.signingKey);
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
        WEBHOOK_TX_POLL_INTERVAL_MS: '100',
        // Nothing in this server may start a devnet of its own: it would outlive the kill.
        PRICES_IN_SERVER: 'off',
        NFT_METADATA_IN_SERVER: 'off',
      };

      let killed: Promise<void> | undefined;
      let held: string | undefined;
      /** Set once the app's transactions are sent: the kill waits for it, so the server is up while they go through its gateway. */
      let armed = false;
      const accepted = new Set<string>();
      receiver.respond = (count, entry) => {
        if (killed || !armed || count < KILL_AT_DELIVERY) {
          accepted.add(entry.payload.id);
          return 200;
        }
        held = entry.payload.id;
        killed = first.kill();
        return 'hold';
      };
      server = await startBuiltSite({ distDir: fixture.distDir, env });
      const first = server;
      // The app's transactions, through the gateway on its key, mined together once sent: their
      // deliveries come after the kill is armed, so one of them at least reaches the receiver after it.
      const wallet = createWalletClient({
        account: privateKeyToAccount(THIRD_PARTY_KEY),
        chain,
        transport: http(`${server.origin}/node/${NETWORK}/v2/${account.app.key}`),
      });
      const sent: Hex[] = [];
      await anvil.client.setAutomine(false);
      try {
        for (let index = 0; index < BROADCASTS; index++) sent.push(await wallet.sendTransaction({ to: randomAddress(), value: 1n }));
        armed = true;
        await anvil.client.mine({ blocks: 1 });
      } finally {
        await anvil.client.setAutomine(true);
      }
      await until(`the receiver at its ${KILL_AT_DELIVERY}th delivery`, async () => killed !== undefined);
      await killed;

      server = await startBuiltSite({ distDir: fixture.distDir, env });
      const head = await anvil.client.getBlock({ blockTag: 'latest' });
      const expected = history.nftBlocks.length * 2 + BROADCASTS;
      await until('the index at the head and every delivery delivered', async () => {
        const checkpoint = await readCheckpoint(database.db, NETWORK);
        if (checkpoint?.block?.hash.toLowerCase() !== (head.hash as Hex).toLowerCase()) return false;
        const rows = await deliveryRows();
        return rows.length === expected && rows.every((row) => row.status === 'delivered');
      });

      const rows = await deliveryRows();
      // Each address webhook: one row per block of the history (bob gets ERC-20 and relics, carol materials).
      for (const hook of hooks.slice(0, 2)) {
        expect(rows.filter((row) => row.webhook_id === hook.id).map((row) => Number(row.block_number))).toEqual(history.nftBlocks.map((block) => block.number));
      }
      // The transaction webhook: one row per broadcast, each naming its transaction.
      const minedRows = rows.filter((row) => row.webhook_id === hooks[2]!.id);
      expect(new Set(minedRows.map((row) => (JSON.parse(row.payload) as { event: { transaction: { hash: string } } }).event.transaction.hash))).toEqual(
        new Set(sent.map((hash) => hash.toLowerCase())),
      );
      expect(accepted).toEqual(new Set(rows.map((row) => row.id)));
      expect(new Set(firstReceipts(receiver.received))).toEqual(accepted);
      for (const hook of hooks) {
        const order = rows.filter((row) => row.webhook_id === hook.id).map((row) => row.id);
        expect(firstReceipts(receiver.received.filter((entry) => entry.payload.webhookId === hook.id))).toEqual(order);
      }
      const attempts = await database.db.selectFrom('webhook_attempts').select(['delivery_id', 'outcome']).orderBy('attempt').execute();
      const abandoned = attempts.filter((attempt) => attempt.outcome === 'abandoned').map((attempt) => attempt.delivery_id);
      expect(abandoned).toContain(held);
      expect(abandoned.length).toBeLessThanOrEqual(hooks.length);
      const ids = receiver.received.map((entry) => entry.payload.id);
      const repeated = ids.filter((id, index) => ids.indexOf(id) !== index);
      for (const id of repeated) expect(abandoned, `delivery ${id} received again`).toContain(id);
      expect(receiver.received.every((entry) => entry.signatureValid && entry.timestampValid)).toBe(true);
    } finally {
      await server?.stop();
      await receiver.close();
      await database.close();
    }

    function deliveryRows() {
      return database.db
        .selectFrom('webhook_deliveries')
        .select(['id', 'webhook_id', 'seq', 'block_number', 'status', 'payload'])
        .orderBy('webhook_id')
        .orderBy('seq')
        .execute();
    }
  });
});
