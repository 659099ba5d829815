import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ResponseSpec } from '../../api/operation.ts';
import { errorResponseSpec } from '../../api/responses.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import { CrucibleError } from '../../errors/crucible-error.ts';
import { defineRestOperation, type RestProduct } from '../../rest/operation.ts';
import type { PricePlan } from '../plan.ts';
import { bucketStart, currentPrices, PRICE_INTERVALS, pricePoints, type CurrentPrice, type PriceInterval } from '../store.ts';
import { ByAddressBody, BySymbolQuery, HistoricalBody, HistoricalPrices, PricesByAddress, PricesBySymbol } from './schemas.ts';
import { parseTime } from './time.ts';

// The prices endpoints under `{prices_url}/prices/v1/<key>/tokens/` (docs/prices.md), one entry
// each for the keyed REST door (src/rest/): the key, the app and the compute units as for the node
// API, then answers from what the sampler recorded. An unknown token, or one with no fresh price,
// is an item's `error` in a 200 answer; a request that is wrong as a whole is a 4xx with the Error
// body (a thrown CrucibleError).

/** Compute units per call: a current price is one row per token; history reads up to 366 or 2,016 points. */
const PRICE_ENDPOINTS = {
  'by-symbol': { computeUnits: 20 },
  'by-address': { computeUnits: 20 },
  historical: { computeUnits: 40 },
} as const;

/** The longest range each interval answers (docs/prices.md#historical-prices). */
const RANGE_CAPS: Record<PriceInterval, { ms: number; words: string }> = {
  '5m': { ms: 7 * 86_400_000, words: '7 days' },
  '1h': { ms: 30 * 86_400_000, words: '30 days' },
  '1d': { ms: 366 * 86_400_000, words: '1 year' },
};

export interface PricesApi {
  db: Kysely<DatabaseSchema>;
  plan: PricePlan;
  /** Whether a network's node is a local devnet, where the world's addresses name its tokens. */
  localWorld(network: string): boolean;
  /** The network id a name stands for (an id, or the incumbent's name of its chain), or null; answers repeat the name asked. */
  networkIdOf(name: string): string | null;
  /** A current price older than this (since it was sampled) is no price: the sampler has stopped. */
  staleAfterMs: number;
  now?: () => number;
}

const prefix = '/prices/v1/{apiKey}/tokens';

const ApiKey = z.object({ apiKey: z.string().describe("An app's key, or `demo` (limited per client IP).") });

const badRequest = (message: string) => new CrucibleError('bad_request', message);

/** A token's item: its current price, or why it has none. */
function priceItem(api: PricesApi, symbol: string | null, asked: string, rows: ReadonlyMap<string, CurrentPrice>) {
  if (symbol === null) return { prices: [], error: { message: `No price for ${asked}: it is not in Crucible's price list.` } };
  const row = rows.get(symbol);
  const at = (api.now ?? Date.now)();
  if (!row) return { prices: [], error: { message: `No price for ${symbol} yet: its sources have not been sampled.` } };
  if (at - row.sampled_at > api.staleAfterMs)
    return { prices: [], error: { message: `No fresh price for ${symbol}: it was last sampled at ${iso(row.sampled_at)}, and sampling has stopped.` } };
  if (row.value === null || row.observed_at === null) return { prices: [], error: { message: `No fresh price for ${symbol}: ${row.error}` } };
  return { prices: [{ currency: 'usd' as const, value: row.value, lastUpdatedAt: iso(row.observed_at) }], error: null };
}

/**
 * The current prices of tokens of one network (null: the network's coin, by its symbol), each [] where
 * there is no fresh one: what the portfolio's tokens list (docs/portfolio.md#tokens-by-wallet).
 */
export async function currentTokenPrices(api: PricesApi, network: string, tokens: ReadonlyArray<string | null>, coinSymbol: string) {
  const symbols = tokens.map((address) =>
    address === null ? api.plan.symbolOf(coinSymbol) : api.plan.symbolAt(network, address, { localWorld: api.localWorld(network) }),
  );
  const rows = await currentPrices(
    api.db,
    symbols.filter((symbol) => symbol !== null),
  );
  return symbols.map((symbol, i) => priceItem(api, symbol, tokens[i] ?? coinSymbol, rows).prices);
}

export const priceOperations = [
  defineRestOperation<PricesApi, typeof BySymbolQuery>({
    operationId: 'getTokenPricesBySymbol',
    method: 'GET',
    paths: [{ path: `${prefix}/by-symbol`, operationId: 'getTokenPricesBySymbol' }],
    summary: 'Current prices of tokens by symbol (docs/prices.md#current-prices-by-symbol)',
    description: `Each token's latest aggregate of its fresh sources (pools, feeds, exchanges), in dollars. Costs ${PRICE_ENDPOINTS['by-symbol'].computeUnits} compute units.`,
    tags: ['Prices'],
    query: BySymbolQuery,
    computeUnits: PRICE_ENDPOINTS['by-symbol'].computeUnits,
    meteredAs: 'prices/by-symbol',
    responses: responses(PricesBySymbol, 'One item per symbol asked, in order (docs/prices.md#current-prices-by-symbol).'),
    handler: async ({ query }, api) => {
      const symbols = query.symbols.map((asked) => api.plan.symbolOf(asked));
      const rows = await currentPrices(
        api.db,
        symbols.filter((symbol) => symbol !== null),
      );
      return { data: query.symbols.map((asked, i) => ({ symbol: symbols[i] ?? asked, ...priceItem(api, symbols[i]!, asked, rows) })) };
    },
  }),
  defineRestOperation<PricesApi, z.ZodObject, typeof ByAddressBody>({
    operationId: 'getTokenPricesByAddress',
    method: 'POST',
    paths: [{ path: `${prefix}/by-address`, operationId: 'getTokenPricesByAddress' }],
    summary: 'Current prices of tokens by network and contract address',
    description: `As by-symbol, for contracts of the price list on a network (the local world's addresses on every local devnet). Costs ${PRICE_ENDPOINTS['by-address'].computeUnits} compute units.`,
    tags: ['Prices'],
    body: { schema: ByAddressBody, maxBytes: 16 * 1024 },
    computeUnits: PRICE_ENDPOINTS['by-address'].computeUnits,
    meteredAs: 'prices/by-address',
    responses: responses(PricesByAddress, 'One item per address asked, in order.'),
    handler: async ({ body }, api) => {
      const asked = body.addresses;
      const ids = asked.map(({ network }) => api.networkIdOf(network));
      const symbols = asked.map(({ address }, i) => {
        const id = ids[i];
        return id ? api.plan.symbolAt(id, address, { localWorld: api.localWorld(id) }) : null;
      });
      const rows = await currentPrices(
        api.db,
        symbols.filter((symbol) => symbol !== null),
      );
      const data = asked.map(({ network, address }, i) => {
        const item = ids[i]
          ? priceItem(api, symbols[i]!, `${address} on ${network}`, rows)
          : { prices: [], error: { message: `No price for ${address}: there is no network ${network}.` } };
        return { network, address, ...item };
      });
      return { data };
    },
  }),
  defineRestOperation<PricesApi, z.ZodObject, typeof HistoricalBody>({
    operationId: 'getHistoricalTokenPrices',
    method: 'POST',
    paths: [{ path: `${prefix}/historical`, operationId: 'getHistoricalTokenPrices' }],
    summary: 'Historical prices of one token (docs/prices.md#historical-prices)',
    description: `One point per interval boundary with data between startTime and endTime, oldest first: the first aggregate sampled at or after the boundary within its interval. Give symbol, or network and address. Costs ${PRICE_ENDPOINTS.historical.computeUnits} compute units.`,
    tags: ['Prices'],
    body: { schema: HistoricalBody, maxBytes: 16 * 1024 },
    computeUnits: PRICE_ENDPOINTS.historical.computeUnits,
    meteredAs: 'prices/historical',
    responses: responses(HistoricalPrices, 'The points (docs/prices.md#historical-prices).', true),
    handler: async ({ body }, api) => {
      const { symbol: askedSymbol, network, address, interval } = body;
      if (askedSymbol !== undefined && (network !== undefined || address !== undefined)) throw badRequest('Give symbol, or network and address, not both.');
      if (askedSymbol === undefined && (network === undefined || address === undefined)) throw badRequest('Give symbol, or both network and address.');
      const start = parseTime(body.startTime);
      const end = parseTime(body.endTime);
      if (start === null) throw badRequest(`startTime ${JSON.stringify(body.startTime)} is not a time: give ISO 8601 or unix seconds.`);
      if (end === null) throw badRequest(`endTime ${JSON.stringify(body.endTime)} is not a time: give ISO 8601 or unix seconds.`);
      if (start > end) throw badRequest(`startTime (${iso(start)}) is after endTime (${iso(end)}).`);
      const cap = RANGE_CAPS[interval];
      if (end - start > cap.ms)
        throw badRequest(`The range is longer than ${cap.words}, the most interval ${interval} answers; ask for a shorter range or a longer interval.`);
      let symbol: string | null;
      if (askedSymbol !== undefined) symbol = api.plan.symbolOf(askedSymbol);
      else {
        const id = api.networkIdOf(network!);
        symbol = id ? api.plan.symbolAt(id, address!, { localWorld: api.localWorld(id) }) : null;
      }
      if (symbol === null)
        throw new CrucibleError(
          'not_found',
          askedSymbol !== undefined ? `${askedSymbol} is not in Crucible's price list.` : `${address} on ${network} is not in Crucible's price list.`,
        );
      // A boundary at or after startTime (rounded up to the interval) up to endTime.
      const first = bucketStart(start + PRICE_INTERVALS[interval] - 1, interval);
      const points = await pricePoints(api.db, symbol, interval, first, end);
      const data = points.map((point) => ({ value: point.value, timestamp: iso(point.bucketStart) }));
      const named = askedSymbol !== undefined ? { symbol } : { network: network!, address: address! };
      return { ...named, currency: 'usd', data };
    },
  }),
];

/** Token prices under `/prices/v1/<key>/`, on the site's origin; they belong to no network. */
export const priceProduct: RestProduct<PricesApi> = {
  name: 'prices',
  mount: { at: 'site', prefix: '/prices/' },
  queryStyle: 'plain',
  scope: { name: 'prices' },
  apiKey: ApiKey,
  operations: priceOperations,
};

function responses(body: z.ZodType, description: string, notFound = false): Record<number, ResponseSpec> {
  const specs: Record<number, ResponseSpec> = {
    200: { description, content: { 'application/json': body } },
    400: errorResponseSpec(
      'bad_request',
      'the query or body is invalid (the message names what), or the call costs more compute units than the key may spend at once (its burst), which no wait changes.',
    ),
    401: errorResponseSpec('unauthorized', 'the key is missing or unknown.'),
    403: errorResponseSpec('forbidden', 'the app is disabled, or not allowed from this Origin.'),
    429: errorResponseSpec('rate_limited', 'over the rate or the monthly quota; Retry-After says when to come back.'),
    500: errorResponseSpec('internal_error', 'the server failed.'),
  };
  if (notFound) specs[404] = errorResponseSpec('not_found', 'the token is not in the price list.');
  return specs;
}

const formatIso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');
// Every answer names the same interval boundaries and sampling times again: formatted once each
// (a quarter of a year of `1d` points' CPU was toISOString), the cache emptied when it is full.
const ISO_TIMES_KEPT = 100_000;
const isoTimes = new Map<number, string>();
const iso = (ms: number): string => {
  let text = isoTimes.get(ms);
  if (text === undefined) {
    if (isoTimes.size >= ISO_TIMES_KEPT) isoTimes.clear();
    isoTimes.set(ms, (text = formatIso(ms)));
  }
  return text;
};
