import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPublicClient, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployWorld } from '../../../src/chain/world/deploy.ts';
import { WORLD_PRICE_SOURCES } from '../../../src/chain/world/price-layer.ts';
import { swapOnWorldPool } from '../../../src/chain/world/swap.ts';
import { type PricesConfig, readPricesConfig } from '../../../src/config/prices.ts';
import { openDatabase, type Database } from '../../../src/db/open.ts';
import { planPrices } from '../../../src/prices/plan.ts';
import { createExchangeTickers } from '../../../src/prices/exchange-tickers.ts';
import { createPriceSampler } from '../../../src/prices/sampler.ts';
import { currentPrices } from '../../../src/prices/store.ts';
import { loadTokenList } from '../../../src/token-list/token-list.ts';
import { viemTokenChain } from '../../../src/tokens/viem-chain.ts';
import { startTestAnvil } from '../../support/anvil.ts';
import { startExchangeServer } from './exchange-server.ts';

// The sampler over a real devnet carrying the local world (docs/prices.md#sampling): the committed token list's
// world sources read in one call per round, converted through the quote tokens, aggregated and
// recorded in a real SQLite file; a swap moves the next round's quote; a chain whose head is two
// days behind the clock gives no price at all rather than a stale one; exchanges that time out or
// answer garbage (loopback stand-ins) leave the round to the chain's sources, each with its reason.

const NETWORK = 'ethereum-sepolia';
let anvil: Awaited<ReturnType<typeof startTestAnvil>>;
let database: Database;
let folder: string;

const config = readPricesConfig({}, { local: true });

async function sampler(now?: () => number, exchangeUrls?: PricesConfig['exchangeUrls']) {
  const list = await loadTokenList(process.cwd(), { siteOrigin: 'http://localhost:4321' });
  const plan = planPrices(list.entries, { worldNetwork: NETWORK, world: WORLD_PRICE_SOURCES, exchanges: new Set(exchangeUrls ? ['coinbase', 'kraken'] : []) });
  const chain = viemTokenChain(createPublicClient({ transport: http(anvil.rpcUrl) }));
  return createPriceSampler({
    db: database.db,
    plan,
    chainOf: (network) => (network === NETWORK ? chain : null),
    exchangeTicker: exchangeUrls && createExchangeTickers(plan, { exchangeUrls, exchangeTimeoutMs: 300 }).ticker,
    periodMs: 1000,
    aggregate: { maxAgeMs: config.maxAgeMs, madThreshold: config.madThreshold },
    now,
  });
}

beforeAll(async () => {
  anvil = await startTestAnvil({ chainId: 11155111 });
  folder = await mkdtemp(join(tmpdir(), 'crucible-prices-'));
  database = await openDatabase({ engine: 'sqlite', path: join(folder, 'crucible.sqlite') });
  await deployWorld(anvil.rpcUrl, { siteOrigin: 'http://localhost:4321' });
});

afterAll(async () => {
  await database?.close();
  await anvil?.stop();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the price sampler on a devnet with the local world', () => {
  it("prices every world token from its pools and feeds, a pool's quote in dollars through its quote token", async () => {
    const round = await (await sampler()).sampleOnce();
    const values = Object.fromEntries([...round.prices].map(([symbol, price]) => [symbol, price.ok ? price.value.value : price.error.message]));
    expect(values).toEqual({ cUSD: '1', ETH: '3000', WETH: '3000', FORGE: '2.5', EMBR: '1.2', SLAG: '0.25' });
    const slag = round.observations.find((observation) => observation.symbol === 'SLAG')!;
    expect(slag).toMatchObject({ value: '0.25', conversion: { quoteSymbol: 'FORGE', inQuote: '0.1', quoteUsd: '2.5' }, liquidityUsd: '50000' });
    const rows = await currentPrices(database.db, ['FORGE']);
    expect(rows.get('FORGE')).toMatchObject({ value: '2.5', error: null });
  });

  it('moves the quote of a pool a swap went through, and the aggregate with it', async () => {
    const swap = await swapOnWorldPool(anvil.rpcUrl, { pool: 'forge-cusd', sell: 'cusd', amount: '25000' });
    expect(swap.bought.token).toBe('forge');
    const round = await (await sampler()).sampleOnce();
    const pool = round.observations.find((observation) => observation.symbol === 'FORGE' && observation.source.kind === 'amm-v2')!;
    // Buying FORGE with cUSD raises its price in the pool: about 2.5 · (275,000/250,000)² ≈ 3.02 before the fee.
    expect(Number(pool.value)).toBeGreaterThan(2.9);
    const forge = round.prices.get('FORGE')!;
    // The aggregate of the pool and the 2.50 feed is their median: the mean of the two.
    expect(forge.ok && Number(forge.value.value)).toBeCloseTo((Number(pool.value) + 2.5) / 2, 12);
  });

  it('answers no price, never a stale one, when the chain is two days behind the clock', async () => {
    const latest = await anvil.client.getBlock();
    const round = await (await sampler(() => Number(latest.timestamp) * 1000 + 2 * 86_400_000)).sampleOnce();
    for (const [symbol, price] of round.prices) expect(price.ok, symbol).toBe(false);
    const forge = round.prices.get('FORGE')!;
    expect(!forge.ok && forge.error.message).toMatch(/stale/);
    expect((await currentPrices(database.db, ['FORGE'])).get('FORGE')).toMatchObject({ value: null });
  });

  it('prices on from the chain when one exchange never answers and the other answers garbage, saying why of each', async () => {
    const silent = await startExchangeServer(() => {});
    const garbage = await startExchangeServer((_url, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>'));
    try {
      const round = await (await sampler(undefined, { coinbase: silent.origin, kraken: garbage.origin })).sampleOnce();
      const eth = round.prices.get('ETH')!;
      expect(eth.ok && eth.value.value).toBe('3000');
      expect(eth.ok && eth.value.used.map((observation) => observation.source.kind).sort()).toEqual(['amm-v2', 'oracle']);
      const reasons = Object.fromEntries(
        round.skipped.filter((skip) => skip.source.kind === 'exchange').map((skip) => [skip.source.id.split(':')[0], skip.reason]),
      );
      expect(reasons.coinbase).toMatch(/did not answer within 300 ms/);
      expect(reasons.kraken).toMatch(/answered something that is not JSON/);
      expect(silent.seen.length).toBeGreaterThan(0);
    } finally {
      await silent.close();
      await garbage.close();
    }
  });
});
