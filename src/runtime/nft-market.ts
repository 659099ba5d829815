import type { Address } from 'viem';
import { loadFaucetNetworks } from '../chain/networks.ts';
import { WORLD_MARKETPLACE } from '../chain/world/market.ts';
import { nftMarketConfig, nodeConfig } from '../config/config.ts';
import type { Database } from '../db/open.ts';
import { type Marketplace, type NftMarketApi, nftMarketApisOf } from '../nfts/market/market-api.ts';
import { pageUrl } from '../site/urls.ts';
import { loadTokenList } from '../token-list/token-list.ts';

// The marketplace endpoints as the server runs them (docs/nft-data.md#which-marketplaces-a-network-reads): each EVM network reads the
// marketplaces NFT_MARKETPLACES_<ID> names; without it, a network whose node is a local devnet
// reads the local world's marketplace, and one on real nodes reads none. Prices are in the
// network's native currency, ERC-20 payments named from the token list.

/** The local world's marketplace as networks read it: the name answers give it. */
const WORLD_MARKETPLACE_READ: Marketplace = { name: 'crucible', address: WORLD_MARKETPLACE.address };

export async function loadNftMarketApis(options: {
  root: string;
  origin: string;
  database: Database;
  /** The EVM networks, which have NFT data under their `{node_url}`. */
  networks: readonly string[];
  /** Local mode (CRUCIBLE_MODE=local): networks without an upstream are the local world's devnets. */
  local: boolean;
  /** Settles when a network's index can answer (docs/token-data.md#which-networks). */
  indexReady?: (network: string) => Promise<void>;
}): Promise<(network: string | null) => NftMarketApi | null> {
  const networks = await loadFaucetNetworks(options.root);
  const upstreams = nodeConfig(networks).upstreams;
  const configured = nftMarketConfig(networks).marketplaces;
  const tokens = await loadTokenList(options.root, { siteOrigin: options.origin });
  const worldGuide = `${new URL(pageUrl('en', 'overviews', 'local-world'), options.origin).href}#marketplace`;
  return nftMarketApisOf(options.networks, (id) => {
    const network = networks.find((candidate) => candidate.id === id)!;
    const localWorld = options.local && (upstreams[id]?.length ?? 0) === 0;
    return {
      db: options.database.db,
      marketplaces: configured[id] ?? (localWorld ? [WORLD_MARKETPLACE_READ] : []),
      nativeCurrency: { symbol: network.symbol, decimals: network.decimals },
      tokenOf: (contract: Address) => tokens.tokenOf(id, contract, { localWorld }),
      // The world's collections are described in its guide; a real network's on its explorer.
      indexReady: options.indexReady,
      collectionUrl: (contract: Address) => (localWorld || !network.explorer ? worldGuide : `${network.explorer}/token/${contract}`),
    };
  });
}
