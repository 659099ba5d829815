import { z } from 'zod';
import type { ResponseSpec } from '../api/operation.ts';
import { errorResponseSpec } from '../api/responses.ts';
import { defineRestOperation, type RestProduct } from '../rest/operation.ts';
import { nftCollectionsByWallet, nftsByWallet, tokenBalancesByWallet, tokensByWallet, transactionsByWallet } from './portfolio.ts';
import {
  NftCollectionsAnswer,
  NftsAnswer,
  NftsBody,
  TokenBalancesAnswer,
  TokenBalancesBody,
  TokensAnswer,
  TokensBody,
  TransactionsAnswer,
  TransactionsBody,
} from './schemas.ts';
import type { PortfolioApi } from './sources.ts';

// The portfolio endpoints under `<site origin>/data/v1/<key>/` (docs/portfolio.md), one entry each
// for the keyed REST door (src/rest/), as alchemy-sdk 3.6.5's `portfolio` namespace calls them with
// its `url` set there. Each call is one price whatever it names: a page reads up to 100 balances,
// NFTs or collections (an NFT page is what getNFTs costs, 100) and each pair's metadata and prices,
// or up to 100 transactions with a receipt each from the nodes.

const COSTS = {
  tokens: 150,
  balances: 100,
  nfts: 200,
  collections: 100,
  transactions: 250,
} as const;

const prefix = '/data/v1/{apiKey}';
const ApiKey = z.object({ apiKey: z.string().describe("An app's key, or `demo` (limited per client IP).") });
const BODY_BYTES = 16 * 1024;
const tags = ['Portfolio'];
const costs = (computeUnits: number) => `Costs ${computeUnits} compute units, taken from the app's rate and monthly quota.`;

function responses(answer: z.ZodType, description: string): Record<number, ResponseSpec> {
  return {
    200: { description, content: { 'application/json': answer } },
    400: errorResponseSpec(
      'bad_request',
      'the body is invalid, a network is unknown or named twice for a wallet, or a pageKey is not one this endpoint gave (the message names which), or the call costs more compute units than the key may spend at once.',
    ),
    401: errorResponseSpec('unauthorized', 'the key is missing or unknown.'),
    403: errorResponseSpec('forbidden', 'the app is disabled, or not allowed from this Origin.'),
    429: errorResponseSpec('rate_limited', 'over the rate or the monthly quota; Retry-After says when to come back.'),
    500: errorResponseSpec('internal_error', 'the server failed.'),
    503: errorResponseSpec('upstream_unavailable', "a network's index or nodes cannot answer now."),
  };
}

const portfolioOperations = [
  defineRestOperation<PortfolioApi, z.ZodObject, typeof TokensBody>({
    operationId: 'getTokensByWallet',
    method: 'POST',
    paths: [{ path: `${prefix}/assets/tokens/by-address`, operationId: 'getTokensByWallet' }],
    summary: 'Tokens of several wallets on several networks, with metadata and prices (docs/portfolio.md#tokens-by-wallet).',
    description: `Each wallet's coin and ERC-20 balances on each network named, with each token's metadata and current price. ${costs(COSTS.tokens)}`,
    tags,
    body: { schema: TokensBody, maxBytes: BODY_BYTES },
    computeUnits: COSTS.tokens,
    meteredAs: 'portfolio/tokens',
    responses: responses(TokensAnswer, 'Up to 100 tokens, wallet by wallet and network by network as asked.'),
    handler: ({ body }, api) => tokensByWallet(api, body),
  }),
  defineRestOperation<PortfolioApi, z.ZodObject, typeof TokenBalancesBody>({
    operationId: 'getTokenBalancesByWallet',
    method: 'POST',
    paths: [{ path: `${prefix}/assets/tokens/balances/by-address`, operationId: 'getTokenBalancesByWallet' }],
    summary: 'Token balances of several wallets on several networks (docs/portfolio.md#token-balances-by-wallet).',
    description: `The balances alone, as tokens/by-address lists them. ${costs(COSTS.balances)}`,
    tags,
    body: { schema: TokenBalancesBody, maxBytes: BODY_BYTES },
    computeUnits: COSTS.balances,
    meteredAs: 'portfolio/token-balances',
    responses: responses(TokenBalancesAnswer, 'Up to 100 balances, wallet by wallet and network by network as asked.'),
    handler: ({ body }, api) => tokenBalancesByWallet(api, body),
  }),
  defineRestOperation<PortfolioApi, z.ZodObject, typeof NftsBody>({
    operationId: 'getNftsByWallet',
    method: 'POST',
    paths: [{ path: `${prefix}/assets/nfts/by-address`, operationId: 'getNftsByWallet' }],
    summary: 'NFTs of several wallets on several networks (docs/portfolio.md#nfts-by-wallet).',
    description: `Each NFT as getNFTsForOwner answers it, with the network and wallet. ${costs(COSTS.nfts)}`,
    tags,
    body: { schema: NftsBody, maxBytes: BODY_BYTES },
    computeUnits: COSTS.nfts,
    meteredAs: 'portfolio/nfts',
    responses: responses(NftsAnswer, 'One page of NFTs, wallet by wallet and network by network as asked.'),
    handler: ({ body }, api) => nftsByWallet(api, body),
  }),
  defineRestOperation<PortfolioApi, z.ZodObject, typeof NftsBody>({
    operationId: 'getNftCollectionsByWallet',
    method: 'POST',
    paths: [{ path: `${prefix}/assets/nfts/contracts/by-address`, operationId: 'getNftCollectionsByWallet' }],
    summary: 'NFT collections (contracts) of several wallets on several networks (docs/portfolio.md#nft-collections-by-wallet).',
    description: `Each contract the wallet holds NFTs of, with its facts and the wallet's holdings. ${costs(COSTS.collections)}`,
    tags,
    body: { schema: NftsBody, maxBytes: BODY_BYTES },
    computeUnits: COSTS.collections,
    meteredAs: 'portfolio/nft-collections',
    responses: responses(NftCollectionsAnswer, 'One page of contracts, wallet by wallet and network by network as asked.'),
    handler: ({ body }, api) => nftCollectionsByWallet(api, body),
  }),
  defineRestOperation<PortfolioApi, z.ZodObject, typeof TransactionsBody>({
    operationId: 'getTransactionsByWallet',
    method: 'POST',
    paths: [{ path: `${prefix}/transactions/history/by-address`, operationId: 'getTransactionsByWallet' }],
    summary: 'Transaction history of several wallets on several networks (docs/portfolio.md#transactions-by-wallet).',
    description: `The transactions that moved a wallet's coin or tokens, with their receipts, newest first. ${costs(COSTS.transactions)}`,
    tags,
    body: { schema: TransactionsBody, maxBytes: BODY_BYTES },
    computeUnits: COSTS.transactions,
    meteredAs: 'portfolio/transactions',
    responses: responses(TransactionsAnswer, 'One page of transactions (no `data` wrapper, as the SDK reads it).'),
    handler: ({ body }, api) => transactionsByWallet(api, body),
  }),
];

/** Wallets across networks under `/data/v1/<key>/`, on the site's origin; calls count under the product's own name. */
export const portfolioProduct: RestProduct<PortfolioApi> = {
  name: 'portfolio',
  mount: { at: 'site', prefix: '/data/' },
  queryStyle: 'plain',
  scope: { name: 'portfolio' },
  apiKey: ApiKey,
  internalErrorMessage: 'The server failed while reading portfolio data.',
  operations: portfolioOperations,
};
