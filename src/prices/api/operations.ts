import type { Kysely } from 'kysely';
import { z } from 'zod';
import { documentationUrlOf } from '../../api/errors.ts';
import { defineOperation, type ApiOperation, type ApiRequest, type RequestContext, type ResponseSpec } from '../../api/operation.ts';
import { errorResponseSpec, jsonResponse } from '../../api/responses.ts';
import type { DatabaseSchema } from '../../db/schema.ts';
import type { ProductAdmission, ProductCharge } from '../../node/gateway.ts';
import { nftFailure, type NftAnswer } from '../../nfts/api/errors.ts';
import type { PricePlan } from '../plan.ts';
import { bucketStart, currentPrices, PRICE_INTERVALS, pricePoints, type CurrentPrice, type PriceInterval } from '../store.ts';
import { ByAddressBody, BySymbolQuery, HistoricalBody, HistoricalPrices, PricesByAddress, PricesBySymbol } from './schemas.ts';
import { parseTime } from './time.ts';

// The prices endpoints under `{prices_url}/prices/v1/<key>/tokens/` (spec 4.13, 4.14, platform §7):
// the key, the app and the compute units as for the node API, then answers from what the sampler
// recorded. An unknown token, or one with no fresh price, is an item's `error` in a 200 answer;
// a request that is wrong as a whole is a 4xx with the Error body.

/** Compute units per call: a current price is one row per token; history reads up to 366 or 2,016 points. */
const PRICE_ENDPOINTS = {
  'by-symbol': { computeUnits: 20 },
  'by-address': { computeUnits: 20 },
  historical: { computeUnits: 40 },
} as const;
type PriceEndpoint = keyof typeof PRICE_ENDPOINTS;

/** The longest range each interval answers (platform §7). */
const RANGE_CAPS: Record<PriceInterval, { ms: number; words: string }> = {
  '5m': { ms: 7 * 86_400_000, words: '7 days' },
  '1h': { ms: 30 * 86_400_000, words: '30 days' },
  '1d': { ms: 366 * 86_400_000, words: '1 year' },
};

export interface PricesApi {
  db: Kysely<DatabaseSchema>;
  plan: PricePlan;
  /** The node gateway's admission: keys, app state and Origin, rate and quota. */
  admit(key: string, request: { origin: string | null; clientIp: string | null }, charge: ProductCharge): Promise<ProductAdmission>;
  /** Whether a network's node is a local devnet, where the world's addresses name its tokens. */
  localWorld(network: string): boolean;
  networks: ReadonlySet<string>;
  /** A current price older than this (since it was sampled) is no price: the sampler has stopped. */
  staleAfterMs: number;
  now?: () => number;
}

const prefix = '/prices/v1/{apiKey}/tokens';

const ApiKey = z.object({ apiKey: z.string().describe("An app's key, or `demo` (limited per client IP).") });

export function pricesOperations(origin: string, api: PricesApi | null): ApiOperation[] {
  const documentationUrl = documentationUrlOf(origin);
  const now = () => (api?.now ?? Date.now)();
  const failure = (code: Parameters<typeof nftFailure>[0], message: string) => nftFailure(code, message, documentationUrl);

  /** Admits the call, answers it, meters it; a refusal or a failure is the Error body. */
  const served = async (
    endpoint: PriceEndpoint,
    input: { request: ApiRequest; params: { apiKey: string }; context: RequestContext },
    answer: (api: PricesApi) => Promise<NftAnswer>,
  ): Promise<Response> => {
    if (!api) throw new Error('the prices API is described, not served, here');
    const admission = await api.admit(
      input.params.apiKey,
      { origin: input.request.headers.get('origin'), clientIp: input.context.clientIp },
      { product: 'prices', method: `prices/${endpoint}`, computeUnits: PRICE_ENDPOINTS[endpoint].computeUnits, documentationUrl },
    );
    if (!admission.ok) return respond(admission.answer);
    const result = await answer(api);
    admission.done(result.status);
    return respond(result);
  };

  const priceItem = (symbol: string | null, asked: string, rows: ReadonlyMap<string, CurrentPrice>) => {
    if (symbol === null) return { prices: [], error: { message: `No price for ${asked}: it is not in Crucible's price list.` } };
    const row = rows.get(symbol);
    const at = now();
    if (!row) return { prices: [], error: { message: `No price for ${symbol} yet: its sources have not been sampled.` } };
    if (at - row.sampled_at > api!.staleAfterMs)
      return { prices: [], error: { message: `No fresh price for ${symbol}: it was last sampled at ${iso(row.sampled_at)}, and sampling has stopped.` } };
    if (row.value === null || row.observed_at === null) return { prices: [], error: { message: `No fresh price for ${symbol}: ${row.error}` } };
    return { prices: [{ currency: 'usd' as const, value: row.value, lastUpdatedAt: iso(row.observed_at) }], error: null };
  };

  const bySymbol = defineOperation({
    operationId: 'getTokenPricesBySymbol',
    method: 'GET',
    path: `${prefix}/by-symbol`,
    summary: 'Current prices of tokens by symbol (spec 4.13)',
    description: `Each token's latest aggregate of its fresh sources (pools, feeds, exchanges), in dollars. Costs ${PRICE_ENDPOINTS['by-symbol'].computeUnits} compute units.`,
    tags: ['Prices'],
    params: ApiKey,
    query: BySymbolQuery,
    responses: responses(PricesBySymbol, 'One item per symbol asked, in order (spec 2.12).'),
    handler: (input) =>
      served('by-symbol', input, async ({ db, plan }) => {
        const symbols = input.query.symbols.map((asked) => plan.symbolOf(asked));
        const rows = await currentPrices(
          db,
          symbols.filter((symbol) => symbol !== null),
        );
        const data = input.query.symbols.map((asked, i) => ({ symbol: symbols[i] ?? asked, ...priceItem(symbols[i]!, asked, rows) }));
        return { status: 200, body: { data } };
      }),
  });

  const byAddress = defineOperation({
    operationId: 'getTokenPricesByAddress',
    method: 'POST',
    path: `${prefix}/by-address`,
    summary: 'Current prices of tokens by network and contract address',
    description: `As by-symbol, for contracts of the price list on a network (the local world's addresses on every local devnet). Costs ${PRICE_ENDPOINTS['by-address'].computeUnits} compute units.`,
    tags: ['Prices'],
    params: ApiKey,
    body: { schema: ByAddressBody, maxBytes: 16 * 1024 },
    responses: responses(PricesByAddress, 'One item per address asked, in order.'),
    handler: (input) =>
      served('by-address', input, async (api) => {
        const asked = input.body.addresses;
        const symbols = asked.map(({ network, address }) =>
          api.networks.has(network) ? api.plan.symbolAt(network, address, { localWorld: api.localWorld(network) }) : null,
        );
        const rows = await currentPrices(
          api.db,
          symbols.filter((symbol) => symbol !== null),
        );
        const data = asked.map(({ network, address }, i) => {
          const item = api.networks.has(network)
            ? priceItem(symbols[i]!, `${address} on ${network}`, rows)
            : { prices: [], error: { message: `No price for ${address}: there is no network ${network}.` } };
          return { network, address, ...item };
        });
        return { status: 200, body: { data } };
      }),
  });

  const historical = defineOperation({
    operationId: 'getHistoricalTokenPrices',
    method: 'POST',
    path: `${prefix}/historical`,
    summary: 'Historical prices of one token (spec 4.14)',
    description: `One point per interval boundary with data between startTime and endTime, oldest first: the first aggregate sampled at or after the boundary within its interval. Give symbol, or network and address. Costs ${PRICE_ENDPOINTS.historical.computeUnits} compute units.`,
    tags: ['Prices'],
    params: ApiKey,
    body: { schema: HistoricalBody, maxBytes: 16 * 1024 },
    responses: responses(HistoricalPrices, 'The points (spec 2.13).', true),
    handler: (input) =>
      served('historical', input, async (api) => {
        const { symbol: askedSymbol, network, address, interval } = input.body;
        if (askedSymbol !== undefined && (network !== undefined || address !== undefined))
          return failure('bad_request', 'Give symbol, or network and address, not both.');
        if (askedSymbol === undefined && (network === undefined || address === undefined))
          return failure('bad_request', 'Give symbol, or both network and address.');
        const start = parseTime(input.body.startTime);
        const end = parseTime(input.body.endTime);
        if (start === null) return failure('bad_request', `startTime ${JSON.stringify(input.body.startTime)} is not a time: give ISO 8601 or unix seconds.`);
        if (end === null) return failure('bad_request', `endTime ${JSON.stringify(input.body.endTime)} is not a time: give ISO 8601 or unix seconds.`);
        if (start > end) return failure('bad_request', `startTime (${iso(start)}) is after endTime (${iso(end)}).`);
        const cap = RANGE_CAPS[interval];
        if (end - start > cap.ms)
          return failure(
            'bad_request',
            `The range is longer than ${cap.words}, the most interval ${interval} answers; ask for a shorter range or a longer interval.`,
          );
        let symbol: string | null;
        if (askedSymbol !== undefined) symbol = api.plan.symbolOf(askedSymbol);
        else symbol = api.networks.has(network!) ? api.plan.symbolAt(network!, address!, { localWorld: api.localWorld(network!) }) : null;
        if (symbol === null)
          return failure(
            'not_found',
            askedSymbol !== undefined ? `${askedSymbol} is not in Crucible's price list.` : `${address} on ${network} is not in Crucible's price list.`,
          );
        // A boundary at or after startTime (rounded up to the interval) up to endTime.
        const first = bucketStart(start + PRICE_INTERVALS[interval] - 1, interval);
        const points = await pricePoints(api.db, symbol, interval, first, end);
        const data = points.map((point) => ({ value: point.value, timestamp: iso(point.bucketStart) }));
        const named = askedSymbol !== undefined ? { symbol } : { network: network!, address: address! };
        return { status: 200, body: { ...named, currency: 'usd', data } };
      }),
  });

  return [bySymbol, byAddress, historical] as unknown as ApiOperation[];
}

function responses(body: z.ZodType, description: string, notFound = false): Record<number, ResponseSpec> {
  const specs: Record<number, ResponseSpec> = {
    200: { description, content: { 'application/json': body } },
    400: errorResponseSpec('bad_request', 'the query or body is invalid; the message names what.'),
    401: errorResponseSpec('unauthorized', 'the key is missing or unknown.'),
    403: errorResponseSpec('forbidden', 'the app is disabled, or not allowed from this Origin.'),
    429: errorResponseSpec('rate_limited', 'over the rate or the monthly quota; Retry-After says when to come back.'),
    500: errorResponseSpec('internal_error', 'the server failed.'),
  };
  if (notFound) specs[404] = errorResponseSpec('not_found', 'the token is not in the price list.');
  return specs;
}

function respond(answer: NftAnswer): Response {
  const headers: Record<string, string> = { 'access-control-allow-origin': '*' };
  if (answer.status !== 200) headers['cache-control'] = 'no-store';
  if (answer.retryAfterSeconds !== undefined) headers['retry-after'] = String(answer.retryAfterSeconds);
  return jsonResponse(answer.body, { status: answer.status, headers });
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
