import { createPublicClient, http, parseAbiItem, type Address } from 'viem';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import type { TokenIndex } from '../../../src/tokens/ports.ts';
import { viemTokenChain } from '../../../src/tokens/viem-chain.ts';
import { startRpcProxy, startTestAnvil } from '../../support/anvil.ts';

// A devnet with the local world deployed, read through a pass-through proxy that counts the
// JSON-RPC methods the token core sends, so tests can assert one eth_call per answer.

export const SITE_ORIGIN = 'http://localhost:4321';

export async function startWorldChain() {
  const anvil = await startTestAnvil({ chainId: 7357001 });
  await deployWorld(anvil.rpcUrl, { siteOrigin: SITE_ORIGIN });
  const sent: string[] = [];
  const proxy = await startRpcProxy(anvil.rpcUrl, async (call) => {
    sent.push(call.method);
    return undefined;
  });
  // No retries: each port call is one request, and the counts are exact.
  const client = createPublicClient({ transport: http(proxy.url, { retryCount: 0 }) });
  return {
    anvil,
    /** Reads anvil directly, uncounted: the cross-checks. */
    direct: anvil.client,
    chain: viemTokenChain(client),
    index: logScanIndex(anvil.client),
    /** Calls the proxy has seen since the last `take`, by method. */
    take(): Record<string, number> {
      const counts: Record<string, number> = {};
      for (const method of sent.splice(0)) counts[method] = (counts[method] ?? 0) + 1;
      return counts;
    },
    async stop() {
      await proxy.close();
      await anvil.stop();
    },
  };
}

const transfer = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/**
 * A TokenIndex read straight from the chain's Transfer logs, until the transfer indexer serves the
 * port: the contracts whose Transfer names the holder, in address order. ERC-721s log Transfer too
 * (with an indexed third topic), so only logs with ERC-20's three topics count.
 */
function logScanIndex(client: Awaited<ReturnType<typeof startTestAnvil>>['client']): TokenIndex {
  return {
    async tokensOfHolder(holder, { after, limit }) {
      const [sent, received] = await Promise.all([
        client.getLogs({ event: transfer, args: { from: holder }, fromBlock: 0n, strict: false }),
        client.getLogs({ event: transfer, args: { to: holder }, fromBlock: 0n, strict: false }),
      ]);
      const contracts = new Set<Address>();
      for (const log of [...sent, ...received]) if (log.topics.length === 3) contracts.add(log.address.toLowerCase() as Address);
      return [...contracts]
        .sort()
        .filter((contract) => after === undefined || contract > after.toLowerCase())
        .slice(0, limit);
    },
  };
}
