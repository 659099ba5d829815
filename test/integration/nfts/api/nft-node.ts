import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { isDemoKey } from '../../../../src/apps/demo.ts';
import { createAppStore, type AppStore } from '../../../../src/apps/store.ts';
import { deployWorld } from '../../../../src/chain/world/deploy.ts';
import type { Database } from '../../../../src/db/open.ts';
import { createTransferIndexer } from '../../../../src/indexer/indexer.ts';
import { createMemoryQuotaCounter } from '../../../../src/limits/memory-quota.ts';
import { createMemoryRateLimiter } from '../../../../src/limits/memory-rate-limiter.ts';
import { createKeyLookup } from '../../../../src/node/access.ts';
import type { UsageRecorder } from '../../../../src/node/gateway.ts';
import { nodeTargetOf } from '../../../../src/node/node-url.ts';
import { startNodeRuntime, type NodeRuntime } from '../../../../src/node/runtime.ts';
import { readNodeConfig } from '../../../../src/config/node.ts';
import { toApiRequest, writeWebResponse } from '../../../../src/server/node-adapter.ts';
import { loadNetworks } from '../../../../src/site/load.ts';
import { startTestAnvil, type TestAnvil } from '../../../support/anvil.ts';
import type { TestDatabaseEngine } from '../../../support/postgres.ts';
import { waitForIndexed } from '../../indexer/token-chain.ts';
import { serveWorldFiles } from '../world-files.ts';
import { worldContractSource, worldMetadataSource } from './world-sources.ts';

// The node gateway with its NFT endpoints over HTTP on 127.0.0.1, in-process so the test hands it
// its metadata and contract sources: a real anvil carrying the local world (its hosted documents
// served by a real HTTP server), the world indexed to its head into a real database, apps in that
// database, and the gateway the production server mounts (startNodeRuntime) routed by nodeTargetOf.
// `x-test-client-ip` stands for the client address, so the demo key's per-IP limit can be tested.

export const NETWORK = 'base-sepolia';
const root = fileURLToPath(new URL('../../../..', import.meta.url));

export interface NftNode {
  origin: string;
  /** `{node_url}` of the network. */
  nodeUrl: string;
  anvil: TestAnvil;
  apps: AppStore;
  usage: Array<Parameters<UsageRecorder['record']>[0]>;
  metadata: ReturnType<typeof worldMetadataSource>;
  contracts: ReturnType<typeof worldContractSource>;
  stop(): Promise<void>;
}

export async function startNftNode(engine: TestDatabaseEngine): Promise<NftNode> {
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch(() => undefined);
  };
  try {
    const files = await serveWorldFiles();
    stops.push(() => files.close());
    const anvil = await startTestAnvil({ chainId: 84532 });
    stops.push(() => anvil.stop());
    await deployWorld(anvil.rpcUrl, { siteOrigin: files.origin });
    const database: Database = await engine.open();
    stops.push(() => database.close());
    const indexer = createTransferIndexer({ db: database.db, networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }], pollIntervalMs: 50, log: () => {} });
    indexer.start();
    await waitForIndexed(database.db, NETWORK, anvil.client);
    await indexer.stop();

    const networks = await loadNetworks(root);
    const apps = createAppStore(database, { keySecret: randomBytes(32), networks: networks.map((network) => network.id) });
    const usage: NftNode['usage'] = [];
    const metadata = worldMetadataSource(anvil.client, {
      gateways: { ipfs: `${files.origin}/ipfs/`, arweave: 'https://arweave.example/' },
      maxBytes: 1024 * 1024,
      blockedAddresses: null,
    });
    const contracts = worldContractSource();
    const server = createServer();
    let requests = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const runtime: NodeRuntime = startNodeRuntime({
      networks,
      // The demo key refills one request a second (burst 20), so a test that empties a client's bucket is
      // not outrun by its refill however slowly the machine answers.
      config: readNodeConfig({ NODE_UPSTREAMS_BASE_SEPOLIA: anvil.rpcUrl, DEMO_KEY_REQUESTS_PER_SECOND: '1' }, networks),
      devnets: null,
      keys: createKeyLookup({ findApp: (key) => apps.findByKey(key), isDemoKey }),
      rateLimiter: createMemoryRateLimiter(),
      quota: createMemoryQuotaCounter(async () => 0),
      usage: { record: (entry) => void usage.push(entry) },
      siteOrigin: origin,
      ipv6PrefixLength: 64,
      nfts: { db: database.db, metadata, contracts, tokenUriTimeout: { defaultMs: 60_000, maxMs: 120_000 } },
    });
    stops.push(async () => runtime.close());
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', origin);
      const path = decodeURIComponent(url.pathname);
      const target = nodeTargetOf(req.headers.host, path, null);
      if (!target) return void res.writeHead(404).end();
      // Each request from a client of its own unless it names one: the demo key's per-IP limit is tested on purpose only.
      const clientIp = (req.headers['x-test-client-ip'] as string | undefined) ?? `198.51.100.${++requests % 250}`;
      void runtime.gateway
        .handle(toApiRequest(req, origin), target, { path: url.pathname, clientIp })
        .then((response) => writeWebResponse(res, response, { head: req.method === 'HEAD' }));
    });
    stops.push(
      () =>
        new Promise((resolve) => {
          server.close(resolve);
          server.closeAllConnections();
        }),
    );
    return { origin, nodeUrl: `${origin}/node/${NETWORK}`, anvil, apps, usage, metadata, contracts, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
