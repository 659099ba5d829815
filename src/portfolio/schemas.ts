import { z } from 'zod';

// The portfolio endpoints' bodies and answers (docs/portfolio.md): the keyed REST door validates
// the bodies with them before the call is charged, and /openapi.json describes both. The answers
// are alchemy-sdk 3.6.5's portfolio types, which the SDK hands its caller as they come.

/** Wallets and networks per call: the incumbent's limits, or the contract's (2 × 5) where it allows more (docs/portfolio.md#limits). */
const PORTFOLIO_LIMITS = {
  tokens: { addresses: 2, networks: 5 },
  nfts: { addresses: 2, networks: 15 },
  transactions: { addresses: 2, networks: 5 },
} as const;

/** Items per page: tokens (no pageSize in the incumbent's API), NFTs and collections (`pageSize`), transactions (`limit`). */
export const PAGE_SIZES = {
  tokens: 100,
  nfts: { default: 100, max: 100 },
  transactions: { default: 25, max: 100 },
} as const;

const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x followed by 40 hexadecimal digits');
const NetworkName = z
  .string()
  .min(1)
  .max(64)
  .describe(
    "A network id of content/networks/ (`ethereum-sepolia`), or the incumbent's name of its chain (`eth-sepolia`, `ETH_SEPOLIA`); answers repeat the name given.",
  );

function Addresses(limits: { addresses: number; networks: number }) {
  return z
    .array(
      z.object({
        address: Address.describe('A wallet.'),
        networks: z
          .array(NetworkName)
          .min(1, 'name at least one network')
          .max(limits.networks, `name at most ${limits.networks} networks per address`)
          .describe(`The networks to read the wallet on (1–${limits.networks}).`),
      }),
    )
    .min(1, 'give at least one address')
    .max(limits.addresses, `give at most ${limits.addresses} addresses`)
    .describe(`The wallets, each with its networks (1–${limits.addresses} wallets, 1–${limits.networks} networks each).`);
}

const Flag = (description: string) => z.boolean().default(true).describe(description);
const PageKey = z.string().min(1).max(500).optional().describe('The `pageKey` of the previous answer, as given (opaque).');
const PageSize = z.number().int().min(1).max(PAGE_SIZES.nfts.max).default(PAGE_SIZES.nfts.default).describe(`Items per page, 1–${PAGE_SIZES.nfts.max}.`);

export const TokensBody = z.object({
  addresses: Addresses(PORTFOLIO_LIMITS.tokens),
  withMetadata: Flag("true: each token's name, symbol, decimals and logo."),
  withPrices: Flag("true: each token's current price, where the price list has it."),
  includeNativeTokens: Flag("true: each network's coin first, with tokenAddress null."),
  pageKey: PageKey,
});
export const TokenBalancesBody = z.object({
  addresses: Addresses(PORTFOLIO_LIMITS.tokens),
  includeNativeTokens: Flag("true: each network's coin first, with tokenAddress null."),
  pageKey: PageKey,
});
export const NftsBody = z.object({
  addresses: Addresses(PORTFOLIO_LIMITS.nfts),
  withMetadata: Flag('false: each NFT as its contract, token id, type and balance only.'),
  pageKey: PageKey,
  pageSize: PageSize,
});
export const TransactionsBody = z
  .object({
    addresses: Addresses(PORTFOLIO_LIMITS.transactions),
    before: z.string().min(1).max(500).optional().describe('The `before` of an answer: the page of newer transactions.'),
    after: z.string().min(1).max(500).optional().describe('The `after` of an answer: the page of older transactions.'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(PAGE_SIZES.transactions.max)
      .default(PAGE_SIZES.transactions.default)
      .describe(`Transactions per page, 1–${PAGE_SIZES.transactions.max}.`),
  })
  .refine((body) => body.before === undefined || body.after === undefined, { message: 'give before or after, not both', path: ['before'] });

export type TokensBody = z.output<typeof TokensBody>;
export type TokenBalancesBody = z.output<typeof TokenBalancesBody>;
export type NftsBody = z.output<typeof NftsBody>;
export type TransactionsBody = z.output<typeof TransactionsBody>;

const nullable = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);
const HexQuantity = z.string().regex(/^0x[0-9a-f]+$/);
const NextPage = nullable(z.string()).describe('Pass it back as pageKey for the next page; null on the last.');

const TokenMetadata = z.object({
  name: nullable(z.string()),
  symbol: nullable(z.string()),
  decimals: nullable(z.int()),
  logo: nullable(z.string()),
});
const TokenPrice = z.object({
  currency: z.literal('usd'),
  value: z.string().describe('A decimal number.'),
  lastUpdatedAt: z.iso.datetime(),
});
const TokenOfWallet = {
  network: z.string().describe('The network as the request named it.'),
  address: z.string().describe('The wallet, as the request gave it.'),
  tokenAddress: nullable(z.string()).describe("The token's contract, lower case; null for the network's coin."),
  tokenBalance: HexQuantity.describe('The balance in the smallest unit, a 32-byte hex quantity.'),
};

export const TokensAnswer = z.object({
  data: z.object({
    tokens: z.array(
      z.object({
        ...TokenOfWallet,
        tokenMetadata: TokenMetadata.optional().describe('With withMetadata.'),
        tokenPrices: z.array(TokenPrice).describe('Empty without withPrices, or where the price list has no fresh price.'),
        error: nullable(z.string()),
      }),
    ),
    pageKey: NextPage,
  }),
});
export const TokenBalancesAnswer = z.object({ data: z.object({ tokens: z.array(z.object(TokenOfWallet)), pageKey: NextPage }) });

const NftItem = z
  .looseObject({
    network: z.string(),
    address: z.string().describe('The wallet, as the request gave it.'),
    contract: z.looseObject({ address: z.string() }),
    tokenId: z.string(),
    tokenType: z.string(),
    balance: z.string(),
  })
  .describe('The NFT as getNFTsForOwner answers it (docs/nft-data.md#nft-object), with the network and wallet it was read for.');
export const NftsAnswer = z.object({
  data: z.object({ ownedNfts: z.array(NftItem), totalCount: z.int().describe('NFTs held over every wallet and network asked.'), pageKey: NextPage }),
});
const CollectionItem = z.object({
  network: z.string(),
  address: z.string(),
  contract: z
    .looseObject({ address: z.string(), totalBalance: z.string(), numDistinctTokensOwned: z.int() })
    .describe("The contract's facts as getContractMetadata answers them (with withMetadata), and what the wallet holds of it."),
});
export const NftCollectionsAnswer = z.object({
  data: z.object({
    contracts: z.array(CollectionItem),
    totalCount: z.int().describe('Contracts held over every wallet and network asked.'),
    pageKey: NextPage,
  }),
});

const Log = z.object({
  address: z.string(),
  contractAddress: z.string(),
  topics: z.array(z.string()),
  data: z.string(),
  logIndex: z.int(),
  blockNumber: z.int(),
  blockHash: z.string(),
  transactionHash: z.string(),
  transactionIndex: z.int(),
  removed: z.boolean(),
});
const Transaction = z.object({
  network: z.string(),
  address: z.string().describe('The wallet, as the request gave it.'),
  hash: z.string(),
  transactionHash: z.string(),
  timeStamp: nullable(z.iso.datetime()),
  blockNumber: z.int(),
  blockHash: z.string(),
  transactionIndex: z.int(),
  nonce: z.int(),
  from: z.string(),
  to: nullable(z.string()),
  fromAddress: z.string(),
  toAddress: nullable(z.string()),
  contractAddress: nullable(z.string()),
  value: z.string().describe('Wei, decimal.'),
  gasUsed: z.string(),
  cumulativeGasUsed: z.string(),
  effectiveGasPrice: z.string(),
  status: z.int(),
  type: z.int(),
  logsBloom: z.string(),
  logs: z.array(Log).describe('The logs that name the wallet in a topic.'),
  internalTxns: z.array(z.object({ fromAddress: z.string(), toAddress: z.string(), value: z.string() })),
});
export const TransactionsAnswer = z.object({
  before: z.string().optional().describe('Pass it back as before for the newer page; absent on the first.'),
  after: z.string().optional().describe('Pass it back as after for the older page; absent on the last.'),
  totalCount: z.int().describe('Transactions over every wallet and network asked.'),
  transactions: z.array(Transaction).describe('Wallet by wallet and network by network as asked, newest first within each.'),
});

export type TokensAnswer = z.output<typeof TokensAnswer>;
export type TokenBalancesAnswer = z.output<typeof TokenBalancesAnswer>;
export type NftsAnswer = z.output<typeof NftsAnswer>;
export type NftCollectionsAnswer = z.output<typeof NftCollectionsAnswer>;
export type TransactionsAnswer = z.output<typeof TransactionsAnswer>;
export type TransactionBody = z.output<typeof Transaction>;
