import { nftProduct } from '../nfts/api/operations.ts';
import { nftMarketProduct } from '../nfts/market/operations.ts';
import { portfolioProduct } from '../portfolio/operations.ts';
import { priceProduct } from '../prices/api/operations.ts';

// Every REST product behind an app key, each a list of operation entries (src/rest/operation.ts): the
// door serves them, the OpenAPI documents describe them. A new operation is one entry in its
// product's list; a new product is one line here and its services in src/runtime/server-runtime.ts.

export const restProducts = { nft: nftProduct, nftMarket: nftMarketProduct, prices: priceProduct, portfolio: portfolioProduct } as const;
