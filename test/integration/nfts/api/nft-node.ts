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
import type { UsageRecorder } from '../../../../src/admission/admission.ts';
import { createKeyLookup } from '../../../../src/admission/callers.ts';
import { nftApisOf } from '../../../../src/nfts/api/handlers.ts';
import { loadCollectionsRegistry } from '../../../../src/nfts/contracts/registry.ts';
import { nodeAddressOf, nodeTargetAt, nodeUrlOf } from '../../../../src/node/node-url.ts';
import { startNodeRuntime, type NodeRuntime } from '../../../../src/runtime/node-gateway.ts';
import { createRestDoor, mountProduct } from '../../../../src/rest/door.ts';
import { restProducts } from '../../../../src/runtime/rest-products.ts';
import { readNodeConfig } from '../../../../src/config/node.ts';
import { toApiRequest, writeWebResponse } from '../../../../src/server/node-adapter.ts';
import { loadNetworks } from '../../../../src/site/read-content.ts';
import { startTestAnvil, type TestAnvil } from '../../../support/anvil.ts';
import type { TestDatabaseEngine } from '../../../support/postgres.ts';
import { waitForIndexed } from '../../indexer/token-chain.ts';
import { serveWorldFiles } from '../world-files.ts';
import { worldContractSource, worldMetadataSource } from './world-sources.ts';

// The NFT endpoints over HTTP on 127.0.0.1, in-process so the test hands them their metadata and
// contract sources: a real anvil carrying the local world (its hosted documents served by a real
// HTTP server), the world indexed to its head into a real database, apps in that database, and the
// node runtime and keyed REST door the production server mounts, routed as it routes {node_url}.
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
    const registry = await loadCollectionsRegistry(root, { siteOrigin: files.origin });
    const server = createServer();
    let requests = 0;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const runtime: NodeRuntime = startNodeRuntime({
      networks,
      // The demo key holds 20 getNFTs (100 CU each) and refills one a second, so a test that empties a
      // client's bucket is not outrun by its refill however slowly the machine answers.
      config: readNodeConfig(
        { NODE_UPSTREAMS_BASE_SEPOLIA: anvil.rpcUrl, DEMO_KEY_COMPUTE_UNITS_PER_SECOND: '100', DEMO_KEY_COMPUTE_UNIT_BURST: '2000' },
        networks,
      ),
      devnets: null,
      keys: createKeyLookup({ findApp: (key) => apps.findByKey(key), isDemoKey }),
      rateLimiter: createMemoryRateLimiter(),
      quota: createMemoryQuotaCounter(async () => 0),
      usage: { record: (entry) => void usage.push(entry) },
      siteOrigin: origin,
      ipv6PrefixLength: 64,
    });
    stops.push(async () => runtime.close());
    const evm = networks.filter((network) => network.vm !== 'starknet' && network.chainId !== null).map((network) => network.id);
    const door = createRestDoor({
      admission: runtime.admission,
      siteOrigin: origin,
      networks: runtime.gateway.networks,
      nodeUrlOf: (network) => nodeUrlOf(network, { siteOrigin: origin, nodeDomain: null }),
      products: [
        mountProduct(
          restProducts.nft,
          nftApisOf(evm, {
            db: database.db,
            metadata,
            contracts,
            collections: {
              collectionOf: (network, slug) => registry.collectionOf(network, slug, { localWorld: true }),
              nativeCurrencyOf: (network) => networks.find((known) => known.id === network)?.nativeCurrency.symbol ?? null,
            },
            tokenUriTimeout: { defaultMs: 60_000, maxMs: 120_000 },
            airdropMinRecipients: 100,
            ipv6PrefixLength: 64,
          }),
        ),
      ],
    });
    const log = { info: () => {}, error: () => {} };
    server.on('request', (req, res) => {
      const url = new URL(req.url ?? '/', origin);
      const path = decodeURIComponent(url.pathname);
      const address = nodeAddressOf(req.headers.host, path, null);
      if (!address) return void res.writeHead(404).end();
      // Each request from a client of its own unless it names one: the demo key's per-IP limit is tested on purpose only.
      const clientIp = (req.headers['x-test-client-ip'] as string | undefined) ?? `198.51.100.${++requests % 250}`;
      const target = nodeTargetAt(address);
      const request = toApiRequest(req, origin);
      const context = { path: url.pathname, clientIp, requestId: String(requests), log };
      void (target.kind === 'unknown-path' ? door.handleNode(request, address, context) : runtime.gateway.handle(request, target, context)).then((response) =>
        writeWebResponse(res, response, { head: req.method === 'HEAD' }),
      );
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
