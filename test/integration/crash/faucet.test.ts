import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseEther, type Address, type Hex } from 'viem';
import { privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_TURNSTILE_TOKEN } from '../../../src/faucet/development-token.ts';
import { connectRedis, createRedisLimitStore } from '../../../src/store/redis.ts';
import { openSqliteStore } from '../../../src/store/sqlite.ts';
import type { FaucetStore } from '../../../src/store/types.ts';
import { FAUCET_KEY, randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { databaseEnv, until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { freePort } from '../../support/free-port.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startRedis, type TestRedis } from '../../support/redis.ts';
import { startBuiltSite, type BuiltSite } from '../../support/site.ts';

// The production server killed (SIGKILL) in the middle of a burst of 50 faucet sends, ten at a
// time: at the moment the node takes the 20th drip's broadcast, before its answer gets back (the
// node's proxy takes the batch, kills the server, then lets the node have it). Started again on
// the same database: every acknowledged drip is paid exactly once on the chain and recorded as
// sent, no recipient is paid twice, every reservation settles (sent or released) and no ledger row
// stays pending; each unacknowledged recipient asking again is paid if it was not, refused if it
// was. The faucet's ledger and reservations are SQLite (DATABASE_PATH) whatever DATABASE_URL says;
// with REDIS_URL its reservations and the sender's lock are in Redis, so that variant runs beside
// PostgreSQL.

const NETWORK = 'crucible-testnet';
const DRIP = parseEther('0.1');
const FAUCET_ADDRESS: Address = privateKeyToAddress(FAUCET_KEY);
const SENDS = 50;
const AT_ONCE = 10;
const KILL_AT_BROADCAST = 20;

let anvil: TestAnvil;
let fixture: FixtureDist;
let redis: TestRedis | undefined;
beforeAll(async () => {
  [anvil, fixture] = await Promise.all([startTestAnvil({ chainId: 7357001, blockTimeSeconds: 1 }), writeFixtureDist()]);
});
afterAll(async () => {
  await Promise.all([anvil?.stop(), redis?.stop()]);
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

interface Answer {
  status: number;
  json: { transactionHash?: Hex; statusCode?: string };
}

async function send(server: BuiltSite, address: Address, ip: string): Promise<Answer> {
  const response = await fetch(`${server.origin}/api/faucets/${NETWORK}/send`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ address, turnstileToken: DEV_TURNSTILE_TOKEN }),
  });
  return { status: response.status, json: (await response.json()) as Answer['json'] };
}

/** Every transaction the faucet's wallet sent is mined: none waits behind a nonce gap. */
const faucetSettledOnChain = async () => {
  const [latest, pending] = await Promise.all(
    (['latest', 'pending'] as const).map((blockTag) => anvil.client.getTransactionCount({ address: FAUCET_ADDRESS, blockTag })),
  );
  return latest === pending;
};

const variants = databaseEngines().map((engine) => ({ engine, label: engine.name === 'sqlite' ? 'SQLite' : 'PostgreSQL, with the reservations in Redis' }));

describe.each(variants)('faucet sends killed mid-burst on $label', ({ engine }) => {
  const withRedis = engine.name === 'postgres';

  it('pays each acknowledged drip once, none twice, and settles every reservation after a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'crucible-crash-faucet-'));
    const location = await engine.location();
    if (withRedis) redis ??= await startRedis();
    const env: Record<string, string> = {
      CRUCIBLE_MODE: 'local',
      RPC_URL_CRUCIBLE_TESTNET: anvil.rpcUrl,
      ...databaseEnv(location),
      ...(location.engine === 'sqlite' ? {} : { DATABASE_PATH: join(dir, 'faucet.sqlite') }),
      ...(redis && withRedis ? { REDIS_URL: redis.url } : {}),
      PORT: String(await freePort()),
      // Each recipient asks from an address of its own (X-Forwarded-For), as the public would.
      TRUST_PROXY: '1',
      // Nothing in this server may start a devnet of its own: it would outlive the kill.
      PRICES_IN_SERVER: 'off',
      NFT_METADATA_IN_SERVER: 'off',
    };
    const databasePath = location.engine === 'sqlite' ? location.path : join(dir, 'faucet.sqlite');
    let server: BuiltSite | undefined;
    let proxy: Awaited<ReturnType<typeof startRpcProxy>> | undefined;
    let store: FaucetStore | undefined;
    let closeRedis = async () => {};
    try {
      const recipients = Array.from({ length: SENDS }, (_, i) => ({ address: randomAddress(), ip: `10.${withRedis ? 2 : 1}.${i}.1` }));
      const acknowledged = new Map<Address, Hex>();

      // 1. The burst. The server reaches its node through a proxy that, at the 20th broadcast,
      // kills the server first and then gives the node that whole request (its batch).
      let broadcasts = 0;
      let killed: Promise<void> | undefined;
      proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
        if (call.method !== 'eth_sendRawTransaction' || ++broadcasts < KILL_AT_BROADCAST) return undefined;
        killed ??= first.kill();
        await killed;
        return 'forward-then-drop';
      });
      server = await startBuiltSite({ distDir: fixture.distDir, env: { ...env, RPC_URL_CRUCIBLE_TESTNET: proxy.url } });
      const first = server;
      let next = 0;
      const client = async () => {
        while (next < recipients.length) {
          const { address, ip } = recipients[next++]!;
          const answer = await send(first, address, ip).catch(() => null);
          if (answer?.status === 200 && answer.json.transactionHash) acknowledged.set(address, answer.json.transactionHash);
        }
      };
      await Promise.all(Array.from({ length: AT_ONCE }, client));
      expect(killed, 'the server was killed at the 20th broadcast').toBeDefined();
      await killed;

      // What the crash left: the reservation of the drip the node took unanswered holds its hash.
      const sqlite = openSqliteStore(databasePath);
      store = sqlite;
      if (redis && withRedis) {
        const client = await connectRedis(redis.url);
        closeRedis = () => client.close();
        store = { ...sqlite, ...createRedisLimitStore(client) };
      }
      const left = await store.unsettledReservations(new Date());
      expect(left.filter((entry) => entry.txHash !== null).length).toBeGreaterThan(0);

      // 2. Started again on the same database (and Redis), settling what is older than 2 s every
      // second: no send is asked of it, as a send may take longer than that (waiting for the
      // sender's lock in Redis, which the dead process held).
      server = await startBuiltSite({ distDir: fixture.distDir, env: { ...env, FAUCET_SETTLE_AFTER_SECONDS: '2', FAUCET_RECONCILE_INTERVAL_SECONDS: '1' } });
      const ledgerStore = store;
      await until('every reservation settled and no drip pending', async () => {
        const unsettled = await ledgerStore.unsettledReservations(new Date());
        const ledger = await ledgerStore.listDrips({ networkId: NETWORK });
        return unsettled.length === 0 && ledger.every((row) => row.outcome !== 'pending');
      });
      await until('every transaction of the faucet mined', faucetSettledOnChain);

      // 3. The chain and the ledger agree, recipient by recipient.
      const ledger = await store.listDrips({ networkId: NETWORK });
      const facts = await Promise.all(
        recipients.map(async ({ address }) => {
          const rows = ledger.filter((row) => row.address === address.toLowerCase());
          return {
            address,
            acknowledged: acknowledged.has(address),
            balance: await anvil.client.getBalance({ address }),
            sentHashes: rows.filter((row) => row.outcome === 'sent').map((row) => row.txHash),
          };
        }),
      );
      for (const fact of facts) {
        // Paid once or not at all; the ledger says sent exactly when the chain paid.
        expect([0n, DRIP], fact.address).toContain(fact.balance);
        expect(fact.sentHashes, fact.address).toHaveLength(fact.balance === DRIP ? 1 : 0);
        if (!fact.acknowledged) continue;
        expect(fact.balance, `acknowledged ${fact.address}`).toBe(DRIP);
        expect(fact.sentHashes[0]?.toLowerCase()).toBe(acknowledged.get(fact.address)!.toLowerCase());
      }
      // Every hash the ledger names is sent exactly when the chain has it.
      for (const row of ledger.filter((entry) => entry.txHash && recipients.some((r) => r.address.toLowerCase() === entry.address))) {
        const mined = await anvil.client.getTransactionReceipt({ hash: row.txHash! }).then(
          (receipt) => receipt.status === 'success',
          () => false,
        );
        expect({ hash: row.txHash, outcome: row.outcome }).toEqual({ hash: row.txHash, outcome: mined ? 'sent' : 'failed' });
      }

      // The drips the node took unanswered were paid, and are refused below.
      expect(facts.filter((fact) => !fact.acknowledged && fact.balance === DRIP).length).toBeGreaterThan(0);
      // 4. Each recipient the crash left unanswered asks again, of the server as configured by
      // default: paid if it was not, refused if it was.
      await server.stop();
      server = await startBuiltSite({ distDir: fixture.distDir, env });
      const retried = facts.filter((fact) => !fact.acknowledged);
      const answers = await Promise.all(retried.map((fact) => send(server!, fact.address, recipients.find((r) => r.address === fact.address)!.ip)));
      expect(answers.map((answer) => answer.json.statusCode)).toEqual(retried.map((fact) => (fact.balance === DRIP ? 'rate_limit_exceeded' : 'success')));
      await until('every transaction of the faucet mined', faucetSettledOnChain);
      const balances = await Promise.all(recipients.map(({ address }) => anvil.client.getBalance({ address })));
      expect(balances).toEqual(recipients.map(() => DRIP));
      const finalLedger = await store.listDrips({ networkId: NETWORK });
      for (const { address } of recipients) {
        expect(
          finalLedger.filter((row) => row.address === address.toLowerCase() && row.outcome === 'sent'),
          address,
        ).toHaveLength(1);
      }
    } finally {
      await server?.stop();
      await proxy?.close();
      await store?.close();
      await closeRedis();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
