import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { openDatabase } from '../../../src/db/open.ts';
import { createTransferIndexer } from '../../../src/indexer/indexer.ts';
import { databaseTokenIndex } from '../../../src/runtime/adapters/database-token-index.ts';
import { viemTokenChain } from '../../../src/tokens/viem-chain.ts';
import { startRpcProxy, startTestAnvil } from '../../support/anvil.ts';
import { waitForIndexed } from '../indexer/token-chain.ts';

// A devnet with the local world deployed, read through a pass-through proxy that counts the
// JSON-RPC methods the token core sends, so tests can assert one eth_call per answer; its
// transfers indexed by the transfer indexer into a SQLite file, read as the gateway reads them.

export const SITE_ORIGIN = 'http://localhost:4321';
const NETWORK = 'crucible-testnet';

export async function startWorldChain() {
  const anvil = await startTestAnvil({ chainId: 7357001 });
  const folder = await mkdtemp(join(tmpdir(), 'crucible-tokens-'));
  const database = await openDatabase({ engine: 'sqlite', path: join(folder, 'crucible.sqlite') });
  const sent: string[] = [];
  const proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
    sent.push(call.method);
    return undefined;
  });
  const stop = async () => {
    await proxy.close();
    await database.close();
    await rm(folder, { recursive: true, force: true });
    await anvil.stop();
  };
  try {
    await deployWorld(anvil.rpcUrl, { siteOrigin: SITE_ORIGIN });
    // Straight to anvil, not through the proxy: the index is built before the tests and its calls are not counted.
    const indexer = createTransferIndexer({ db: database.db, networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }], pollIntervalMs: 50, log: () => {} });
    indexer.start();
    await waitForIndexed(database.db, NETWORK, anvil.client).finally(() => indexer.stop());
  } catch (error) {
    await stop();
    throw error;
  }
  // No retries: each port call is one request, and the counts are exact.
  const client = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
  return {
    anvil,
    /** Reads anvil directly, uncounted: the cross-checks. */
    direct: anvil.client,
    chain: viemTokenChain(client),
    /** The index as of the world's last block: the tests add no transfers. */
    index: databaseTokenIndex(database.db, NETWORK),
    /** Calls the proxy has seen since the last `take`, by method. */
    take(): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const method of sent.splice(0)) counts[method] = (counts[method] ?? 0) + 1;
      return counts;
    },
    stop,
  };
}
