import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import type { RequestContext } from '../../../src/api/operation.ts';
import type { FaucetHandlers } from '../../../src/faucet/api/operations.ts';
import { createSiteApi, siteOpenApiDocument } from '../../../src/runtime/site-api.ts';
import { createTransferIndexer } from '../../../src/indexer/indexer.ts';
import { registerIndexerMetrics } from '../../../src/indexer/metrics.ts';
import { indexerStatus } from '../../../src/transfers/queries.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { createResponseValidator } from '../../support/openapi-validator.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, deployTokenSet, devAccounts, tokenMoves, waitForIndexed } from './token-chain.ts';

// The indexer's progress where operators read it: GET /api/indexer/status (validated against the
// OpenAPI document) and the Prometheus metrics, over a real indexer on anvil.

const NETWORK = 'crucible-testnet';
const ORIGIN = 'http://localhost:4321';
const networks = [{ id: 'crucible-testnet' }, { id: 'ethereum-sepolia' }];
const unusedFaucet: FaucetHandlers = {
  send: () => {
    throw new Error('the faucet is not part of this test');
  },
  status: () => {
    throw new Error('the faucet is not part of this test');
  },
};
const context: RequestContext = { requestId: 'test', clientIp: null, log: { info: () => {}, error: () => {} } };

describe.each(databaseEngines())('indexer progress on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  it('answers GET /api/indexer/status as the OpenAPI document says, and exposes the metrics', async () => {
    const anvil = await startTestAnvil({ chainId: 7357001 });
    cleanup(() => anvil.stop());
    const database = await engine.open();
    cleanup(() => database.close());
    const [owner, alice] = await devAccounts(anvil.client);
    const tokens = await deployTokenSet(anvil.client, owner!);
    await tokenMoves(anvil.client, tokens).erc20(owner!, alice!, 1n);

    const indexer = createTransferIndexer({ db: database.db, networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }], pollIntervalMs: 50, log: () => {} });
    cleanup(() => indexer.stop());
    indexer.start();
    await waitForIndexed(database.db, NETWORK, anvil.client);
    const head = Number(await anvil.client.getBlockNumber({ cacheTime: 0 }));

    const api = createSiteApi({
      origin: ORIGIN,
      networks,
      faucet: unusedFaucet,
      indexerStatus: () => indexerStatus(database.db, { networks: networks.map((network) => network.id) }),
    });
    const response = await api.router.handle(new Request(`${ORIGIN}/api/indexer/status`), context);
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const validator = createResponseValidator(siteOpenApiDocument({ origin: ORIGIN, networks }));
    expect(validator.check('GET', '/api/indexer/status', 200, response.headers.get('content-type'), body).errors).toEqual([]);
    expect(body).toEqual({
      networks: [
        { network: NETWORK, state: 'following', headBlock: head, indexedBlock: head, lag: 0, updatedAt: expect.any(String), lastError: null },
        { network: 'ethereum-sepolia', state: 'waiting', headBlock: null, indexedBlock: null, lag: null, updatedAt: null, lastError: null },
      ],
    });

    const registry = new Registry();
    registerIndexerMetrics(registry, indexer);
    const metrics = await registry.metrics();
    expect(metrics).toContain(`crucible_indexer_indexed_block{network="${NETWORK}"} ${head}`);
    expect(metrics).toContain(`crucible_indexer_lag_blocks{network="${NETWORK}"} 0`);
    expect(metrics).toContain(`crucible_indexer_leader{network="${NETWORK}"} 1`);
    // WorldToken's mint and the transfer.
    expect(metrics).toContain(`crucible_indexer_transfers_ingested_total{network="${NETWORK}"} 2`);
    expect(metrics).toContain(`crucible_indexer_reorgs_total{network="${NETWORK}"} 0`);
  });

  it('is not served by an API without an indexer (404), yet described in the document', async () => {
    const api = createSiteApi({ origin: ORIGIN, networks, faucet: unusedFaucet });
    const response = await api.router.handle(new Request(`${ORIGIN}/api/indexer/status`), context);
    expect(response.status).toBe(404);
    const document = siteOpenApiDocument({ origin: ORIGIN, networks }) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toContain('/api/indexer/status');
  });
});
