import { z } from 'zod';

// The prices endpoints' inputs and answers (docs/prices.md#current-prices-by-symbol, docs/prices.md#historical-prices, docs/prices.md#endpoints): the router validates with
// them and /openapi.json describes them.

const MAX_SYMBOLS = 25;
const MAX_ADDRESSES = 25;

const TokenSymbol = z.string().min(1).max(32).describe('A token symbol of the price list, any case.');
const Time = z
  .union([z.string().min(1).max(40), z.number()])
  .describe('ISO 8601 (`2026-08-01T00:00:00Z`; a time without a zone is UTC), or unix seconds as a number or a string of digits.');
const Network = z
  .string()
  .min(1)
  .max(64)
  .describe("A network id of content/networks/ (`ethereum-sepolia`), or the incumbent's name of its chain (`eth-sepolia`); the answer repeats the name given.");
const Address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an address: 0x followed by 40 hexadecimal digits');

export const BySymbolQuery = z.object({
  symbols: z
    .preprocess((value) => (typeof value === 'string' ? [value] : value), z.array(TokenSymbol).min(1).max(MAX_SYMBOLS, `give at most ${MAX_SYMBOLS} symbols`))
    .describe(`The tokens, one \`symbols\` parameter each (1–${MAX_SYMBOLS}).`),
});

export const ByAddressBody = z.object({
  addresses: z
    .array(z.object({ network: Network, address: Address }))
    .min(1)
    .max(MAX_ADDRESSES, `give at most ${MAX_ADDRESSES} addresses`)
    .describe(`The tokens by network and contract (1–${MAX_ADDRESSES}).`),
});

export const HistoricalBody = z.object({
  symbol: TokenSymbol.optional(),
  network: Network.optional(),
  address: Address.optional(),
  startTime: Time,
  endTime: Time,
  interval: z.enum(['5m', '1h', '1d']).default('1d').describe('One point per boundary: 5m (ranges up to 7 days), 1h (30 days), 1d (1 year).'),
});

const TokenPrice = z.object({
  currency: z.literal('usd'),
  value: z.string().describe('A decimal number, up to 18 decimals.'),
  lastUpdatedAt: z.iso.datetime().describe('The newest source observation in the aggregate, UTC.'),
});
const ItemError = z.object({ message: z.string() }).nullable().describe('Why this token has no price (unknown, or no fresh source); null with a price.');

export const PricesBySymbol = z.object({
  data: z.array(z.object({ symbol: z.string(), prices: z.array(TokenPrice), error: ItemError })),
});
export const PricesByAddress = z.object({
  data: z.array(z.object({ network: z.string(), address: z.string(), prices: z.array(TokenPrice), error: ItemError })),
});
const Point = z.object({ value: z.string(), timestamp: z.iso.datetime().describe('The interval boundary, UTC.') });
export const HistoricalPrices = z.union([
  z.object({ symbol: z.string(), currency: z.literal('usd'), data: z.array(Point) }),
  z.object({ network: z.string(), address: z.string(), currency: z.literal('usd'), data: z.array(Point) }),
]);
