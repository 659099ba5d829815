import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openDatabase } from '../../../src/db/open.ts';
import { randomAddress, startRpcProxy, startTestAnvil, type TestAnvil } from '../../support/anvil.ts';
import { until } from '../../support/crash.ts';
import { writeFixtureDist, type FixtureDist } from '../../support/fixture-dist.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { startBuiltSite } from '../../support/site.ts';
import { fetchFresh, rpcFresh } from './http.ts';

// A server process stopped by SIGTERM, as a load balancer's deploy or `npm start`'s supervisor
// stops it (docs/operating-at-scale.md#health): it stops accepting connections at once, answers
// the request it is in the middle of (held at the node until the test lets it go), closes its
// WebSocket clients with 1001, and its indexer hands the network's lease back before it exits.

const NETWORK = 'crucible-testnet';
const sqlite = databaseEngines().find((engine) => engine.name === 'sqlite')!;
let anvil: TestAnvil;
let fixture: FixtureDist;
beforeAll(async () => {
  [anvil, fixture] = await Promise.all([startTestAnvil({ chainId: 7357001 }), writeFixtureDist()]);
});
afterAll(async () => {
  await anvil?.stop();
  if (fixture) await rm(fixture.root, { recursive: true, force: true });
});

describe('a server process on SIGTERM', () => {
  it('stops accepting, finishes the request in flight, closes WebSockets with 1001 and hands its lease back', async () => {
    const held = Promise.withResolvers<void>();
    let balanceAsked = false;
    const proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
      if (call.method !== 'eth_getBalance') return undefined;
      balanceAsked = true;
      await held.promise;
      return undefined;
    });
    const location = await sqlite.location();
    if (location.engine !== 'sqlite') throw new Error('a SQLite location');
    const server = await startBuiltSite({
      distDir: fixture.distDir,
      env: {
        DATABASE_PATH: location.path,
        NODE_UPSTREAMS_CRUCIBLE_TESTNET: proxy.url,
        INDEXER_IN_SERVER: 'on',
        INDEXER_NETWORKS: NETWORK,
        INDEXER_POLL_INTERVAL_MS: '50',
        WEBHOOKS_IN_SERVER: 'off',
        PRICES_IN_SERVER: 'off',
        NFT_METADATA_IN_SERVER: 'off',
      },
    });
    const database = await openDatabase(location);
    try {
      const leases = () => database.db.selectFrom('indexer_leases').select('holder').where('network', '=', NETWORK).execute();
      await until('the server’s indexer to lead', async () => (await leases()).length === 1);

      const node = `${server.origin}/node/${NETWORK}/v2/demo`;
      const socket = new WebSocket(node.replace(/^http/, 'ws'));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));

      const inFlight = rpcFresh(node, 'eth_getBalance', [randomAddress(), 'latest']);
      await until('the call to reach the node', async () => balanceAsked);

      const stopped = server.stop();
      expect(await closed).toBe(1001);
      // No new connection is taken while the one in flight is answered.
      await until('new connections refused', () =>
        fetchFresh(`${server.origin}/healthz`).then(
          () => false,
          () => true,
        ),
      );
      held.resolve();
      const answer = await inFlight;
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ jsonrpc: '2.0', result: '0x0' });
      await stopped;
      // The lease is given back, not left to expire.
      expect(await leases()).toEqual([]);
    } finally {
      held.resolve();
      await server.stop();
      await database.close();
      await proxy.close();
    }
  }, 120_000);
});
