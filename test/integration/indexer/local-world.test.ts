import { getAddress, type Address } from 'viem';
import { describe, expect, it } from 'vitest';
import { DEMO_WALLET, WORLD_DEPLOYER } from '../../../src/chain/world/actors.ts';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { WORLD_HISTORY, worldHoldings } from '../../../src/chain/world/history.ts';
import { WORLD_ADDRESSES } from '../../../src/chain/world/manifest.ts';
import { type WorldErc20Id, worldErc20Address } from '../../../src/chain/world/price-layer.ts';
import { createTransferIndexer } from '../../../src/indexer/indexer.ts';
import { nftsOfOwner, tokensOfHolder } from '../../../src/transfers/queries.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { databaseEngines } from '../../support/postgres.ts';
import { cleanupAfterEach, waitForIndexed } from './token-chain.ts';

// The local world (src/chain/world/) indexed from scratch, checked against the holdings its own
// history says every address ends with: the 500-mint airdrop, trades, a token held once and sent on.
// The indexer knows nothing of the world: it follows every contract's logs.

const NETWORK = 'crucible-testnet';

describe.each(databaseEngines())('the local world indexed on $name', (engine) => {
  const cleanup = cleanupAfterEach();

  it('holds every address’s NFTs and ERC-20 contracts as the world’s history leaves them', async () => {
    const anvil = await startTestAnvil({ chainId: 7357001 });
    cleanup(() => anvil.stop());
    await deployWorld(anvil.rpcUrl, { siteOrigin: 'http://localhost:4321' });
    const database = await engine.open();
    cleanup(() => database.close());
    const indexer = createTransferIndexer({ db: database.db, networks: [{ id: NETWORK, rpcUrl: anvil.rpcUrl }], pollIntervalMs: 50, log: () => {} });
    cleanup(() => indexer.stop());
    indexer.start();
    await waitForIndexed(database.db, NETWORK, anvil.client);

    const holdings = worldHoldings();
    expect(holdings.size).toBeGreaterThan(500);
    for (const [address, held] of holdings) {
      const expectedNfts = [
        ...Object.entries(held.items).flatMap(([collection, ids]) => ids.map((id) => `${WORLD_ADDRESSES[collection as 'relics']}:${id}:1`)),
        ...[...held.materials].filter(([, balance]) => balance > 0n).map(([id, balance]) => `${WORLD_ADDRESSES.materials}:${id}:${balance}`),
      ];
      const page = await nftsOfOwner(database.db, NETWORK, address, { limit: 100 });
      expect({ address, nfts: page.nfts.map((nft) => `${nft.contract}:${nft.tokenId}:${nft.balance}`).sort() }).toEqual({ address, nfts: expectedNfts.sort() });

      // The price layer's pairs hold their seeds, and the deployer WETH and the pairs' liquidity tokens.
      const expectedTokens: Address[] = Object.keys(held.erc20).map((token) => worldErc20Address(token as WorldErc20Id));
      const tokens = await tokensOfHolder(database.db, NETWORK, address, { limit: 100 });
      expect({ address, tokens }).toEqual({ address, tokens: expectedTokens.sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)) });
    }
    expect(holdings.has(getAddress(WORLD_DEPLOYER))).toBe(true);
    // The demo wallet gave and received punks, whose transferPunk also emits an ERC-20-shaped Transfer: not a token it holds.
    expect(WORLD_HISTORY.flat().some((step) => step.action === 'punk-transfer' && (step.from === DEMO_WALLET || step.to === DEMO_WALLET))).toBe(true);
    expect(await tokensOfHolder(database.db, NETWORK, DEMO_WALLET, { limit: 100 })).not.toContain(WORLD_ADDRESSES.punks);
  });
});
